"""Measure live PyTorch's ``torch.result_type`` for every pair of its dtypes that latticecast has, as package data.

Run with an interpreter that has PyTorch (it needs nothing from latticecast):

    /work/venvs/torch/bin/python tools/measure_torch_promotion.py [OUT_DIR]

Writes ``torch_result_type.csv`` to ``src/latticecast/evidence/measured/`` (or OUT_DIR): rows and
columns are the dtypes (a 2-element tensor) and Python scalars (``b*`` True, ``i*`` 0, ``f*`` 0.0,
``c*`` 0j); a cell is ``torch.result_type(lhs, rhs)``, ``-`` where PyTorch raises (for two distinct
float8 dtypes or a float8 dtype with any other: "Promotion for Float8 Types is not supported"). Two
Python scalars are measured as the dtype of ``torch.add`` on them (a tensor, strong).
PyTorch's ``complex32`` is written as is (latticecast has no such dtype).
Adapted from /work/research/max/measure_torch_zero_dim.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measured_tables import OUT, PY_SCALARS, write_matrix  # noqa: E402

WANTED = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "bfloat16", "float16",
          "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
          "float8_e5m2fnuz", "float8_e8m0fnu", "int1", "int2", "int4", "uint1", "uint2", "uint4"]
SCALARS = ("b*", "i*", "f*", "c*")


def _operand(label: str):
    return PY_SCALARS[label] if label in SCALARS else torch.zeros(2, dtype=getattr(torch, label))


def result_type(a: str, b: str) -> str | None:
    try:
        if a in SCALARS and b in SCALARS:
            dtype = torch.add(torch.tensor(PY_SCALARS[a]), PY_SCALARS[b]).dtype
        else:
            dtype = torch.result_type(_operand(a), _operand(b))
    except RuntimeError:
        return None
    return str(dtype).removeprefix("torch.")


def main(out: Path) -> None:
    labels = [n for n in WANTED if hasattr(torch, n)] + list(SCALARS)
    write_matrix("torch_result_type", labels, labels, result_type,
                 "notation: names (Python scalars b* i* f* c*)\n"
                 f"measured: torch.result_type in torch {torch.__version__} (two Python scalars: torch.add)\n"
                 "tool: tools/measure_torch_promotion.py (rows: lhs, columns: rhs; '-': PyTorch refused)", out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
