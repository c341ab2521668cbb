"""The Array API standard's minimal, required promotions (data-apis/array-api, the proposal seed).

Defined: promotion within a kind (signed, unsigned, float) and between signed and
unsigned integers when a signed type holds both (``u32 . i8 = i64``): the partial
lattice :data:`.lattices.ARRAY_API_EDGES`. Undefined, and therefore an error here:
mixed kinds (integer with float), ``int64`` with ``uint64`` (and any pair whose join
would need one), bool with anything but bool, and complex with anything but itself
(the proposal predates complex dtypes; a dtype with itself involves no promotion).

The proposal left open whether Python scalars take part; the published standard
settled it, and this policy follows it: a Python ``int`` takes the dtype of an
integer or float array, a ``float`` that of a float array, a ``complex`` that of a
complex array; two scalars do not promote with each other.
"""

from __future__ import annotations

import functools

from ..dtypes import DType, Kind
from ..errors import DomainError
from ..weak import PType, Weak, dtype_of
from .base import Decision, LatticePolicy
from .components import OpTypeRules
from .lattices import ARRAY_API_DTYPES, ARRAY_API_EDGES

__all__ = ["ArrayApiPolicy"]

_SCALAR_TARGETS = {
    Kind.SIGNED: {Kind.SIGNED, Kind.UNSIGNED, Kind.FLOAT, Kind.COMPLEX},
    Kind.FLOAT: {Kind.FLOAT, Kind.COMPLEX},
    Kind.COMPLEX: {Kind.COMPLEX},
}
_SCALAR_RULE = "a Python scalar takes the array's dtype"


class ArrayApiPolicy(LatticePolicy):
    name = "array-api"
    title = "Array API standard, minimal required promotions"
    source = "array-api-type-promotion-issue.txt; the standard's rule for Python scalars"
    dtypes = ARRAY_API_DTYPES
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    edges = ARRAY_API_EDGES
    lattice_rule = "join on the Array API's partial lattice"

    def missing_dtype_reason(self, d: DType) -> str:
        """The Array API has none of the float8/6/4 or sub-byte integer dtypes."""
        return (": the Array API standard defines no low-precision dtypes"
                " (float8, float6, float4, sub-byte integers)") if d.is_low_precision else ""

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        return self.dtypes

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b, self._why_strong(a, b))

    @staticmethod
    def _why_strong(a: DType, b: DType) -> str:
        if a.kind is not b.kind and {a.kind, b.kind} != {Kind.SIGNED, Kind.UNSIGNED}:
            return "the proposal leaves promotion between kinds undefined (no cross-kind promotion)"
        if DType.uint64 in (a, b) and Kind.SIGNED in (a.kind, b.kind):
            return "the proposal leaves mixed signed/unsigned 64-bit promotion undefined"
        if a.is_complex or b.is_complex:
            return "the proposal defines no promotion for complex dtypes"
        return "the proposal defines no promotion for this pair"

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        if d.kind in _SCALAR_TARGETS[w.dtype.kind]:
            return Decision(d, _SCALAR_RULE)
        return Decision(None, _SCALAR_RULE, "a Python scalar only takes the dtype of an array of a compatible kind")

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return Decision(None, _SCALAR_RULE, "the standard defines Python scalars only against arrays")

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return ArrayApiOpTypes(self)


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
