"""Tables measured from the live libraries (``measured/*.csv``), with the script that measured each.

Where the seeds predate a system's behaviour (low-precision dtypes, NumPy with
ml_dtypes), the evidence is the live library itself: a ``tools/measure_*.py``
script asks it every cell and writes a matrix here (rows: left operand, columns:
right operand; ``-`` where the library refused). The files name the library
versions and the tool; the tests compare each policy with them cell by cell, and
again with the live library where it is installed.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from importlib import resources

from ..promotion.tables import PromotionTable
from ..promotion.weak import parse_ptype

__all__ = ["measured_table", "measured_table_names", "measured_comment", "measured_records", "MeasuredRecords"]


def measured_table_names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files(__package__).joinpath("measured").iterdir()
                  if p.name.endswith(".csv"))


def _text(name: str) -> str:
    path = resources.files(__package__).joinpath("measured", f"{name}.csv")
    if not path.is_file():
        raise KeyError(f"no measured table {name!r}; the tables are: {', '.join(measured_table_names())}")
    return path.read_text(encoding="utf-8")


def measured_comment(name: str) -> str:
    """The file's comment lines (what was measured, with which versions and which tool)."""
    return "\n".join(ln[1:].strip() for ln in _text(name).splitlines() if ln.startswith("#"))


@functools.cache
def measured_table(name: str, *, typed: bool = True) -> PromotionTable:
    """The measured table ``name`` (``"jax_x64_add"``, ``"numpy_promote_types"``); with ``typed``, labels
    and cells are dtypes and weak types (``i*``; a result ``int64*`` is weakly typed). A result the
    library has and latticecast does not (PyTorch's ``complex32``) stays a string."""
    table = PromotionTable.parse(_text(name), source=f"measured/{name}.csv", name=name)
    if not typed:
        return table

    def label(x: object) -> object:
        try:
            return parse_ptype(str(x))
        except ValueError:
            return x

    return table.map_labels(label)


@dataclass(frozen=True)
class MeasuredRecords:
    """A measurement kept as records rather than a matrix (operands of several kinds, such as
    PyTorch's 0-d tensors): ``provenance`` is the file's comment, ``rows`` its records."""

    name: str
    provenance: str
    rows: tuple[dict[str, str], ...]


@functools.cache
def measured_records(name: str) -> MeasuredRecords:
    """The measured records ``measured/<name>.csv`` (a header row, then one record per line)."""
    lines = _text(name).splitlines()
    body = [ln for ln in lines if not ln.startswith("#")]
    return MeasuredRecords(name, measured_comment(name), tuple(csv.DictReader(body)))
