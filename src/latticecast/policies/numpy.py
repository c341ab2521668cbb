"""NumPy 2's promotion, with ml_dtypes' types: safe casting, type order, and NEP 50 for Python scalars.

Arrays (and, since NumPy 2, NumPy scalars) of NumPy's own dtypes promote by two
rules, the ones NumPy uses to build its built-in promotion table:

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

**ml_dtypes' types** (``bfloat16``, the float8/6/4 types, ``int1``..``uint4``: JAX
imports ml_dtypes, so every JAX user's NumPy has them) are NumPy "legacy user
dtypes", which NumPy promotes by its rule for those (``legacy_userdtype_common_dtype``):
the one registered later is asked, and answers

1. the other, if it casts safely to the other; itself, if the other casts safely to it;
2. for two dtypes of NumPy's number kinds (only ``float8_e5m2`` among ml_dtypes'
   types has kind ``'f'``; the rest are kind ``'V'``), the smallest NumPy dtype of the
   higher kind, or a wider one, that both cast to safely;
3. otherwise nothing: the promotion is refused (``DTypePromotionError``).

Safe casts are those ml_dtypes registers (:data:`.lattices.NUMPY_ML_FLOAT_SAFE_TO` and
its neighbours: ``float8_e4m3fn -> float32``, ``int8 -> bfloat16``, ``int4 -> int8``),
plus any registered cast between two ml_dtypes types of the same NumPy kind and
item size, which NumPy's legacy cast machinery counts as safe (so ``int4`` and
``float8_e4m3fn`` cast safely to each other, and rule 1 then picks the one registered
first, :data:`.lattices.NUMPY_ML_DTYPES`). Hence ``bfloat16 . int8 = bfloat16``,
``float8_e4m3fn . float32 = float32``, ``int4 . int8 = int8``, ``int4 . float8_e4m3fn =
float8_e4m3fn``, while ``bfloat16 . float16`` and ``int4 . uint8`` are refused.

Python scalars are weak (NEP 50, NumPy 2): a Python ``int``/``float``/``complex``
takes the dtype of an array of its own kind or a higher one (``int8 + 1`` is
``int8``, ``float16 + 1.0`` is ``float16``); against a lower kind it brings its
own default type (``int8 + 1.0`` is ``float64``), except that a complex scalar
keeps a float array's precision (``float32 + 1j`` is ``complex64``). Against an
ml_dtypes array NumPy tries stand-in dtypes in turn (``uint8``, ``int8``, ``int64``
for an ``int``; ``float16``, ``float64`` for a ``float``; ``complex64``, ``complex128``
for a ``complex``) and takes the first promotion that exists: ``int4 + 1`` is
``int8``, ``bfloat16 + 1.0`` is ``float64``, ``float8_e5m2 + 1.0`` is ``float32``.
Two Python scalars make a NumPy scalar of the default type (``np.add(1, 2.0)`` is a
``float64``, which is strong).

**What this policy models: np.promote_types and np.result_type.** For NumPy's own
dtypes the ufuncs (``np.add``) agree with them in every cell. For ml_dtypes' types
they do not (in 493 of 1,156 ordered pairs, measured): a ufunc never refuses, it
picks the first registered loop the operands cast to, which depends on operand
order (``int4 + float8_e4m3fn`` is ``int4``, ``float8_e4m3fn + int4`` is
``float8_e4m3fn``), so it is not a promotion function at all. ``np.promote_types``
is NumPy's promotion, symmetric and explicit about refusals; the policy is that,
and the tests hold it to ``np.promote_types``/``np.result_type`` cell by cell.

Measured against NumPy 2.4, today's table equals the 2021 appendix table in every
cell of NumPy's own dtypes: NEP 50 removed value-based casting, which a table of
zeros never showed. What changed is out-of-range Python ints: ``int8 array + 1000``
was ``int16`` and now raises ``OverflowError`` (see :meth:`.components.LiteralRules.problem`).

The policy never asks NumPy: the rules are data, and the tests compare them with
``np.can_cast``, ``np.promote_types``, ``np.result_type`` and ``np.add``.
"""

from __future__ import annotations

import functools

from typing import Sequence

from ..promotion.dtypes import DType, Kind
from ..errors import PromotionError
from ..promotion.weak import PType, Weak, dtype_of
from .base import Decision, DivisionOperands, Policy
from .components import LiteralRules, OpTypeRules
from .lattices import (NUMPY_DTYPES, NUMPY_ML_DTYPES, NUMPY_ML_FLOAT_SAFE_FROM, NUMPY_ML_FLOAT_SAFE_TO,
                       NUMPY_ML_INT_SAFE_TO, NUMPY_ML_MISSING_CASTS, NUMPY_SAFE_CASTS, NUMPY_TYPE_ORDER)

__all__ = ["NumpyPolicy", "can_cast_safely", "promote_types"]

_KIND_RANK = {Kind.BOOL: 0, Kind.UNSIGNED: 1, Kind.SIGNED: 1, Kind.FLOAT: 2, Kind.COMPLEX: 3}
"""NEP 50 compares a Python scalar's kind with the array's: bool < integer < float < complex."""

_PY_NAME = {Kind.SIGNED: "int", Kind.UNSIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex",
            Kind.BOOL: "bool"}

_CLASSIC = frozenset(NUMPY_DTYPES)
_ML = frozenset(NUMPY_ML_DTYPES)
_REGISTRATION = {d: i for i, d in enumerate(NUMPY_ML_DTYPES)}

_SCALAR_KINDS = "buifc"
"""NumPy's scalar kinds in increasing order (``NPY_BOOL_SCALAR`` .. ``NPY_COMPLEX_SCALAR``), by kind char."""

_PYTHON_STAND_INS = {Kind.SIGNED: (DType.uint8, DType.int8, DType.int64),
                     Kind.FLOAT: (DType.float16, DType.float64),
                     Kind.COMPLEX: (DType.complex64, DType.complex128)}
"""The dtypes NumPy tries, in order, for a Python scalar meeting a user dtype (``int_common_dtype``,
``float_common_dtype``, ``complex_common_dtype`` in NumPy's abstractdtypes.c)."""


@functools.cache
def _reach(d: DType) -> frozenset[DType]:
    out = {d}
    for n in NUMPY_SAFE_CASTS.get(d, ()):
        out |= _reach(n)
    return frozenset(out)


@functools.cache
def _ml_safe(d: DType) -> tuple[frozenset[DType], frozenset[DType]]:
    """(what ``d`` casts safely to, what casts safely to ``d``) among NumPy's own dtypes, as ml_dtypes
    registers it."""
    if d.is_float():
        return frozenset(NUMPY_ML_FLOAT_SAFE_TO), frozenset(NUMPY_ML_FLOAT_SAFE_FROM)
    return frozenset(NUMPY_ML_INT_SAFE_TO[d.is_signed]), frozenset({DType.bool})


def _ml_cast_registered(a: DType, b: DType) -> bool:
    """Whether ml_dtypes registers a cast function from ``a`` to ``b`` (both its types)."""
    if DType.float8_e8m0fnu in (a, b):
        return {a, b} == {DType.float8_e8m0fnu, DType.bfloat16}
    if a.is_integral() and b.is_integral():
        return a.kind is b.kind and a.bitwidth < b.bitwidth
    return frozenset({a, b}) not in NUMPY_ML_MISSING_CASTS


def can_cast_safely(a: DType, b: DType) -> bool:
    """``np.can_cast(a, b, "safe")`` with ml_dtypes imported, from the data in :mod:`.lattices`."""
    if a is b:
        return True
    if a in _CLASSIC and b in _CLASSIC:
        return b in _reach(a)
    if a in _ML and b in _ML:
        # NumPy counts a registered cast between two types of the same kind and size as safe
        return _ml_cast_registered(a, b) and a.np_dtype.kind == b.np_dtype.kind and \
            a.np_dtype.itemsize == b.np_dtype.itemsize
    if a in _ML:
        return b in _ml_safe(a)[0]
    return a in _ml_safe(b)[1]


def _strong(a: DType, b: DType) -> DType:
    """NumPy's own dtypes: rule 1 (one casts safely to the other), else rule 2 (first in type
    order above both)."""
    if can_cast_safely(a, b):
        return b
    if can_cast_safely(b, a):
        return a
    # complex128 is above every dtype, so the search always ends
    return next(t for t in NUMPY_TYPE_ORDER if can_cast_safely(a, t) and can_cast_safely(b, t))


def _of_kind_from(kind: str) -> list[DType]:
    """NumPy's own dtypes of scalar kind ``kind`` and every higher kind, each kind narrowest first
    (``_npy_smallest_type_of_kind_table`` and ``_npy_next_larger_type_table``)."""
    out: list[DType] = []
    for k in _SCALAR_KINDS[_SCALAR_KINDS.index(kind):]:
        out += sorted((d for d in NUMPY_DTYPES if d.np_dtype.kind == k), key=lambda d: d.np_dtype.itemsize)
    return out


def promote_types(a: DType, b: DType) -> DType | None:
    """``np.promote_types(a, b)`` with ml_dtypes imported; ``None`` where NumPy refuses."""
    if a is b:
        return a
    if a in _CLASSIC and b in _CLASSIC:
        return _strong(a, b)
    # the dtype registered later decides (every ml_dtypes type comes after NumPy's own)
    hi, lo = (a, b) if _REGISTRATION.get(a, -1) > _REGISTRATION.get(b, -1) else (b, a)
    if can_cast_safely(hi, lo):
        return lo
    if can_cast_safely(lo, hi):
        return hi
    kinds = hi.np_dtype.kind, lo.np_dtype.kind
    if all(k in _SCALAR_KINDS for k in kinds):
        higher = max(kinds, key=_SCALAR_KINDS.index)
        return next((t for t in _of_kind_from(higher) if can_cast_safely(hi, t) and can_cast_safely(lo, t)),
                    None)
    return None


# -- np.result_type: NumPy's DTypes and their __common_dtype__ ------------------------------------
#
# NumPy promotes many operands at once on DType classes (numpy/_core/src/multiarray/common_dtype.c,
# PyArray_PromoteDTypeSequence), not by folding np.promote_types: it first finds the "most
# knowledgeable" DType, which then promotes every other one. The three abstract DTypes of Python
# scalars (NEP 50) are the weak types here: Weak(int64) is Python int, Weak(float64) float,
# Weak(complex128) complex. Each DType's ``common_dtype`` answers or says NotImplemented (``None``).

_TYPE_NUM = {**{d: i for i, d in enumerate(NUMPY_TYPE_ORDER)}, **{d: 256 + i for i, d in enumerate(NUMPY_ML_DTYPES)}}
"""NumPy's type numbers, in order: its own dtypes (``float16`` last), then ml_dtypes' as registered."""

_ABSTRACT_DEFAULT = {Kind.SIGNED: DType.int64, Kind.UNSIGNED: DType.int64, Kind.FLOAT: DType.float64,
                     Kind.COMPLEX: DType.complex128}
"""The dtype an abstract Python-scalar DType is when it is the result (the default integer, float, complex)."""


def _python_kind(t: Weak) -> Kind:
    return Kind.SIGNED if t.dtype.kind is Kind.UNSIGNED else t.dtype.kind


def _builtin_common(cls: DType, other: PType) -> PType | None:
    """``default_builtin_common_dtype`` (dtypemeta.c): a NumPy dtype meeting another DType."""
    if isinstance(other, Weak):
        kind = _python_kind(other)
        if kind is Kind.COMPLEX:
            if cls.is_complex:
                return cls
            if cls in (DType.float16, DType.float32):
                return DType.complex64
            return DType.complex128 if cls is DType.float64 else None
        if kind is Kind.FLOAT:
            return cls if cls.is_inexact else None
        return cls if cls.is_inexact or cls.is_integral() else None
    if _TYPE_NUM[other] > _TYPE_NUM[cls]:
        return None  # the one with the larger type number decides
    return _strong(cls, other)


def _user_common(cls: DType, other: PType) -> PType | None:
    """``legacy_userdtype_common_dtype_function`` (usertypes.c): an ml_dtypes type meeting another DType."""
    if isinstance(other, Weak) or _TYPE_NUM[cls] < _TYPE_NUM[other]:
        return None
    if can_cast_safely(cls, other):
        return other
    if can_cast_safely(other, cls):
        return cls
    kinds = cls.np_dtype.kind, other.np_dtype.kind
    if all(k in _SCALAR_KINDS for k in kinds):
        higher = max(kinds, key=_SCALAR_KINDS.index)
        return next((t for t in _of_kind_from(higher) if can_cast_safely(cls, t) and can_cast_safely(other, t)),
                    None)
    return None


def _first_common(user: DType, stand_ins: tuple[DType, ...]) -> PType | None:
    """The abstract DTypes' back-compat fallback for a user dtype: its ``common_dtype`` with each stand-in
    in turn, the first answer."""
    return next((r for r in (_user_common(user, s) for s in stand_ins) if r is not None), None)


def _abstract_common(cls: Weak, other: PType) -> PType | None:
    """``int_common_dtype``, ``float_common_dtype``, ``complex_common_dtype`` (abstractdtypes.c)."""
    kind = _python_kind(cls)
    if isinstance(other, Weak):
        mine, theirs = _KIND_RANK[kind], _KIND_RANK[_python_kind(other)]
        return cls if mine > theirs else None
    if other in _ML:
        return _first_common(other, _PYTHON_STAND_INS[kind])
    if kind is Kind.SIGNED:
        return DType.int64 if other is DType.bool else None
    if other is DType.bool or other.is_integral():
        return DType.float64 if kind is Kind.FLOAT else DType.complex128
    return None


def common_dtype(cls: PType, other: PType) -> PType | None:
    """``cls.__common_dtype__(other)``: the answer of ``cls``'s DType, or ``None`` for NotImplemented."""
    if isinstance(cls, Weak):
        return _abstract_common(cls, other)
    if cls in _ML:
        return _user_common(cls, other)
    return _builtin_common(cls, other)


def common_dtype_of_two(a: PType, b: PType) -> PType | None:
    """``PyArray_CommonDType``: ``a`` asked first, then ``b``; ``None`` when neither knows the other."""
    if a == b:
        return a
    found = common_dtype(a, b)
    return common_dtype(b, a) if found is None else found


_NOT_IMPLEMENTED = object()


def _most_knowledgeable(length: int, dtypes: list[PType | None]) -> object:
    """``reduce_dtypes_to_most_knowledgeable``: pairwise from both ends, the one that knows more moves to
    the front; one that cannot change the result is cleared (``None``). Returns the last pair's answer
    (or ``_NOT_IMPLEMENTED``); ``dtypes[0]`` is then the main DType."""
    half = length // 2
    res: object = _NOT_IMPLEMENTED
    for low in range(half):
        high = length - 1 - low
        a, b = dtypes[low], dtypes[high]
        assert a is not None and b is not None
        found = a if a == b else common_dtype(a, b)
        if found is None:
            dtypes[low], dtypes[high] = b, a
            res = _NOT_IMPLEMENTED
        else:
            res = found
            if found == a:
                dtypes[high] = None
    if length == 2:
        return res
    return _most_knowledgeable(length - half, dtypes)


def promote_sequence(types: Sequence[PType]) -> PType | None:
    """``PyArray_PromoteDTypeSequence``: the common DType of all of ``types`` (``None``: NumPy raises
    ``DTypePromotionError``). The main DType promotes every other one, and the answers are reduced."""
    if len(types) == 1:
        return types[0]
    dtypes: list[PType | None] = list(types)
    first = _most_knowledgeable(len(dtypes), dtypes)
    main = dtypes[0]
    assert main is not None
    result: PType | None = None if first is _NOT_IMPLEMENTED else first  # type: ignore[assignment]
    for t in dtypes[1 if result is None else 2:]:
        if t is None:
            continue
        promotion = common_dtype(main, t)
        if promotion is None:
            return None
        if result is None:
            result = promotion
            continue
        result = common_dtype_of_two(result, promotion)
        if result is None:
            return None
    return result


# -- NumPy's arithmetic with ml_dtypes and Python scalars -----------------------------------------

_LOOP_ORDER: tuple[DType, ...] = (
    DType.bool, DType.int8, DType.uint8, DType.int16, DType.uint16, DType.int32, DType.uint32, DType.int64,
    DType.uint64, DType.float16, DType.float32, DType.float64, DType.complex64, DType.complex128)
"""The loops of ``np.add``, ``np.subtract`` and ``np.multiply`` over NumPy's own dtypes, in the order the
ufunc keeps them (``??->?``, ``bb->b``, ``BB->B``, ... ``ee->e``, ``ff->f``, ``dd->d``, ``FF->F``,
``DD->D``; ``longdouble`` has none here)."""

_DIVIDE_LOOP_ORDER: tuple[DType, ...] = (DType.float16, DType.float32, DType.float64, DType.complex64,
                                         DType.complex128)
"""``np.true_divide``'s loops over NumPy's own dtypes: floats and complex only."""

_SCALAR_STAND_IN = {Kind.BOOL: DType.bool, Kind.SIGNED: DType.int8, Kind.UNSIGNED: DType.int8,
                    Kind.FLOAT: DType.float16, Kind.COMPLEX: DType.complex64}
"""The dtype a Python scalar must cast safely from to a loop for the loop to take it: the smallest
NumPy dtype of its kind (measured: ``int4 + 200`` overflows in the int8 loop; ``bfloat16 + 0.5`` skips
bfloat16's own loop, float16 not casting safely to bfloat16, and runs in float32)."""


def ufunc_loop(d: DType, w: Weak, *, divide: bool = False) -> DType | None:
    """The loop NumPy's arithmetic picks for an ml_dtypes array ``d`` and a Python scalar ``w``: ``d``'s own
    loop (registered by ml_dtypes: every one of its types for ``+ - *``, its floats for ``/``) if the
    scalar's stand-in casts safely to ``d``, else the first of NumPy's loops that both cast to safely."""
    stand_in = _SCALAR_STAND_IN[w.dtype.kind]
    own = [d] if not divide or d.is_float() else []
    for loop in (*own, *(_DIVIDE_LOOP_ORDER if divide else _LOOP_ORDER)):
        if can_cast_safely(d, loop) and can_cast_safely(stand_in, loop):
            return loop
    return None


class NumpyPolicy(Policy):
    name = "numpy"
    title = "NumPy 2 with ml_dtypes (np.promote_types; NEP 50 Python scalars)"
    source = ("jax-type-promotion-design.md, appendix, numpy table; NumPy's safe-casting table and type "
              "order; NEP 50; ml_dtypes 0.6's registered casts (measured: tools/measure_numpy_promotion.py)")
    dtypes = NUMPY_DTYPES + NUMPY_ML_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    weak_uint_is_int = True
    types_before_values = True  # np.result_type reads its dtype arguments, then its arrays and scalars

    def two_strong(self, a: DType, b: DType) -> Decision:
        r = promote_types(a, b)
        if r is None:
            which = "they are" if a.np_dtype.kind == b.np_dtype.kind == "V" else "one is"
            return Decision(None, "np.promote_types", (
                f"np.promote_types refuses it (DTypePromotionError): neither casts safely to the other "
                f"(np.can_cast(..., 'safe')), and {which} not of NumPy's number kinds"))
        if can_cast_safely(a, b) or can_cast_safely(b, a):
            lo, hi = (a, b) if r is b else (b, a)
            if can_cast_safely(a, b) and can_cast_safely(b, a):
                return Decision(r, f"{a.name} and {b.name} cast safely to each other; {r.name} was registered "
                                   "with NumPy first")
            return Decision(r, f"{lo.name} casts safely to {hi.name}")
        if a in _CLASSIC and b in _CLASSIC:
            return Decision(r, f"neither casts safely to the other; {r.name} is the first dtype in NumPy's "
                               "type order that both cast to safely")
        return Decision(r, f"neither casts safely to the other; {r.name} is the narrowest NumPy dtype of the "
                           "higher kind that both cast to safely")

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        """NEP 50: the array's dtype unless the scalar's kind is higher (then the DTypes' common DType:
        ``int8 + 1.0`` is float64, ``float32 + 1j`` complex64). For an ml_dtypes array, what NumPy's
        arithmetic gives (:func:`ufunc_loop`), which is not ``np.result_type``'s answer: ``bfloat16 + 0.5``
        is float32 where ``np.result_type`` says float64, ``int4 + 1`` is int8."""
        py = _PY_NAME[w.dtype.kind]
        if d in _ML:
            loop = ufunc_loop(d, w)
            rule = (f"NumPy's arithmetic with a user dtype: the first loop that {d.name} and a Python {py} (as "
                    f"{_SCALAR_STAND_IN[w.dtype.kind].name}) cast to safely, {d.name}'s own first")
            return Decision(loop, rule, f"no loop of NumPy's arithmetic takes {d.name} and a Python {py}")
        found = common_dtype_of_two(w, d)
        assert isinstance(found, DType), (w, d, found)
        if found is d:
            return Decision(d, f"NEP 50: a Python {py} takes the dtype of the array ({d.name})")
        return Decision(found, f"NEP 50: a Python {py} is of a higher kind than {d.name}, so the common DType "
                               f"of the two is {found.name}")

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        # np.add(1, 2.0): both become NumPy scalars of their default types first.
        return Decision(_strong(a.dtype, b.dtype),
                        "two Python scalars become NumPy scalars of their default types "
                        f"({a.dtype.name}, {b.dtype.name}), which then promote")

    def nary(self, types: Sequence["PType | str"], zero_dim: Sequence[bool]) -> PType:
        """``np.result_type``: the most knowledgeable DType promotes every other one
        (:func:`promote_sequence`), which is not a fold (``(int16, uint16, float16)`` is float32; folded
        it is float64). Python scalars take part as NEP 50's abstract DTypes, so ``np.result_type`` with
        an ml_dtypes array and a Python float answers float64 where ``+`` gives float32. A Python-scalar
        result is the default dtype of its kind."""
        given = [self.canonical(t) for t in types]
        found = promote_sequence(given)
        if found is None:
            raise PromotionError(
                f"no implicit promotion of {', '.join(self.type_name(t) for t in given)} under policy "
                f"{self.name!r}: np.result_type refuses them (DTypePromotionError: no common DType exists "
                "for the given inputs)", lhs=given[0], rhs=given[-1], policy=self.name)
        return _ABSTRACT_DEFAULT[found.dtype.kind] if isinstance(found, Weak) else found

    @functools.cached_property
    def literals(self) -> LiteralRules:
        """NumPy warns "overflow encountered in cast" and gives inf for a float literal too large."""
        return LiteralRules(self, overflow_to_inf=True)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return NumpyOpTypes(self)


class NumpyOpTypes(OpTypeRules):
    """``np.true_divide`` and ``np.sum``."""

    def divide_operands(self, types: Sequence[PType]) -> DivisionOperands | None:
        """An ml_dtypes array divided by a Python scalar (or the reverse) runs in the loop NumPy's
        ``true_divide`` picks for the two (:func:`ufunc_loop`): ``int4 / 1`` is float16, where promoting
        first (int8) and dividing would give float64. The scalar is checked against that loop's dtype."""
        if len(types) != 2:
            return None
        given = tuple(self.policy.canonical(t) for t in types)
        user = [t for t in given if isinstance(t, DType) and t in _ML]
        scalars = [t for t in given if isinstance(t, Weak)]
        if len(user) != 1 or len(scalars) != 1:
            return None
        loop = ufunc_loop(user[0], scalars[0], divide=True)
        if loop is None:
            return None
        return DivisionOperands(tuple(loop if isinstance(t, Weak) else t for t in given), loop)

    def sum(self, dtype: DType) -> DType:
        """``np.sum`` widens bool and NumPy's own small integers to the default integer; an ml_dtypes
        integer (kind ``'V'`` to NumPy) sums in itself (``np.sum`` of int4 is int4)."""
        return dtype if dtype in _ML else super().sum(dtype)

    def true_divide(self, t: "PType | str") -> PType | None:
        """``np.true_divide`` has no integer loops: bool and every NumPy integer divide in float64
        (even ``int8 / int8``); an ml_dtypes integer divides in the first float loop it casts to
        safely, float16 (``int4 / int4``); floats and complex keep their type."""
        t = self.policy.canonical(t)
        d = dtype_of(t)
        if d.is_inexact:
            return t
        if d in _ML:
            return next(f for f in (DType.float16, DType.float32, DType.float64) if can_cast_safely(d, f))
        return DType.float64
