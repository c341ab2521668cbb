"""Evidence for ``max``: the seed's 16x16 table, and the four cells where it contradicts its own prose."""

from __future__ import annotations

from ..promotion.dtypes import DType
from . import Evidence
from .seeds import seed_table

__all__ = ["PUBLISHED_TABLE_ERRATA", "evidence"]

PUBLISHED_TABLE_ERRATA: dict[tuple[DType, DType], tuple[DType, DType, str]] = {
    (DType.bool, DType.index): (DType.int64, DType.uint64,
                                "index 'behaves as uint64' and bool promotes to uint8, so bool . index = uint64, "
                                "as the table's own index row says (index . bool = uint64)"),
    (DType.bool, DType.address): (DType.int64, DType.uint64,
                                  "address 'behaves as uint64': bool . address = uint64, as the address row says"),
    (DType.int8, DType.index): (DType.index, DType.float16,
                                "'we never promote other types to' index; int8 and uint64 meet at float16, "
                                "as the index row says (index . int8 = float16)"),
    (DType.int8, DType.address): (DType.address, DType.float16,
                                  "nothing promotes to address; int8 . uint64 = float16, as the address row says"),
}
"""(row, column) -> (published, lattice, why): the four cells where the table contradicts its prose."""


def evidence(policy_name: str = "max") -> Evidence:
    return Evidence("max", {"seed table max": seed_table("max")},
                    {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()})
