"""Evidence for the Array API policies: the standard measured from ``array-api-strict``, the proposal's tables."""

from __future__ import annotations

from . import Evidence, measured
from .seeds import seed_table


def evidence(policy_name: str = "array-api") -> Evidence:
    """``array-api``: ``array_api_strict.result_type`` at the standard's 2024.12 revision, every pair of
    its dtypes and Python scalars (``tools/measure_array_api_promotion.py``). ``array-api-proposal``:
    the proposal's float, unsigned, signed and mixed signed x unsigned tables (the mixed table's i8 row,
    which the seed text lost, is restored in ``seed_tables/array_api_mixed.csv``)."""
    if policy_name == "array-api":
        return Evidence(policy_name, measured=measured("array_api_strict_result_type"))
    return Evidence(policy_name, {f"seed table {name}": seed_table(name) for name in
                                  ("array_api_float", "array_api_unsigned", "array_api_signed",
                                   "array_api_mixed")})
