"""Measure ``array-api-strict`` (the Array API standard's reference implementation), as package data.

Run with an interpreter that has array-api-strict (it needs nothing from latticecast):

    /work/venv-aas/bin/python tools/measure_array_api_promotion.py [OUT_DIR]
    /work/venv-aas/bin/python tools/measure_array_api_promotion.py --json   # every live cell, for the tests

The standard's revision is 2024.12 (``array_api_strict.set_array_api_strict_flags(api_version=...)``);
``--api-version`` measures another one.

Writes ``array_api_strict_result_type.csv`` to ``src/latticecast/evidence/measured/`` (or OUT_DIR):
rows and columns are the standard's 13 dtypes (an array of that dtype) and Python scalars (``b*`` True,
``i*`` 1, ``f*`` 1.0, ``c*`` 1j); a cell is ``xp.result_type(lhs, rhs)``, ``-`` where array-api-strict
raises (two Python scalars: "at least one array or dtype is required").

``--json`` prints one JSON object instead: ``pairs`` (``result_type`` and the operator ``+``, by
``"lhs,rhs"``), ``triples`` (``result_type`` of every 3-tuple of the labels), and ``numpy_scalars``
(each NumPy scalar type against an array of each dtype: ``result_type``, ``array + scalar`` and
``xp.add``; ``scalar + array`` is NumPy's operator, which converts the array to a NumPy array). A
refusal is ``null``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
import array_api_strict as xp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measured_tables import OUT, write_matrix  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
          "complex64", "complex128"]
SCALARS = {"b*": True, "i*": 1, "f*": 1.0, "c*": 1j}
NUMPY_SCALARS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "float32", "float64", "complex64", "complex128", "longdouble", "clongdouble"]


def operand(label: str) -> Any:
    return SCALARS[label] if label in SCALARS else xp.zeros(2, dtype=getattr(xp, label))


def name(dtype: Any) -> str:
    return repr(dtype).removeprefix("array_api_strict.")


def attempt(f: Callable[[], Any]) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = f()
    except (TypeError, ValueError, OverflowError):
        return None
    return name(getattr(out, "dtype", out))


def result_type(*labels: str) -> str | None:
    return attempt(lambda: xp.result_type(*(operand(x) for x in labels)))


def plus(a: str, b: str) -> str | None:
    return attempt(lambda: operand(a) + operand(b))


def live(labels: list[str]) -> dict[str, Any]:
    pairs = {f"{a},{b}": {"result_type": result_type(a, b), "+": plus(a, b)} for a in labels for b in labels}
    triples = {",".join(t): result_type(*t) for t in itertools.product(labels, repeat=3)}
    numpy_scalars: dict[str, Any] = {}
    for s in NUMPY_SCALARS:
        value = np.dtype(s).type(1)
        for d in DTYPES:
            array = xp.zeros(2, dtype=getattr(xp, d))
            numpy_scalars[f"{d},{s}"] = {
                "result_type": attempt(lambda: xp.result_type(array, value)),
                "array + scalar": attempt(lambda: array + value),
                "xp.add": attempt(lambda: xp.add(array, value)),
            }
    return {"version": xp.__version__, "api_version": xp.__array_api_version__, "labels": labels,
            "pairs": pairs, "triples": triples, "numpy_scalars": numpy_scalars}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument("--json", action="store_true", help="print every live cell as JSON instead")
    parser.add_argument("--api-version", default="2024.12")
    args = parser.parse_args()
    xp.set_array_api_strict_flags(api_version=args.api_version)
    labels = DTYPES + list(SCALARS)
    if args.json:
        json.dump(live(labels), sys.stdout)
        return
    write_matrix("array_api_strict_result_type", labels, labels, result_type,
                 "notation: names (Python scalars b* True, i* 1, f* 1.0, c* 1j)\n"
                 f"measured: array_api_strict.result_type in array-api-strict {xp.__version__} (NumPy "
                 f"{np.__version__}), standard {xp.__array_api_version__}\n"
                 "tool: tools/measure_array_api_promotion.py (rows: lhs, columns: rhs; '-': refused)", args.out)


if __name__ == "__main__":
    main()
