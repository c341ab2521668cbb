"""The Array API: the standard as published (2024.12), and the seed's proposal that preceded it.

``array-api`` is the standard (data-apis/array-api, revision 2024.12, "Type Promotion Rules"),
checked cell for cell against ``array-api-strict``, its reference implementation:

* 13 dtypes: ``bool``, ``int8``..``int64``, ``uint8``..``uint64``, ``float32``, ``float64``,
  ``complex64``, ``complex128`` (no ``float16``);
* promotion within a kind, signed with unsigned where a signed type holds both (``u32 . i8 =
  i64``), and real floats with complex (``f8 . c8 = c16``): the lattice
  :data:`.lattices.ARRAY_API_EDGES`. Mixed kinds (integer with float, bool with anything but bool)
  and ``uint64`` with a signed integer are left unspecified, so refused here, as
  ``array-api-strict`` refuses them;
* Python scalars (2024.12 allows them in binary functions as well as operators): a ``bool`` only
  with a ``bool`` array, an ``int`` with an integer or floating (real or complex) array, a ``float``
  or ``complex`` with a floating array, each taking the array's dtype, except that a ``complex``
  meeting a real float array takes the complex dtype of its precision (``float32 . 1j = complex64``).
  Two scalars do not promote: ``result_type`` needs an array or a dtype;
* ``result_type(*arrays_and_dtypes_and_scalars)``: the arrays and dtypes promote, then each scalar
  against their result (:meth:`~.base.Policy.scalars_after_arrays`);
* NumPy scalars are neither arrays nor Python scalars: ``array-api-strict``'s operators refuse
  them ("Expected Array or Python scalar"). Its ``result_type`` takes ``np.float64`` and
  ``np.complex128`` as the Python ``float`` and ``complex`` they subclass, and so does
  :func:`latticecast.result_type`; every other NumPy scalar, and every NumPy scalar in an op, is refused.

``array-api-proposal`` is the seed's proposal (``array-api-type-promotion-issue.txt``), kept
under its own name with its four tables: it predates complex dtypes and Python scalars, has
``float16``, and leaves complex with anything but itself undefined. Its Python scalars follow the
rule the standard later settled on at the time (an ``int`` takes an integer, float or complex
array's dtype, a ``float`` a float or complex one, a ``complex`` only a complex one).
"""

from __future__ import annotations

import functools
from typing import ClassVar, Sequence

import numpy as np

from ..promotion.dtypes import DType, Kind
from ..errors import DomainError, PromotionError
from ..promotion.weak import PType, Weak, dtype_of
from .base import Decision, LatticePolicy
from .components import NumpyValueRules, OpTypeRules
from .lattices import ARRAY_API_DTYPES, ARRAY_API_EDGES, ARRAY_API_PROPOSAL_DTYPES, ARRAY_API_PROPOSAL_EDGES

__all__ = ["ArrayApiPolicy", "ArrayApiProposalPolicy"]

_SCALAR_RULE = "a Python scalar takes the array's dtype"


class _ArrayApiBase(LatticePolicy):
    """What the standard and the proposal share: Python scalars outside the lattice, integer ``/``
    implementation-defined, no low-precision dtypes."""

    weak_types: ClassVar[tuple[Weak, ...]] = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    _scalar_targets: ClassVar[dict[Kind, frozenset[Kind]]]

    def missing_dtype_reason(self, d: DType) -> str:
        """The Array API has none of the float8/6/4 or sub-byte integer dtypes, nor bfloat16."""
        if d.is_low_precision or d is DType.bfloat16:
            return (": the Array API standard defines no bfloat16 or low-precision dtypes"
                    " (float8, float6, float4, sub-byte integers)")
        return ""

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        return self.dtypes

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        if d.kind in self._scalar_targets[w.dtype.kind]:
            return Decision(self._scalar_result(w, d), _SCALAR_RULE)
        return Decision(None, _SCALAR_RULE, f"a Python {_PY[w.dtype.kind]} only takes the dtype of "
                                            f"{_TARGETS_SAID[frozenset(self._scalar_targets[w.dtype.kind])]} array")

    def _scalar_result(self, w: Weak, d: DType) -> DType:
        return d

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return Decision(None, _SCALAR_RULE, "the standard defines Python scalars only against arrays")

    def nary(self, types: Sequence["PType | str"], zero_dim: Sequence[bool]) -> PType:
        """``result_type``: the arrays and dtypes, then each Python scalar against their result."""
        return self.scalars_after_arrays(types)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return ArrayApiOpTypes(self)

    @functools.cached_property
    def numpy_values(self) -> NumpyValueRules:
        """NumPy scalars are no values of the standard (:class:`ArrayApiNumpyValues`)."""
        return ArrayApiNumpyValues(self)


_PY = {Kind.SIGNED: "int", Kind.UNSIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex", Kind.BOOL: "bool"}
_INTEGRAL = frozenset({Kind.SIGNED, Kind.UNSIGNED})
_FLOATING = frozenset({Kind.FLOAT, Kind.COMPLEX})
_TARGETS_SAID = {
    frozenset({Kind.BOOL}): "a bool",
    frozenset(_INTEGRAL | _FLOATING): "an integer or floating-point",
    frozenset(_FLOATING): "a floating-point (real or complex)",
    frozenset({Kind.COMPLEX}): "a complex",
}


class ArrayApiPolicy(_ArrayApiBase):
    name = "array-api"
    title = "Array API standard 2024.12"
    source = ("data-apis/array-api 2024.12, Type Promotion Rules and Python scalars; array-api-strict 2.6 "
              "(measured: tools/measure_array_api_promotion.py)")
    dtypes = ARRAY_API_DTYPES
    edges = ARRAY_API_EDGES
    lattice_rule = "join on the Array API standard's lattice"
    weak_types = (Weak(DType.bool), Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    weak_bool = True  # a Python bool takes a bool array's dtype; two Python scalars do not promote
    _scalar_targets = {Kind.BOOL: frozenset({Kind.BOOL}), Kind.SIGNED: _INTEGRAL | _FLOATING, Kind.FLOAT: _FLOATING,
                       Kind.COMPLEX: _FLOATING}

    def missing_dtype_reason(self, d: DType) -> str:
        if d is DType.float16:
            return (": the Array API standard (2024.12) has no float16 (the proposal had one: policy "
                    "'array-api-proposal')")
        return super().missing_dtype_reason(d)

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, _why_unspecified(a, b, "the standard"))

    def _scalar_result(self, w: Weak, d: DType) -> DType:
        """A Python complex meeting a real float array takes the complex dtype of its precision."""
        if w.dtype.is_complex and d.is_float():
            return DType.complex128 if d is DType.float64 else DType.complex64
        return d


class ArrayApiProposalPolicy(_ArrayApiBase):
    name = "array-api-proposal"
    title = "Array API type promotion proposal (minimal required promotions, before complex dtypes)"
    source = "array-api-type-promotion-issue.txt; the standard's rule for Python scalars"
    dtypes = ARRAY_API_PROPOSAL_DTYPES
    edges = ARRAY_API_PROPOSAL_EDGES
    lattice_rule = "join on the Array API proposal's partial lattice"
    _scalar_targets = {Kind.SIGNED: _INTEGRAL | _FLOATING, Kind.FLOAT: _FLOATING, Kind.COMPLEX: frozenset({Kind.COMPLEX})}

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, _why_unspecified(a, b, "the proposal"))


def _why_unspecified(a: DType, b: DType, who: str) -> str:
    """Why the standard (or the proposal, which says "undefined") has no promotion for ``a`` and ``b``."""
    left = "undefined" if who == "the proposal" else "unspecified"
    if a.kind is not b.kind and {a.kind, b.kind} != {Kind.SIGNED, Kind.UNSIGNED} and \
            not (a.is_inexact and b.is_inexact and who == "the standard"):
        return f"{who} leaves promotion between kinds {left} (no cross-kind promotion)"
    if DType.uint64 in (a, b) and Kind.SIGNED in (a.kind, b.kind):
        return f"{who} leaves mixed signed/unsigned 64-bit promotion {left}"
    if who == "the proposal" and (a.is_complex or b.is_complex):
        return "the proposal defines no promotion for complex dtypes"
    return f"{who} defines no promotion for this pair"


class ArrayApiOpTypes(OpTypeRules):
    """The standard leaves ``/`` of integers implementation-defined, so it is refused."""

    def true_divide(self, t: "PType | str") -> PType | None:
        t = self.policy.canonical(t)
        dtype = dtype_of(t)
        if not dtype.is_inexact:
            raise DomainError(
                f"the Array API leaves true division of {dtype.name} implementation-defined; "
                "cast the operands to a float dtype first, or use // for integer division",
                lhs=t, policy=self.policy.name, cast_to=DType.float64)
        return t


class ArrayApiNumpyValues(NumpyValueRules):
    """The standard knows arrays and Python scalars; a NumPy scalar is neither. ``array-api-strict``
    refuses one in an operator or function ("Expected Array or Python scalar; got <class
    'numpy.float32'>"), and its ``result_type`` takes one only where it subclasses a Python scalar type
    (``np.float64`` is a ``float``, ``np.complex128`` a ``complex``)."""

    def scalar_type(self, value: np.generic, *, in_result_type: bool = False) -> PType:
        if in_result_type and isinstance(value, (float, complex)):
            return self.policy.literals.type_of(complex(value) if isinstance(value, complex) else float(value))
        raise PromotionError(
            f"the NumPy scalar {value!r} ({type(value).__name__}) is no value of the Array API standard, which "
            "knows arrays and Python scalars (array-api-strict refuses it: 'Expected Array or Python scalar'); "
            "write a Python scalar (float(x), int(x)) or an array of its dtype", policy=self.policy.name)
