"""anvil (R): a lattice for known types, and "ambiguous" types for R literals.

Known types promote on a JAX-like lattice (anvil's ``common_dtype`` table). An R
literal (``1L``, ``1.0``, ``TRUE``) has an *ambiguous* type (``i32?``, ``f32?``,
``i1?``), modelled here as a weak type of that width. The rules, from the seed:

* ambiguous with ambiguous: the join of the two known types, still ambiguous;
* ambiguous with known: the known type wins, unless the ambiguous type is a float
  and the known one is not, or the known type is bool and the ambiguous one is
  not; then the known value is promoted to the ambiguous type, which stays
  ambiguous.

Ambiguity propagates through a program: in the seed's example ``x + 1L`` with a
known bool ``x`` is ``i32?``, and ``(x + 1L) * y`` with a known ``i16`` ``y`` is
``i16``. These rules are commutative but not associative once ambiguous and
known types mix (the seed's own design has that cost); :meth:`Policy.audit`
counts the failing triples.
"""

from __future__ import annotations

from ..dtypes import DType
from ..errors import PromotionError
from ..tables import PromotionTable
from ..weak import PType, Weak, dtype_of, ptype_name
from .base import LatticePolicy, by_name, weak_and_strong
from .seeds import seed_table

__all__ = ["AnvilPolicy"]

ANVIL_DTYPES = by_name(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                        "float32", "float64"])


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

    edges = {
        DType.bool: [DType.int8, DType.uint8],
        DType.int8: [DType.int16], DType.int16: [DType.int32], DType.int32: [DType.int64],
        DType.uint8: [DType.uint16, DType.int16], DType.uint16: [DType.uint32, DType.int32],
        DType.uint32: [DType.uint64, DType.int64],
        DType.uint64: [DType.int64],
        DType.int64: [DType.float32],
        DType.float32: [DType.float64],
    }

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        return self.dtypes

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        """All 22 types: with the seed's propagation rule the ambiguous types are lattice nodes too."""
        return self.types

    def _canonical_weak(self, t: Weak) -> PType:
        if t.dtype not in self.dtypes:
            raise PromotionError(f"anvil has no ambiguous type {ptype_name(t, 'anvil')}; its types are "
                                 + ", ".join(d.info.bits_code for d in self.dtypes),
                                 lhs=t, policy=self.name)
        return t

    def type_name(self, t: PType | None) -> str:
        return "-" if t is None else ptype_name(t, "anvil")

    def _join(self, a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) and isinstance(b, Weak):
            joined = self.lattice.join(a.dtype, b.dtype)
            return None if joined is None else Weak(joined)
        if isinstance(a, DType) and isinstance(b, DType):
            return self.lattice.join(a, b)
        amb, known = weak_and_strong(a, b)
        if amb.dtype.is_float and not known.is_float:
            return amb
        if known.is_bool and not amb.dtype.is_bool:
            return amb
        return known

    def rule(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return "both ambiguous: the known-type join, still ambiguous"
        if isinstance(a, DType) and isinstance(b, DType):
            return "both known: join on anvil's lattice"
        amb, known = weak_and_strong(a, b)
        if amb.dtype.is_float and not known.is_float:
            return "an ambiguous float meets a known non-float: the known value takes the ambiguous type"
        if known.is_bool and not amb.dtype.is_bool:
            return "a known bool meets an ambiguous non-bool: the known value takes the ambiguous type"
        return "ambiguous meets known: the ambiguous value takes the known type"

    def _explain_lines(self, a: PType, b: PType, result: PType) -> list[str]:
        if isinstance(a, DType) and isinstance(b, DType):
            return super()._explain_lines(a, b, result)
        return [f"  rule: {self.rule(a, b)}"]

    def published_tables(self) -> dict[str, PromotionTable]:
        """The seed's two tables, and both read literally as one 22-type table: there every
        ambiguous x known cell is the plain type printed, so ambiguity is dropped there
        (and kept for ambiguous x ambiguous, as the prose says). That reading is not
        associative (350 of 10,648 triples); with the seed's propagation rule, which its
        worked example needs and anvil's ``common_dtype`` implements, the policy is a lattice."""
        return {"seed table anvil_known": seed_table("anvil_known"),
                "seed tables anvil_known and anvil_ambiguous read literally (ambiguity dropped from ambiguous x known cells)":
                    self.literal_reading()}

    def literal_reading(self) -> PromotionTable:
        known, amb = seed_table("anvil_known"), seed_table("anvil_ambiguous")

        def cell(a: PType, b: PType) -> PType | None:
            if isinstance(a, Weak) and isinstance(b, Weak):
                r = known[(a.dtype, b.dtype)]
                return None if r is None else Weak(dtype_of(r))
            if isinstance(a, Weak):
                return amb[(a.dtype, b)]
            if isinstance(b, Weak):
                return amb[(b.dtype, a)]
            return known[(a, b)]

        return PromotionTable.from_function(self.types, None, cell, name="anvil seed tables, literal reading")

    def true_divide_type(self, t: PType) -> PType | None:
        dtype = t.dtype if isinstance(t, Weak) else t
        if dtype.is_float:
            return t
        target = DType.float64 if dtype.bitwidth == 64 else DType.float32
        return Weak(target) if isinstance(t, Weak) else target
