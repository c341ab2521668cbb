"""Evidence for ``array-api``: the proposal's four tables."""

from __future__ import annotations

from . import Evidence
from .seeds import seed_table


def evidence(policy_name: str = "array-api") -> Evidence:
    """The float, unsigned, signed and mixed signed x unsigned tables (the mixed table's i8 row,
    which the seed text lost, is restored in ``seed_tables/array_api_mixed.csv``)."""
    return Evidence("array-api", {f"seed table {name}": seed_table(name) for name in
                                  ("array_api_float", "array_api_unsigned", "array_api_signed",
                                   "array_api_mixed")})
