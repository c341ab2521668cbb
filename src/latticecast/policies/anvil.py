"""anvil (R): a lattice for known types, and "ambiguous" types for R literals.

Known types promote on anvil's ``common_dtype`` lattice (:data:`.lattices.ANVIL_EDGES`).
An R literal (``1L``, ``1.0``, ``TRUE``) has an *ambiguous* type (``i32?``, ``f32?``,
``i1?``), modelled here as a weak type of that width. The rules, from the seed:

* ambiguous with ambiguous: the join of the two known types, still ambiguous;
* ambiguous with known: the known type wins, unless the ambiguous type is a float
  and the known one is not, or the known type is bool and the ambiguous one is
  not; then the known value is promoted to the ambiguous type, which stays
  ambiguous.

Ambiguity propagates through a program: in the seed's example ``x + 1L`` with a
known bool ``x`` is ``i32?``, and ``(x + 1L) * y`` with a known ``i16`` ``y`` is
``i16``. With that propagation rule the 22 types form a lattice; the seed's two
tables read literally do not (see :mod:`latticecast.evidence.anvil`).
"""

from __future__ import annotations

import functools

from ..promotion.dtypes import DType
from ..errors import PromotionError
from ..promotion.weak import PType, Weak, dtype_of, parse_ptype, ptype_name
from .base import Decision, LatticePolicy
from .components import OpTypeRules
from .lattices import ANVIL_DTYPES, ANVIL_EDGES

__all__ = ["AnvilPolicy"]


class AnvilPolicy(LatticePolicy):
    name = "anvil"
    title = "anvil (R), with ambiguous literal types"
    source = "anvil-type-promotion.txt"
    dtypes = ANVIL_DTYPES
    weak_types = tuple(Weak(d) for d in ANVIL_DTYPES)
    default_int = DType.int32
    default_float = DType.float32
    default_complex = None
    weak_bool = True
    edges = ANVIL_EDGES
    lattice_rule = "both known: join on anvil's lattice"

    def missing_dtype_reason(self, d: DType) -> str:
        """anvil has none of the float8/6/4 or sub-byte integer dtypes."""
        return (": anvil's promotion tables predate the low-precision dtypes"
                " (float8, float6, float4, sub-byte integers)") if d.is_low_precision else ""

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        return self.dtypes

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        """All 22 types: with the seed's propagation rule the ambiguous types are lattice nodes too."""
        return self.types

    def canonical(self, t: "PType | str") -> PType:
        """Every ambiguous width is a type of its own (``i16?`` is not ``i32?``)."""
        t = parse_ptype(t)
        if not isinstance(t, Weak):
            return super().canonical(t)
        if t.dtype not in self._dtype_set:
            raise PromotionError(f"anvil has no ambiguous type {ptype_name(t, 'anvil')}; its types are "
                                 + ", ".join(d.info.bits_code for d in self.dtypes),
                                 lhs=t, policy=self.name)
        return t

    def type_name(self, t: PType | None) -> str:
        return "-" if t is None else ptype_name(t, "anvil")

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        joined = self._lattice.join(a.dtype, b.dtype)
        return Decision(None if joined is None else Weak(dtype_of(joined)),
                        "both ambiguous: the known-type join, still ambiguous",
                        "no type lies above both on anvil's lattice")

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        if w.dtype.is_float() and not d.is_float():
            return Decision(w, "an ambiguous float meets a known non-float: the known value takes the "
                               "ambiguous type")
        if d.is_bool and not w.dtype.is_bool:
            return Decision(w, "a known bool meets an ambiguous non-bool: the known value takes the "
                               "ambiguous type")
        return Decision(d, "ambiguous meets known: the ambiguous value takes the known type")

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return AnvilOpTypes(self)


class AnvilOpTypes(OpTypeRules):
    """anvil divides integers in float64 (64-bit ones) or float32, keeping an ambiguous type ambiguous."""

    def true_divide(self, t: "PType | str") -> PType | None:
        t = self.policy.canonical(t)
        dtype = t.dtype if isinstance(t, Weak) else t
        if dtype.is_float():
            return t
        target = DType.float64 if dtype.bitwidth == 64 else DType.float32
        return Weak(target) if isinstance(t, Weak) else target
