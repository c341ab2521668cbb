"""Shared by the ``measure_*`` tools: write a measured promotion table as CSV package data.

The tables go to ``src/latticecast/evidence/measured/`` and are read by
:mod:`latticecast.evidence.measured`. Each is a matrix: rows are left operands,
columns right operands, a cell is the result or ``-`` where the library refused.
Labels are canonical dtype names (``int4``, ``float8_e4m3fn``) and Python scalars
``b*``, ``i*``, ``f*``, ``c*``; a weakly typed result is its dtype name with ``*``
(``int64*``). The tools import nothing from latticecast, so they run in any
interpreter that has the measured library (PyTorch and TensorFlow live in their own
virtual environments).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Callable, Sequence

OUT = Path(__file__).resolve().parent.parent / "src" / "latticecast" / "evidence" / "measured"

PY_SCALARS = {"b*": True, "i*": 0, "f*": 0.0, "c*": 0j}
"""How a table labels a Python scalar operand, and the value that stands for it."""


def write_matrix(name: str, rows: Sequence[str], columns: Sequence[str], cell: Callable[[str, str], str | None],
                 comment: str, out: Path = OUT) -> Path:
    """Measure ``cell(row, column)`` for every pair and write ``<out>/<name>.csv``; ``None`` is ``-``."""
    buf = io.StringIO()
    for line in comment.strip().splitlines():
        buf.write(f"# {line}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["", *columns])
    refused = 0
    for r in rows:
        results = [cell(r, c) for c in columns]
        refused += sum(v is None for v in results)
        w.writerow([r, *("-" if v is None else v for v in results)])
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.csv"
    path.write_text(buf.getvalue())
    print(f"wrote {path} ({len(rows)}x{len(columns)}, {refused} refused)")
    return path
