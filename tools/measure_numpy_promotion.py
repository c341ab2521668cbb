"""Measure live NumPy's promotion with ml_dtypes' types, as package data.

Run from the project root with the project's environment (NumPy and ml_dtypes installed):

    .venv/bin/python tools/measure_numpy_promotion.py [OUT_DIR]

Writes, to ``src/latticecast/evidence/measured/`` (or OUT_DIR):

* ``numpy_promote_types.csv``: what policy ``numpy`` models. Two arrays: ``np.promote_types(a, b)``;
  an array and a Python scalar: ``np.result_type(np.zeros(2, a), scalar)`` (NEP 50; the scalar on
  either side); two Python scalars: the dtype of ``np.add(x, y)``, a NumPy scalar.
* ``numpy_ufunc_add.csv``: the dtype of ``np.zeros(2, a) + np.zeros(2, b)`` (and with Python
  scalars), which differs from ``np.promote_types`` for ml_dtypes' types (and depends on operand
  order); kept to document that choice.

Adapted from /work/research/lowp/measure_numpy.py.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measured_tables import OUT, PY_SCALARS, write_matrix  # noqa: E402

NUMPY = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
         "float16", "float32", "float64", "complex64", "complex128"]
ML = ["bfloat16", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
      "float8_e5m2", "float8_e5m2fnuz", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn", "float8_e8m0fnu",
      "int1", "uint1", "int2", "uint2", "int4", "uint4"]
SCALARS = ("i*", "f*", "c*")


def dtype(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name)) if name in ML else np.dtype(name)


def _operand(label: str):
    return PY_SCALARS[label] if label in SCALARS else np.zeros(2, dtype(label))


def promote(a: str, b: str) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if a in SCALARS and b in SCALARS:
                return np.dtype(type(np.add(PY_SCALARS[a], PY_SCALARS[b]))).name
            if a in SCALARS or b in SCALARS:
                return np.result_type(_operand(a), _operand(b)).name
            return np.promote_types(dtype(a), dtype(b)).name
    except TypeError:  # DTypePromotionError
        return None


def ufunc_add(a: str, b: str) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = np.add(_operand(a), _operand(b))
    except TypeError:
        return None
    return np.dtype(out.dtype).name


def main(out: Path) -> None:
    labels = NUMPY + [n for n in ML if hasattr(ml_dtypes, n)] + list(SCALARS)
    versions = f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}"
    write_matrix("numpy_promote_types", labels, labels, promote,
                 "notation: names (Python scalars i* f* c*)\n"
                 f"measured: np.promote_types (arrays), np.result_type (an array and a Python scalar), "
                 f"np.add (two Python scalars) in {versions}\n"
                 "tool: tools/measure_numpy_promotion.py (rows: lhs, columns: rhs; '-': NumPy refused)", out)
    write_matrix("numpy_ufunc_add", labels, labels, ufunc_add,
                 "notation: names (Python scalars i* f* c*)\n"
                 f"measured: the dtype of np.add on 2-element arrays (and Python scalars) in {versions}\n"
                 "tool: tools/measure_numpy_promotion.py (rows: lhs, columns: rhs; not what policy numpy models)",
                 out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
