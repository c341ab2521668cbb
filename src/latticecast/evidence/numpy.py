"""Evidence for ``numpy``: the 2021 appendix table, its bfloat16 cells, and live NumPy with ml_dtypes.

The appendix table shows no promotion for ``bfloat16`` ("invalid": NumPy had no
such dtype). Every JAX installation imports ml_dtypes, which registers bfloat16
(and the float8/6/4 and narrow integer types) with NumPy together with safe casts,
so today ``np.promote_types(bfloat16, int8)`` is ``bfloat16``. The cells where the
measured table (``tools/measure_numpy_promotion.py``) differs from the appendix are
its errata; the policy follows the measured table in every cell.
"""

from __future__ import annotations

from ..promotion.dtypes import DType
from ..promotion.weak import PType, as_ptype, cell_ptype
from . import Evidence, measured
from .measured import measured_table
from .seeds import seed_table

__all__ = ["PUBLISHED_TABLE_ERRATA", "evidence"]


def _errata() -> dict[tuple[PType, PType], tuple[PType | None, PType | None, str]]:
    seed, live = seed_table("design_numpy"), measured_table("numpy_promote_types")
    cells: dict[tuple[PType, PType], tuple[PType | None, PType | None, str]] = {}
    for (a, b), published in seed.cells.items():
        now = live.cells[(a, b)]
        if now != published:
            assert DType.bfloat16 in (a, b), (a, b)  # the appendix holds everywhere else
            cells[(as_ptype(a), as_ptype(b))] = (cell_ptype(published), cell_ptype(now), (
                "the 2021 table predates ml_dtypes' bfloat16 in NumPy (JAX imports ml_dtypes, which registers it "
                f"with safe casts); NumPy 2 gives {'-' if now is None else now} here "
                "(np.promote_types / np.result_type)"))
    return cells


PUBLISHED_TABLE_ERRATA = _errata()
"""(row, column) in the seed table's labels -> (published, measured today, why)."""


def evidence(policy_name: str = "numpy") -> Evidence:
    return Evidence("numpy", {"seed table design_numpy": seed_table("design_numpy")},
                    {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()},
                    measured=measured("numpy_promote_types"))
