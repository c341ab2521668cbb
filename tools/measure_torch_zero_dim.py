#!/usr/bin/env python3
"""Measure PyTorch's promotion of dimensioned, 0-d and Python-scalar operands, for the torch policy.

    /path/to/venv-with-torch/bin/python tools/measure_torch_zero_dim.py [OUT.csv]

Writes ``src/latticecast/evidence/measured/torch_zero_dim.csv`` (or OUT.csv) with the columns
``lhs_kind, lhs, rhs_kind, rhs, result, message, fn``: kind is ``nd`` (``torch.zeros(2, dtype)``),
``0d`` (``torch.zeros((), dtype)``) or ``py`` (a Python scalar, spelled ``0``, ``0.0``, ``0j``,
``True``); result is a dtype name without ``torch.``, or ``error`` with the exception's first
line in message; fn is ``result_type`` (``torch.result_type(lhs, rhs)``) or ``add`` (``(lhs +
rhs).dtype``, the real op, which can also fail for lack of a kernel). The first line records the
torch version and this command. The tests hold the ``torch`` policy to every cell.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "src" / "latticecast" / "evidence" / "measured" / "torch_zero_dim.csv"
WANTED = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "bfloat16",
          "float16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
          "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]
PY_SCALARS = [("0", 0), ("0.0", 0.0), ("0j", 0j), ("True", True)]


def _name(d: object) -> str:
    return str(d).replace("torch.", "")


def _cell(fn) -> tuple[str, str]:
    try:
        return _name(fn()), ""
    except Exception as e:  # noqa: BLE001 - every refusal is a measured cell
        lines = str(e).strip().splitlines()
        return "error", f"{type(e).__name__}: {lines[0] if lines else ''}"


def _tensor(kind: str, d: object):
    return torch.zeros(2, dtype=d) if kind == "nd" else torch.zeros((), dtype=d)


def measure() -> list[tuple[str, ...]]:
    dtypes = [getattr(torch, n) for n in WANTED if hasattr(torch, n)]
    rows = []
    for a in dtypes:
        for b in dtypes:
            for lk, rk in (("nd", "nd"), ("nd", "0d"), ("0d", "nd")):
                x, y = _tensor(lk, a), _tensor(rk, b)
                rows.append((lk, _name(a), rk, _name(b), *_cell(lambda: torch.result_type(x, y)), "result_type"))
    for a in dtypes:
        x = _tensor("nd", a)
        for label, s in PY_SCALARS:
            rows.append(("nd", _name(a), "py", label, *_cell(lambda: torch.result_type(x, s)), "result_type"))
            rows.append(("py", label, "nd", _name(a), *_cell(lambda: torch.result_type(s, x)), "result_type"))
            rows.append(("nd", _name(a), "py", label, *_cell(lambda: (x + s).dtype), "add"))
            rows.append(("py", label, "nd", _name(a), *_cell(lambda: (s + x).dtype), "add"))
    return rows


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    rows = measure()
    with out.open("w", newline="", encoding="utf-8") as f:
        f.write(f"# torch=={torch.__version__} python={sys.version.split()[0]} command: "
                f"python tools/measure_torch_zero_dim.py\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["lhs_kind", "lhs", "rhs_kind", "rhs", "result", "message", "fn"])
        w.writerows(rows)
    print(f"{len(rows)} cells written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
