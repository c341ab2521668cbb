"""Modular MAX's graph promotion (``max.graph.type_promotion``), from the seed's prose.

The lattice is JAX-like with MAX's own dtypes:

* ``index`` and ``address`` (unsigned word-size integers) "promote up to uint64
  regardless of architecture"; nothing promotes *to* them;
* integers of any width promote to ``float16``; ``float16 -> bfloat16 -> float32``
  (``bfloat16`` sits above its higher-precision counterpart, so it is only reached
  when used explicitly);
* ``tensor_float32`` sits between ``float32`` and ``float64``.

The seed's 16x16 table disagrees with that prose in four cells (see
:data:`PUBLISHED_TABLE_ERRATA`): the lattice is what the prose says and what
makes the table commutative and associative.

Python scalars follow MAX's Python API (``max.graph.dtype_promotion``): a scalar
always takes the dtype of the strongly typed operand (an ``int`` any dtype, a
``float`` only a float dtype), is checked to be representable at full precision,
and two scalars never promote with each other.
"""

from __future__ import annotations

from ..dtypes import DType
from ..errors import LiteralRangeError
from ..weak import PType, Weak
from .base import LatticePolicy, Literal, by_name, literal_fix, literal_problem, weak_and_strong

__all__ = ["MaxPolicy", "PUBLISHED_TABLE_ERRATA"]

MAX_DTYPES = by_name(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                      "index", "address", "float16", "bfloat16", "float32", "tensor_float32", "float64"])

PUBLISHED_TABLE_ERRATA: dict[tuple[DType, DType], tuple[DType, DType, str]] = {
    (DType.bool, DType.index): (DType.int64, DType.uint64,
                                "index 'behaves as uint64' and bool promotes to uint8, so bool . index = uint64, "
                                "as the table's own index row says (index . bool = uint64)"),
    (DType.bool, DType.address): (DType.int64, DType.uint64,
                                  "address 'behaves as uint64': bool . address = uint64, as the address row says"),
    (DType.int8, DType.index): (DType.index, DType.float16,
                                "'we never promote other types to' index; int8 and uint64 meet at float16, "
                                "as the index row says (index . int8 = float16)"),
    (DType.int8, DType.address): (DType.address, DType.float16,
                                  "nothing promotes to address; int8 . uint64 = float16, as the address row says"),
}
"""(row, column) -> (published, lattice, why): the four cells where the table contradicts its prose."""

_FULL_PRECISION_BITS = {DType.float16: 11, DType.bfloat16: 8, DType.float32: 24, DType.tensor_float32: 11,
                        DType.float64: 53}


class MaxPolicy(LatticePolicy):
    name = "max"
    title = "Modular MAX graph type promotion"
    source = "max-graph-type-promotion.txt (prose and table); max.graph.dtype_promotion for Python scalars"
    dtypes = MAX_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64))
    default_int = DType.int64
    default_float = DType.float64
    default_complex = None
    published_table_name = "max"

    edges = {
        DType.bool: [DType.int8, DType.uint8],
        DType.int8: [DType.int16],
        DType.int16: [DType.int32],
        DType.int32: [DType.int64],
        DType.int64: [DType.float16],
        DType.uint8: [DType.uint16, DType.int16],
        DType.uint16: [DType.uint32, DType.int32],
        DType.uint32: [DType.uint64, DType.int64],
        DType.uint64: [DType.float16],
        DType.index: [DType.uint64],
        DType.address: [DType.uint64],
        DType.float16: [DType.bfloat16],
        DType.bfloat16: [DType.float32],
        DType.float32: [DType.tensor_float32],
        DType.tensor_float32: [DType.float64],
    }

    def errata(self) -> dict[tuple[PType, PType], str]:
        return {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()}

    def _join(self, a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) or isinstance(b, Weak):
            if isinstance(a, Weak) and isinstance(b, Weak):
                return None
            w, strong = weak_and_strong(a, b)
            if w.dtype.is_float and not strong.is_float:
                return None
            return strong
        return self.lattice.join(a, b)

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        """Only the dtypes: Python scalars follow MAX's rule in :meth:`_join`, not a lattice."""
        return self.dtypes

    def why_undefined(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return ("MAX promotes a Python scalar only to the dtype of a graph value; two scalars "
                    "overpromote (make one an explicit constant)")
        if isinstance(a, Weak) or isinstance(b, Weak):
            strong = b if isinstance(a, Weak) else a
            return f"Unsafe cast: can't promote a python float to dtype({self.type_name(strong)})"
        return super().why_undefined(a, b)

    def check_literal(self, value: Literal, target: DType) -> None:
        """MAX's rule: an int must be exactly representable (for floats, within
        +-2**(mantissa bits + 1)); a float literal needs a float dtype."""
        problem = literal_problem(value, target)
        if problem is None and not isinstance(value, (float, complex)) and target in _FULL_PRECISION_BITS:
            limit = 1 << _FULL_PRECISION_BITS[target]
            if abs(int(value)) > limit:
                problem = (f"can't promote python int with value ({int(value)}) to dtype({target.name}); "
                           f"it would lose precision (exact only within +-{limit})")
        if problem:
            raise LiteralRangeError(f"Unsafe cast: {problem}; {literal_fix(value, target)}",
                                    policy=self.name, lhs=self.literal_type(value), rhs=target)

    def true_divide_type(self, t: PType) -> PType | None:
        """MAX divides integers as floats of its default float width, float32 (an integer
        would otherwise reach float16 on MAX's lattice, losing magnitude above 65504)."""
        dtype = t.dtype if isinstance(t, Weak) else t
        if dtype.is_float:
            return t
        return DType.float64 if dtype.bitwidth == 64 else DType.float32

    def sum_type(self, dtype: DType) -> DType:
        """MAX's ``ops.sum`` keeps the dtype (bool sums count, in int64)."""
        return DType.int64 if dtype.is_bool else dtype

    def _explain_lines(self, a: PType, b: PType, result: PType) -> list[str]:
        if isinstance(a, Weak) or isinstance(b, Weak):
            return ["  a Python scalar takes the dtype of the graph value it meets "
                    "(max.graph.dtype_promotion)"]
        return super()._explain_lines(a, b, result)

    def rule(self, a: PType, b: PType) -> str:
        return "join on MAX's lattice"
