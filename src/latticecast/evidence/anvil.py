"""Evidence for ``anvil``: its known-type table, and both of its tables read literally.

Read literally, every ambiguous x known cell is the plain type printed, so ambiguity
is dropped there (and kept for ambiguous x ambiguous, as the prose says). That
reading is not associative (350 of 10,648 triples); with the seed's propagation
rule, which its worked example needs and anvil's ``common_dtype`` implements, the
policy is a lattice.
"""

from __future__ import annotations

from ..promotion.tables import PromotionTable
from ..promotion.weak import PType, Weak, as_ptype, cell_ptype, dtype_of
from . import Evidence
from .seeds import seed_table

__all__ = ["literal_reading", "evidence"]


def literal_reading(types: tuple[PType, ...]) -> PromotionTable:
    """anvil's two seed tables as one table over ``types`` (known then ambiguous), read literally."""
    known, amb = seed_table("anvil_known"), seed_table("anvil_ambiguous")

    def cell(a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) and isinstance(b, Weak):
            r = known[(a.dtype, b.dtype)]
            return None if r is None else Weak(dtype_of(as_ptype(r)))
        if isinstance(a, Weak):
            return cell_ptype(amb[(a.dtype, b)])
        if isinstance(b, Weak):
            return cell_ptype(amb[(b.dtype, a)])
        return cell_ptype(known[(a, b)])

    return PromotionTable.from_function(types, None, cell, name="anvil seed tables, literal reading")


def evidence(policy_name: str = "anvil") -> Evidence:
    from ..policies import policy

    return Evidence("anvil", {
        "seed table anvil_known": seed_table("anvil_known"),
        "seed tables anvil_known and anvil_ambiguous read literally (ambiguity dropped from ambiguous x known cells)":
            literal_reading(policy("anvil").types)})
