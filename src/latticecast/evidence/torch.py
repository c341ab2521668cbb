"""Evidence for ``torch``: the 2021 appendix table, the 47 cells where PyTorch 2.13 has moved on, and
the table measured from PyTorch 2.13 with its float8 and int1..uint4 dtypes
(``tools/measure_torch_promotion.py``).

Measured against PyTorch 2.13 (``torch.result_type``, and ``torch.add`` where it has a
kernel), the appendix table is out of date where the unsigned types did not exist
then, and two Python floats (or complexes) now give the default dtype.
"""

from __future__ import annotations

from ..promotion.dtypes import DType
from ..policies.lattices import TORCH_BAREBONES_UNSIGNED
from ..promotion.weak import PType, Weak
from . import Evidence, measured
from .seeds import seed_table

__all__ = ["PUBLISHED_TABLE_ERRATA", "COMPLEX32_CELLS", "evidence"]

_D = DType
_I = Weak(_D.int64)
_SEED_F, _SEED_C = Weak(_D.float64), Weak(_D.complex128)  # how the seed table labels f* and c*

_STALE_UNSIGNED = ("PyTorch had no uint16/uint32/uint64 in 2021 (the table's '-'); since 2.3 "
                   "promoteTypes relates them to themselves and to the real floats, and a Python scalar "
                   "follows the usual category rule (torch.result_type, PyTorch 2.13)")


def _errata() -> dict[tuple[PType, PType], tuple[PType | None, PType, str]]:
    cells: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = {}
    floats = (_D.bfloat16, _D.float16, _D.float32, _D.float64)
    for u in sorted(TORCH_BAREBONES_UNSIGNED, key=lambda d: d.bitwidth):
        cells[(u, u)] = (None, u, f"{_STALE_UNSIGNED}; {u.name} with itself is {u.name} (torch.add has no "
                                  f"{u.name} kernel, which is the op's domain, not promotion)")
        now: dict[PType, tuple[PType, str]] = {f: (f, f"{_STALE_UNSIGNED}: {u.name} . {f.name} = {f.name}")
                                               for f in floats}
        now[_I] = (u, f"{_STALE_UNSIGNED}: a Python int takes the tensor's dtype, {u.name} "
                      "(torch.add has no kernel for it)")
        now[_SEED_F] = (_D.float32, f"{_STALE_UNSIGNED}: a Python float brings the default float dtype, float32")
        now[_SEED_C] = (_D.complex64, f"{_STALE_UNSIGNED}: a Python complex brings the default complex "
                                      "dtype, complex64")
        for other, (value, why) in now.items():
            cells[(u, other)] = cells[(other, u)] = (None, value, why)
    cells[(_SEED_F, _SEED_F)] = (_D.float64, _D.float32,
                                 "two Python floats: torch.add(0.0, 0.0) is now a tensor of the default "
                                 "dtype, float32 (it was float64 in 2021)")
    cells[(_SEED_C, _SEED_C)] = (_D.complex128, _D.complex64,
                                 "two Python complexes: torch.add(0j, 0j) is now a tensor of the default "
                                 "complex dtype, complex64 (it was complex128 in 2021)")
    return cells


PUBLISHED_TABLE_ERRATA: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = _errata()
"""(row, column) in the seed table's labels (its ``f*`` is ``weak(float64)``) -> (published,
PyTorch 2.13's answer, why): where the 2021 table is out of date."""

COMPLEX32_CELLS: dict[tuple[PType, PType], str] = {
    (_D.float16, _SEED_C): "complex32",
    (_SEED_C, _D.float16): "complex32",
}
"""Cells where live PyTorch gives a dtype latticecast lacks (``torch.complex32``); the policy
answers ``complex64``, the narrowest latticecast dtype that holds every complex32 value."""


def evidence(policy_name: str = "torch") -> Evidence:
    return Evidence("torch", {"seed table design_torch": seed_table("design_torch")},
                    {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()},
                    measured=measured("torch_result_type"),
                    known_gaps={cell: f"PyTorch gives {name}, which latticecast lacks; the policy answers complex64, "
                                      "the narrowest latticecast dtype holding every complex32 value"
                                for cell, name in COMPLEX32_CELLS.items()})
