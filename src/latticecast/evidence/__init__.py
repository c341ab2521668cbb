"""Evidence that each policy is its system: published tables, errata, live measurements.

A policy (:mod:`latticecast.policies`) is the system's rules. Whether those rules
are right is a separate question with separate material: the tables the seed
documents publish (``seed_tables/``), the cells where a policy deliberately departs
from such a table and why (the errata), and tables measured from the live library
by a script in ``tools/``. ``latticecast verify`` and the tests read it here;
promotion itself never does.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

from ..promotion.tables import PromotionTable
from ..promotion.weak import PType
from .measured import MeasuredRecords, measured_comment, measured_records, measured_table, measured_table_names
from .seeds import seed_table, seed_table_names

__all__ = ["Evidence", "evidence", "seed_table", "seed_table_names", "measured_table", "measured_table_names",
           "measured_records", "MeasuredRecords"]


@dataclass(frozen=True)
class Evidence:
    """What backs one policy.

    ``published``: the system's tables as the seeds publish them (title -> table).
    ``errata``: cells (row, column), in the published table's labels, where the policy
    deliberately differs from it, each with the reason; tests hold the policy to the
    table everywhere else.
    ``measured``: tables measured from the live library by a ``tools/measure_*.py``
    script (title -> table), which the policy matches in every cell but ``known_gaps``.
    ``known_gaps``: cells (row, column) of a measured table where the library answers with
    something latticecast does not have (PyTorch's ``complex32``), each with the reason.
    """

    policy: str
    published: dict[str, PromotionTable] = field(default_factory=dict)
    errata: dict[tuple[PType, PType], str] = field(default_factory=dict)
    measured: dict[str, PromotionTable] = field(default_factory=dict)
    known_gaps: dict[tuple[PType, PType], str] = field(default_factory=dict)


def _module(policy: str, module: str) -> Callable[[], Evidence]:
    return lambda: importlib.import_module(f"{__package__}.{module}").evidence(policy)


_BUILTIN: dict[str, Callable[[], Evidence]] = {
    "jax": _module("jax", "jax"),
    "jax-x32": _module("jax-x32", "jax"),
    "jax-strict": _module("jax-strict", "jax"),
    "jax-lax": _module("jax-lax", "jax"),
    "max": _module("max", "max_seed"),
    "max-python": _module("max-python", "max_python"),
    "array-api": _module("array-api", "array_api"),
    "array-api-proposal": _module("array-api-proposal", "array_api"),
    "anvil": _module("anvil", "anvil"),
    "numpy": _module("numpy", "numpy"),
    "torch": _module("torch", "torch"),
    "tensorflow": _module("tensorflow", "tensorflow"),
}


def measured(*names: str) -> dict[str, PromotionTable]:
    """The measured tables ``names``, titled as ``latticecast verify`` shows them."""
    return {f"{n} ({measured_comment(n).splitlines()[1].removeprefix('measured: ')})": measured_table(n)
            for n in names}


def evidence(policy: object) -> Evidence:
    """The evidence for ``policy``: its published tables, errata, and live measurements.

    Args:
        policy: A policy name or a :class:`~latticecast.Policy`.

    Returns:
        An :class:`Evidence`; empty for a policy nothing covers (a user-registered one).

    Example:
        >>> from latticecast.evidence import evidence
        >>> ev = evidence("max")
        >>> sorted(ev.published) != [], isinstance(ev.errata, dict)
        (True, True)
    """
    name = policy if isinstance(policy, str) else getattr(policy, "name", "")
    make = _BUILTIN.get(str(name))
    return make() if make is not None else Evidence(str(name))
