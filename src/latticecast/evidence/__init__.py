"""Evidence that each policy is its system: published tables, errata, live measurements.

A policy (:mod:`latticecast.policies`) is the system's rules. Whether those rules
are right is a separate question with separate material: the tables the seed
documents publish (``seed_tables/``), the cells where a policy deliberately departs
from such a table and why (the errata), and tables measured from the live library
by a script in ``tools/``. ``latticecast verify`` and the tests read it here;
promotion itself never does.
"""

from __future__ import annotations

import csv
import functools
import importlib
from dataclasses import dataclass, field
from importlib import resources
from typing import Callable

from ..tables import PromotionTable
from ..weak import PType
from .seeds import seed_table, seed_table_names

__all__ = ["Evidence", "evidence", "seed_table", "seed_table_names", "measured_cells", "MeasuredCells"]


@dataclass(frozen=True)
class Evidence:
    """What backs one policy.

    ``published``: the system's tables as the seeds publish them (title -> table).
    ``errata``: cells (row, column), in the published table's labels, where the policy
    deliberately differs from it, each with the reason; tests hold the policy to the
    table everywhere else.
    """

    policy: str
    published: dict[str, PromotionTable] = field(default_factory=dict)
    errata: dict[tuple[PType, PType], str] = field(default_factory=dict)


@dataclass(frozen=True)
class MeasuredCells:
    """A table measured from a live library by a script in ``tools/``: ``provenance`` is the CSV's
    first line (the library's version and the command), ``rows`` its records as dictionaries."""

    name: str
    provenance: str
    rows: tuple[dict[str, str], ...]


@functools.cache
def measured_cells(name: str) -> MeasuredCells:
    """The measured table ``measured/<name>.csv`` (e.g. ``"torch_cells"``)."""
    path = resources.files(__package__).joinpath("measured", f"{name}.csv")
    if not path.is_file():
        available = sorted(p.name[:-4] for p in resources.files(__package__).joinpath("measured").iterdir()
                           if p.name.endswith(".csv"))
        raise KeyError(f"no measured table {name!r}; the tables are: {', '.join(available)}")
    lines = path.read_text(encoding="utf-8").splitlines()
    provenance = lines[0].lstrip("# ").strip() if lines and lines[0].startswith("#") else ""
    body = [ln for ln in lines if not ln.startswith("#")]
    return MeasuredCells(name, provenance, tuple(csv.DictReader(body)))


def _seed(policy: str, table: str) -> Callable[[], Evidence]:
    return lambda: Evidence(policy, {f"seed table {table}": seed_table(table)})


def _module(policy: str, module: str) -> Callable[[], Evidence]:
    return lambda: importlib.import_module(f"{__package__}.{module}").evidence()


_BUILTIN: dict[str, Callable[[], Evidence]] = {
    "jax": _seed("jax", "design_jax_numpy"),
    "jax-lax": _module("jax-lax", "jax"),
    "max": _module("max", "max"),
    "array-api": _module("array-api", "array_api"),
    "anvil": _module("anvil", "anvil"),
    "numpy": _seed("numpy", "design_numpy"),
    "torch": _module("torch", "torch"),
    "tensorflow": _module("tensorflow", "tensorflow"),
}


def evidence(policy: object) -> Evidence:
    """The evidence for ``policy`` (a name or a Policy); empty for a policy the seeds do not cover."""
    name = policy if isinstance(policy, str) else getattr(policy, "name", "")
    make = _BUILTIN.get(str(name))
    return make() if make is not None else Evidence(str(name))
