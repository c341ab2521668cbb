"""The seed documents' promotion tables, transcribed cell for cell (``seed_tables/*.csv``).

They ship with the package so that ``latticecast verify`` can audit a policy's
published table next to the policy itself, and the tests compare every policy
with its table. ``tools/transcribe_seeds.py`` made the files from the seed text.
"""

from __future__ import annotations

import functools
from importlib import resources

from ..promotion.tables import PromotionTable
from ..promotion.weak import parse_ptype

__all__ = ["seed_table", "seed_table_names"]


def seed_table_names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files(__package__).joinpath("seed_tables").iterdir()
                  if p.name.endswith(".csv"))


@functools.cache
def seed_table(name: str, *, typed: bool = True) -> PromotionTable:
    """The seed table ``name`` (e.g. ``"max"``, ``"design_numpy"``); with ``typed``, labels and
    cells are parsed into dtypes and weak types in the notation the file declares."""
    path = resources.files(__package__).joinpath("seed_tables", f"{name}.csv")
    if not path.is_file():
        raise KeyError(f"no seed table {name!r}; the tables are: {', '.join(seed_table_names())}")
    text = path.read_text(encoding="utf-8")
    table = PromotionTable.parse(text, source=f"seed_tables/{name}.csv", name=name)
    if not typed:
        return table
    notation = "bytes" if "notation: bytes" in text else "bits"
    if name.endswith("_marks"):
        return table.map_labels(lambda x: x if x == "d" else parse_ptype(x, notation=notation))
    return table.map_labels(lambda x: parse_ptype(x, notation=notation))
