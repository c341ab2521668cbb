"""NumPy 2's promotion: a safe-casting DAG, NumPy's type order, and NEP 50 for Python scalars.

Arrays (and, since NumPy 2, NumPy scalars) promote by two rules, the ones NumPy
uses to build its built-in promotion table (``_multiarray_umath``'s casting
tables):

1. if one dtype casts *safely* to the other (``np.can_cast(a, b, "safe")``), the
   result is the other one;
2. otherwise the result is the first dtype, in NumPy's type-number order, that
   both cast to safely.

Safe casting is a DAG (:data:`SAFE_CASTS`) but not a lattice: ``int8`` and ``uint8``
both cast safely to ``int16`` and to ``float16``, which are unordered. Rule 2
breaks the tie by the type order (``int16`` comes first), and that tie-break is
why NumPy's promotion is not associative, the design note's example::

    (int8 . uint8) . float16 = int16 . float16 = float32
    int8 . (uint8 . float16) = int8 . float16  = float16

Python scalars are weak (NEP 50, NumPy 2): a Python ``int``/``float``/``complex``
takes the dtype of an array of its own kind or a higher one (``int8 + 1`` is
``int8``, ``float16 + 1.0`` is ``float16``); against a lower kind it brings its
own default type (``int8 + 1.0`` is ``float64``), except that a complex scalar
keeps a float array's precision (``float32 + 1j`` is ``complex64``). Two Python
scalars make a NumPy scalar of the default type (``np.add(1, 2.0)`` is a
``float64``, which is strong).

Measured against NumPy 2.4 (the design note's generator code, ``np.add`` of
zeros), today's table equals the 2021 appendix table in every cell: NEP 50
removed value-based casting, which a table of zeros never showed. What changed
is out-of-range Python ints: ``int8 array + 1000`` was ``int16`` and now raises
``OverflowError`` (see :meth:`NumpyPolicy.check_literal`).

NumPy has no ``bfloat16`` (``ml_dtypes`` adds one as an extension dtype, outside
NumPy's promotion), so this policy rejects it, as the appendix table's ``bf16``
row does.

The policy never asks NumPy: the rules are data here, and the tests compare them
with ``np.can_cast``, ``np.promote_types`` and ``np.add``.
"""

from __future__ import annotations

import functools
from typing import Mapping, Sequence

from ..dtypes import DType, Kind
from ..errors import PromotionError
from ..weak import PType, Weak, dtype_of, parse_ptype
from .base import Literal, Policy, by_name, weak_and_strong
from .jax import jax_weak_node

__all__ = ["NumpyPolicy", "SAFE_CASTS", "TYPE_ORDER", "check_literal_overflow_to_inf"]

_D = DType

SAFE_CASTS: Mapping[DType, Sequence[DType]] = {
    _D.bool: [_D.uint8, _D.int8],
    _D.uint8: [_D.uint16, _D.int16, _D.float16],
    _D.int8: [_D.int16, _D.float16],
    _D.uint16: [_D.uint32, _D.int32, _D.float32],
    _D.int16: [_D.int32, _D.float32],
    _D.uint32: [_D.uint64, _D.int64],
    _D.int32: [_D.int64],
    _D.uint64: [_D.float64],
    _D.int64: [_D.float64],
    _D.float16: [_D.float32],
    _D.float32: [_D.float64, _D.complex64],
    _D.float64: [_D.complex128],
    _D.complex64: [_D.complex128],
}
"""The generating edges (transitively reduced) of ``np.can_cast(a, b, "safe")``: their
reflexive-transitive closure is NumPy's safe-casting relation on these dtypes (a float holds
every value of a narrower integer exactly; ``uint64``/``int64 -> float64`` is safe by NumPy's
own convention)."""

TYPE_ORDER: tuple[DType, ...] = by_name([
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float32", "float64", "complex64", "complex128", "float16"])
"""NumPy's type numbers in increasing order (``np.dtype(t).num``: ``bool`` 0, ``int8`` 1, ...,
``complex128`` 15; ``float16`` was added later and is 23). Rule 2 takes the first dtype in
this order that both operands cast to safely."""

NUMPY_DTYPES = by_name(["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
                        "float16", "float32", "float64", "complex64", "complex128"])

_KIND_RANK = {Kind.BOOL: 0, Kind.UNSIGNED: 1, Kind.SIGNED: 1, Kind.FLOAT: 2, Kind.COMPLEX: 3}
"""NEP 50 compares a Python scalar's kind with the array's: bool < integer < float < complex."""


def _closure(edges: Mapping[DType, Sequence[DType]]) -> dict[DType, frozenset[DType]]:
    """Every dtype each dtype reaches (itself included): the safe-cast relation."""

    @functools.cache
    def reach(d: DType) -> frozenset[DType]:
        out = {d}
        for n in edges.get(d, ()):
            out |= reach(n)
        return frozenset(out)

    return {d: reach(d) for d in NUMPY_DTYPES}


_SAFE = _closure(SAFE_CASTS)


def can_cast_safely(a: DType, b: DType) -> bool:
    """``np.can_cast(a, b, "safe")`` on NumPy's dtypes, from :data:`SAFE_CASTS`."""
    return b in _SAFE[a]


def check_literal_overflow_to_inf(policy: Policy, value: Literal, target: DType) -> None:
    """Shared by NumPy, PyTorch and TensorFlow: a number too large for a float (or complex)
    target becomes +-inf there (NumPy warns, the others stay silent) rather than raising, so
    only integer range and kind are checked (:meth:`Policy.check_literal`)."""
    if target.is_inexact and (target.is_complex or not isinstance(value, complex)):
        return
    Policy.check_literal(policy, value, target)


class NumpyPolicy(Policy):
    name = "numpy"
    title = "NumPy 2 (NEP 50 Python scalars)"
    source = ("jax-type-promotion-design.md, appendix, numpy table; NumPy's safe-casting table and type "
              "order; NEP 50")
    dtypes = NUMPY_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    default_int = DType.int64
    default_float = DType.float64
    default_complex = DType.complex128
    published_table_name = "design_numpy"

    # -- the rules ------------------------------------------------------------------------

    def _join(self, a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) and isinstance(b, Weak):
            # np.add(1, 2.0): both become NumPy scalars of their default types first.
            return self._strong(a.dtype, b.dtype)
        if isinstance(a, Weak) or isinstance(b, Weak):
            w, d = weak_and_strong(a, b)
            return self._with_scalar(w, d)
        assert isinstance(a, DType) and isinstance(b, DType)
        return self._strong(a, b)

    @staticmethod
    def _strong(a: DType, b: DType) -> DType:
        """Rule 1 (one casts safely to the other), else rule 2 (first in type order above both)."""
        if can_cast_safely(a, b):
            return b
        if can_cast_safely(b, a):
            return a
        # complex128 is above every dtype, so the search always ends
        return next(t for t in TYPE_ORDER if can_cast_safely(a, t) and can_cast_safely(b, t))

    def _with_scalar(self, w: Weak, d: DType) -> DType:
        """NEP 50: the array's dtype unless the scalar's kind is higher."""
        if _KIND_RANK[w.dtype.kind] <= _KIND_RANK[d.kind]:
            return d
        if w.dtype.is_complex and d.is_float:
            # complex_common_dtype: a float array keeps its precision (float32 + 1j -> complex64)
            return self._strong(d, DType.complex64)
        return self._strong(d, w.dtype)

    def _canonical_weak(self, t: Weak) -> PType:
        # A weak uint is still a Python int (the only unsigned weak values are ints).
        return jax_weak_node(self.weak_types, t)  # type: ignore[arg-type]

    def promote_types(self, a: "PType | str", b: "PType | str") -> PType:
        pa, pb = parse_ptype(a), parse_ptype(b)
        if DType.bfloat16 in (dtype_of(pa), dtype_of(pb)):
            raise PromotionError(
                f"no implicit promotion of {pa.short} and {pb.short} under policy {self.name!r}: NumPy has "
                "no bfloat16 (ml_dtypes' extension type is outside NumPy's promotion); make it explicit: "
                "cast bf16 to float32 (x.cast(DType.float32) in a graph, stablehlo.convert to f32 in IR)",
                lhs=pa, rhs=pb, policy=self.name, cast_to=DType.float32)
        return super().promote_types(pa, pb)

    # -- literals and division ---------------------------------------------------------------

    def check_literal(self, value: Literal, target: DType) -> None:
        """NEP 50: a Python int outside an integer dtype's range raises ``OverflowError``
        (``int8 array + 1000``); a number too large for a float dtype becomes inf, with
        NumPy's ``RuntimeWarning`` ("overflow encountered in cast"), not an error."""
        check_literal_overflow_to_inf(self, value, target)

    def true_divide_type(self, t: "PType | str") -> PType | None:
        """``np.true_divide`` has no integer loops: bool and every integer divide in float64
        (even ``int8 / int8``); floats and complex keep their type."""
        t = self.canonical(t)
        if dtype_of(t).is_inexact:
            return t
        return DType.float64

    def rule(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return ("two Python scalars become NumPy scalars of their default types "
                    f"({self.weak_default(a).name}, {self.weak_default(b).name}), which then promote")
        if isinstance(a, Weak) or isinstance(b, Weak):
            w, d = weak_and_strong(a, b)
            if _KIND_RANK[w.dtype.kind] <= _KIND_RANK[d.kind]:
                return f"NEP 50: a Python {_PY_NAME[w.dtype.kind]} takes the dtype of the array ({d.name})"
            return (f"NEP 50: a Python {_PY_NAME[w.dtype.kind]} is of a higher kind than {d.name}, "
                    "so its default type joins in")
        assert isinstance(a, DType) and isinstance(b, DType)
        if can_cast_safely(a, b) or can_cast_safely(b, a):
            lo, hi = (a, b) if can_cast_safely(a, b) else (b, a)
            return f"{lo.name} casts safely to {hi.name}"
        r = self._strong(a, b)
        return (f"neither casts safely to the other; {r.name} is the first dtype in NumPy's type order "
                "that both cast to safely")


_PY_NAME = {Kind.SIGNED: "int", Kind.UNSIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex",
            Kind.BOOL: "bool"}
