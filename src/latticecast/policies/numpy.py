"""NumPy 2's promotion: a safe-casting DAG, NumPy's type order, and NEP 50 for Python scalars.

Arrays (and, since NumPy 2, NumPy scalars) promote by two rules, the ones NumPy
uses to build its built-in promotion table:

1. if one dtype casts *safely* to the other (``np.can_cast(a, b, "safe")``), the
   result is the other one;
2. otherwise the result is the first dtype, in NumPy's type-number order, that
   both cast to safely.

Safe casting is a DAG (:data:`.lattices.NUMPY_SAFE_CASTS`) but not a lattice: ``int8``
and ``uint8`` both cast safely to ``int16`` and to ``float16``, which are unordered.
Rule 2 breaks the tie by the type order (``int16`` comes first), and that
tie-break is why NumPy's promotion is not associative, the design note's example::

    (int8 . uint8) . float16 = int16 . float16 = float32
    int8 . (uint8 . float16) = int8 . float16  = float16

Python scalars are weak (NEP 50, NumPy 2): a Python ``int``/``float``/``complex``
takes the dtype of an array of its own kind or a higher one (``int8 + 1`` is
``int8``, ``float16 + 1.0`` is ``float16``); against a lower kind it brings its
own default type (``int8 + 1.0`` is ``float64``), except that a complex scalar
keeps a float array's precision (``float32 + 1j`` is ``complex64``). Two Python
scalars make a NumPy scalar of the default type (``np.add(1, 2.0)`` is a
``float64``, which is strong).

Measured against NumPy 2.4, today's table equals the 2021 appendix table in every
cell: NEP 50 removed value-based casting, which a table of zeros never showed.
What changed is out-of-range Python ints: ``int8 array + 1000`` was ``int16`` and
now raises ``OverflowError`` (see :meth:`Policy.literal_problem`).

The policy never asks NumPy: the rules are data, and the tests compare them with
``np.can_cast``, ``np.promote_types`` and ``np.add``.
"""

from __future__ import annotations

import functools

from ..dtypes import DType, Kind
from ..weak import PType, Weak, dtype_of
from .base import Decision, Policy
from .lattices import NUMPY_DTYPES, NUMPY_SAFE_CASTS, NUMPY_TYPE_ORDER

__all__ = ["NumpyPolicy", "can_cast_safely"]

_KIND_RANK = {Kind.BOOL: 0, Kind.UNSIGNED: 1, Kind.SIGNED: 1, Kind.FLOAT: 2, Kind.COMPLEX: 3}
"""NEP 50 compares a Python scalar's kind with the array's: bool < integer < float < complex."""

_PY_NAME = {Kind.SIGNED: "int", Kind.UNSIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex",
            Kind.BOOL: "bool"}


@functools.cache
def _reach(d: DType) -> frozenset[DType]:
    out = {d}
    for n in NUMPY_SAFE_CASTS.get(d, ()):
        out |= _reach(n)
    return frozenset(out)


def can_cast_safely(a: DType, b: DType) -> bool:
    """``np.can_cast(a, b, "safe")`` on NumPy's dtypes, from :data:`.lattices.NUMPY_SAFE_CASTS`."""
    return b in _reach(a)


def _strong(a: DType, b: DType) -> DType:
    """Rule 1 (one casts safely to the other), else rule 2 (first in type order above both)."""
    if can_cast_safely(a, b):
        return b
    if can_cast_safely(b, a):
        return a
    # complex128 is above every dtype, so the search always ends
    return next(t for t in NUMPY_TYPE_ORDER if can_cast_safely(a, t) and can_cast_safely(b, t))


class NumpyPolicy(Policy):
    name = "numpy"
    title = "NumPy 2 (NEP 50 Python scalars)"
    source = ("jax-type-promotion-design.md, appendix, numpy table; NumPy's safe-casting table and type "
              "order; NEP 50")
    dtypes = NUMPY_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    weak_uint_is_int = True
    float_literals_overflow_to_inf = True  # NumPy warns "overflow encountered in cast" and gives inf

    def missing_dtype_reason(self, d: DType) -> str:
        if d is DType.bfloat16:
            return ": NumPy has no bfloat16 (ml_dtypes' extension type is outside NumPy's promotion)"
        return ""

    def two_strong(self, a: DType, b: DType) -> Decision:
        if can_cast_safely(a, b) or can_cast_safely(b, a):
            lo, hi = (a, b) if can_cast_safely(a, b) else (b, a)
            return Decision(_strong(a, b), f"{lo.name} casts safely to {hi.name}")
        r = _strong(a, b)
        return Decision(r, f"neither casts safely to the other; {r.name} is the first dtype in NumPy's type "
                           "order that both cast to safely")

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        """NEP 50: the array's dtype unless the scalar's kind is higher."""
        py = _PY_NAME[w.dtype.kind]
        if _KIND_RANK[w.dtype.kind] <= _KIND_RANK[d.kind]:
            return Decision(d, f"NEP 50: a Python {py} takes the dtype of the array ({d.name})")
        rule = f"NEP 50: a Python {py} is of a higher kind than {d.name}, so its default type joins in"
        if w.dtype.is_complex and d.is_float:
            # complex_common_dtype: a float array keeps its precision (float32 + 1j -> complex64)
            return Decision(_strong(d, DType.complex64), rule)
        return Decision(_strong(d, w.dtype), rule)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        # np.add(1, 2.0): both become NumPy scalars of their default types first.
        return Decision(_strong(a.dtype, b.dtype),
                        "two Python scalars become NumPy scalars of their default types "
                        f"({a.dtype.name}, {b.dtype.name}), which then promote")

    def true_divide_type(self, t: "PType | str") -> PType | None:
        """``np.true_divide`` has no integer loops: bool and every integer divide in float64
        (even ``int8 / int8``); floats and complex keep their type."""
        t = self.canonical(t)
        return t if dtype_of(t).is_inexact else DType.float64
