"""Measure live NumPy's promotion with ml_dtypes' types, as package data.

Run from the project root with the project's environment (NumPy and ml_dtypes installed):

    .venv/bin/python tools/measure_numpy_promotion.py [OUT_DIR]

Writes, to ``src/latticecast/evidence/measured/`` (or OUT_DIR):

* ``numpy_promote_types.csv``: what policy ``numpy`` models. Two arrays: ``np.promote_types(a, b)``;
  an array and a Python scalar: the dtype of ``array + scalar`` (NEP 50; the scalar on either side),
  which for ml_dtypes' types is not ``np.result_type``'s answer (``bfloat16 + 0.5`` is float32,
  ``np.result_type`` says float64); two Python scalars: the dtype of ``np.add(x, y)``, a NumPy scalar.
* ``numpy_ml_scalar_arithmetic.csv``: records of ``+``, ``-``, ``*`` and ``/`` between an array of each
  ml_dtypes type and a Python ``bool``, ``int``, ``float`` and ``complex``, in both orders, with
  ``np.result_type``'s answer beside (``-``: NumPy raised).
* ``numpy_ufunc_add.csv``: the dtype of ``np.zeros(2, a) + np.zeros(2, b)`` (and with Python
  scalars), which differs from ``np.promote_types`` for ml_dtypes' types (and depends on operand
  order); kept to document that choice.

Adapted from /work/research/lowp/measure_numpy.py.
"""

from __future__ import annotations

import csv
import io
import operator
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
                return (_operand(a) + _operand(b)).dtype.name
            return np.promote_types(dtype(a), dtype(b)).name
    except TypeError:  # DTypePromotionError
        return None


ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
PYTHON = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}


def _dtype_or_dash(f) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.dtype(f().dtype).name
    except (TypeError, OverflowError):
        return "-"


def write_ml_scalar_arithmetic(out: Path, versions: str) -> Path:
    """The records of ``numpy_ml_scalar_arithmetic.csv``."""
    buf = io.StringIO()
    buf.write("# measured: the dtype of array (op) scalar and scalar (op) array for each ml_dtypes type and "
              f"Python scalar, and np.result_type(array, scalar), in {versions}\n"
              "# tool: tools/measure_numpy_promotion.py ('-': NumPy raised)\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["dtype", "scalar", "op", "array op scalar", "scalar op array", "np.result_type"])
    for name in ML:
        if not hasattr(ml_dtypes, name):
            continue
        for kind, value in PYTHON.items():
            array = np.ones(2, dtype(name))
            for symbol, op in ARITHMETIC.items():
                w.writerow([name, kind, symbol, _dtype_or_dash(lambda: op(array, value)),
                            _dtype_or_dash(lambda: op(value, array)),
                            _dtype_or_dash(lambda: np.empty(0, np.result_type(array, value)))])
    path = out / "numpy_ml_scalar_arithmetic.csv"
    path.write_text(buf.getvalue())
    print(f"wrote {path}")
    return path


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
                 f"measured: np.promote_types (arrays), array + scalar (an array and a Python scalar), "
                 f"np.add (two Python scalars) in {versions}\n"
                 "tool: tools/measure_numpy_promotion.py (rows: lhs, columns: rhs; '-': NumPy refused)", out)
    write_matrix("numpy_ufunc_add", labels, labels, ufunc_add,
                 "notation: names (Python scalars i* f* c*)\n"
                 f"measured: the dtype of np.add on 2-element arrays (and Python scalars) in {versions}\n"
                 "tool: tools/measure_numpy_promotion.py (rows: lhs, columns: rhs; not what policy numpy models)",
                 out)
    write_ml_scalar_arithmetic(out, versions)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
