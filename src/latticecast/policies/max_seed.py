"""Modular MAX's graph promotion as the seed specifies it (``max.graph.type_promotion``).

The lattice (:data:`.lattices.MAX_EDGES`) is JAX-like with MAX's own dtypes:
``index`` and ``address`` promote up to ``uint64``; integers of any width promote
to ``float16``; ``float16 -> bfloat16 -> float32 -> tensor_float32 -> float64``.
The seed's 16x16 table disagrees with that prose in four cells (see
:mod:`latticecast.evidence.max_seed`): the lattice is what the prose says and what makes
the table commutative and associative.

Python scalars follow MAX's Python API (``max.graph.dtype_promotion``): a scalar
always takes the dtype of the strongly typed operand (an ``int`` any dtype, a
``float`` only a float dtype), is checked to be representable at full precision,
and two scalars never promote with each other.

This is the seed's MAX. MAX 26.7's Python ``max.graph`` promotes differently; that
is the ``max-python`` policy.
"""

from __future__ import annotations

from typing import Sequence

import functools

from ..promotion.dtypes import DType
from ..promotion.weak import PType, Weak
from ..promotion.value_fit import Scalar
from .base import Decision, LatticePolicy
from .components import LiteralRules, OpTypeRules
from .lattices import MAX_DTYPES, MAX_EDGES

__all__ = ["MaxPolicy"]

_FULL_PRECISION_BITS = {DType.float16: 11, DType.bfloat16: 8, DType.float32: 24, DType.tensor_float32: 11,
                        DType.float64: 53}
"""Significand bits (with the implicit one) of MAX's floats: an int is exact within +-2**bits."""

_SCALAR_RULE = "a Python scalar takes the dtype of the graph value it meets (max.graph.dtype_promotion)"


class MaxPolicy(LatticePolicy):
    name = "max"
    title = "Modular MAX graph type promotion"
    source = "max-graph-type-promotion.txt (prose and table); max.graph.dtype_promotion for Python scalars"
    dtypes = MAX_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64))
    default_int = DType.int64
    default_float = DType.float64
    default_complex = None
    edges = MAX_EDGES
    lattice_rule = "join on MAX's lattice"

    def missing_dtype_reason(self, d: DType) -> str:
        """The seed's MAX has none of the float8/6/4 or sub-byte integer dtypes."""
        return (": the seed's MAX type promotion predates the low-precision dtypes"
                " (float8, float6, float4, sub-byte integers)") if d.is_low_precision else ""

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        """Only the dtypes: Python scalars follow MAX's scalar rule, not a lattice."""
        return self.dtypes

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        if w.dtype.is_float() and not d.is_float():
            return Decision(None, _SCALAR_RULE,
                            f"Unsafe cast: can't promote a python float to dtype({self.type_name(d)})")
        return Decision(d, _SCALAR_RULE)

    def nary(self, types: "Sequence[PType | str]", zero_dim: "Sequence[bool]") -> PType:
        """MAX promotes two operands at a time, and its Python scalars only ever take a value's dtype: the
        values promote, then each scalar against their result (:meth:`~.base.Policy.scalars_after_arrays`)."""
        return self.scalars_after_arrays(types)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return Decision(None, _SCALAR_RULE, "MAX promotes a Python scalar only to the dtype of a graph value; "
                                            "two scalars overpromote (make one an explicit constant)")

    @functools.cached_property
    def literals(self) -> LiteralRules:
        return MaxLiterals(self)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return MaxOpTypes(self)


class MaxLiterals(LiteralRules):
    """MAX's rule: an int must be exactly representable (for floats, within +-2**(significand
    bits)); a float literal needs a float dtype."""

    def problem(self, value: Scalar, target: DType) -> str | None:
        problem = super().problem(value, target)
        if problem is None and not isinstance(value, (float, complex)) and target in _FULL_PRECISION_BITS:
            limit = 1 << _FULL_PRECISION_BITS[target]
            if abs(int(value)) > limit:
                problem = (f"can't promote python int with value ({int(value)}) to dtype({target.name}); "
                           f"it would lose precision (exact only within +-{limit})")
        return problem


class MaxOpTypes(OpTypeRules):
    """MAX divides integers as floats of its default float width, float32 (an integer would
    otherwise reach float16 on MAX's lattice, losing magnitude above 65504), and its ``ops.sum``
    keeps the dtype (bool sums count, in int64)."""

    def true_divide(self, t: "PType | str") -> PType | None:
        t = self.policy.canonical(t)
        dtype = t.dtype if isinstance(t, Weak) else t
        if dtype.is_float():
            return t
        return DType.float64 if dtype.bitwidth == 64 else DType.float32

    def sum(self, dtype: DType) -> DType:
        return DType.int64 if dtype.is_bool else dtype
