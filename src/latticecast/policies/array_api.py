"""The Array API standard's minimal, required promotions (data-apis/array-api, the proposal seed).

Defined: promotion within a kind (signed, unsigned, float) and between signed and
unsigned integers when a signed type holds both (``u32 . i8 = i64``). Undefined,
and therefore an error here: mixed kinds (integer with float), ``int64`` with
``uint64`` (and any pair whose join would need one), bool with anything but bool,
and complex with anything but itself (the proposal predates complex dtypes;
a dtype with itself involves no promotion).

The proposal left open whether Python scalars take part; the published standard
settled it, and this policy follows it: a Python ``int`` takes the dtype of an
integer or float array, a ``float`` that of a float array, a ``complex`` that of a
complex array; two scalars do not promote with each other.
"""

from __future__ import annotations

from ..dtypes import DType, Kind
from ..errors import PromotionError
from ..weak import PType, Weak
from ..tables import PromotionTable
from .base import LatticePolicy, by_name, weak_and_strong
from .seeds import seed_table

__all__ = ["ArrayApiPolicy"]

_SCALAR_TARGETS = {
    Kind.SIGNED: {Kind.SIGNED, Kind.UNSIGNED, Kind.FLOAT, Kind.COMPLEX},
    Kind.FLOAT: {Kind.FLOAT, Kind.COMPLEX},
    Kind.COMPLEX: {Kind.COMPLEX},
}


class ArrayApiPolicy(LatticePolicy):
    name = "array-api"
    title = "Array API standard, minimal required promotions"
    source = "array-api-type-promotion-issue.txt; the standard's rule for Python scalars"
    dtypes = by_name(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                      "float16", "float32", "float64", "complex64", "complex128"])
    weak_types = (Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128))
    edges = {
        DType.int8: [DType.int16], DType.int16: [DType.int32], DType.int32: [DType.int64],
        DType.uint8: [DType.uint16, DType.int16], DType.uint16: [DType.uint32, DType.int32],
        DType.uint32: [DType.uint64, DType.int64],
        DType.float16: [DType.float32], DType.float32: [DType.float64],
    }

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        return self.dtypes

    def published_tables(self) -> dict[str, PromotionTable]:
        """The proposal's four tables (float, unsigned, signed, and mixed signed x unsigned, whose
        i8 row the seed text lost; see ``seed_tables/array_api_mixed.csv``)."""
        return {f"seed table {name}": seed_table(name) for name in
                ("array_api_float", "array_api_unsigned", "array_api_signed", "array_api_mixed")}

    def _join(self, a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) or isinstance(b, Weak):
            if isinstance(a, Weak) and isinstance(b, Weak):
                return None
            w, strong = weak_and_strong(a, b)
            return strong if strong.kind in _SCALAR_TARGETS[w.dtype.kind] else None
        return self.lattice.join(a, b)

    def why_undefined(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return "the standard defines Python scalars only against arrays"
        if isinstance(a, Weak) or isinstance(b, Weak):
            return "a Python scalar only takes the dtype of an array of a compatible kind"
        da, db = a, b
        assert isinstance(da, DType) and isinstance(db, DType)
        if da.kind is not db.kind and {da.kind, db.kind} != {Kind.SIGNED, Kind.UNSIGNED}:
            return "the proposal leaves promotion between kinds undefined (no cross-kind promotion)"
        if {da, db} & {DType.uint64} and (da.kind is Kind.SIGNED or db.kind is Kind.SIGNED):
            return "the proposal leaves mixed signed/unsigned 64-bit promotion undefined"
        if da.is_complex or db.is_complex:
            return "the proposal defines no promotion for complex dtypes"
        return "the proposal defines no promotion for this pair"

    def true_divide_type(self, t: PType) -> PType | None:
        dtype = t.dtype if isinstance(t, Weak) else t
        if not dtype.is_inexact:
            raise PromotionError(
                f"the Array API leaves true division of {dtype.name} implementation-defined; "
                "cast the operands to a float dtype first, or use // for integer division",
                lhs=t, policy=self.name, cast_to=DType.float64)
        return t

    def rule(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) or isinstance(b, Weak):
            return "a Python scalar takes the array's dtype"
        return "join on the Array API's partial lattice"
