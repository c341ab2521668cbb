#!/usr/bin/env python3
"""Measure Modular MAX's Python ``max.graph`` dtype promotion cell by cell, for the ``max-python`` policy.

Run with an interpreter that has MAX (it needs nothing from latticecast; MAX is no dependency
of latticecast, so it lives in a virtual environment of its own):

    /path/to/venv-with-max/bin/python tools/measure_max_python.py [OUT_DIR]

Writes ``max_python_cells.csv`` to ``src/latticecast/evidence/measured/`` (or OUT_DIR). The first
line records the versions of MAX, Python and NumPy and this command; then the columns ``op, lhs,
rhs, result, message``. Every cell is built in a fresh ``Graph`` whose inputs are tensors of
shape [2] on ``DeviceRef.CPU()``; its result is the ``.dtype`` of the value the expression
returns (the graph is never compiled, so this needs no GPU and takes about a minute).

``result`` is the MAX dtype's name (``DType.float8_e4m3fn`` -> ``float8_e4m3fn``) or ``error``;
``message`` is ``<ExceptionType>: <first line>``. When that first line is MAX's generic "Failed
to create op 'XxxOp':", the first line after "Diagnostics:" (not "Operation creation failed:")
follows after `` || ``: that is the reason.

Operands: a dtype name is a graph input of that dtype; a non-MAX object is ``<kind>:<repr>``:
``py_int:128``, ``py_float:0.5``, ``py_bool:True``, ``np_float32:0.5``, ``np_array_int32:[1, 2]``,
``dim:3`` (a static ``max.graph.Dim``).

Cells: which dtypes ``TensorType`` accepts; every pair of them under ``+ - * / // % ** & == >``,
``ops.add/div/max/min/matmul/concat/stack`` and ``ops.where`` (the condition a bool input);
each dtype with each non-MAX operand under ``x+s, s+x, ops.add(x,s), ops.add(s,x), x*s, x/s,
s/x, x//s, x%s, ops.max(x,s), ops.where(c,x,s)``; and a few cells without any graph value
(two scalars, ``ops.constant``, unary ops of a scalar). The Python ints probe both sides of
every bound of MAX's table of exactly representable integers (``dtype_promotion.
_DTYPE_MIN_AND_MAX_FULL_PRECISION``): 2048/2049 for float16, 57344 and 72089/72090 for
float8_e5m2 (MAX's bound there is 1.10 * 2**16, not its largest value), and so on.
Adapted from /work/research/max/measure_max_python.py, which measured the first 21,612 cells.
"""

from __future__ import annotations

import csv
import importlib.metadata
import math
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from max.dtype import DType
from max.graph import DeviceRef, Dim, Graph, TensorType, TensorValue, ops

OUT = Path(__file__).resolve().parent.parent / "src" / "latticecast" / "evidence" / "measured"
NAME = "max_python_cells.csv"
DEVICE = DeviceRef.CPU()

Row = tuple[str, str, str, str, str]

_counter = [0]


def _message(e: BaseException) -> str:
    """``<ExceptionType>: <first line>``, with the diagnostic behind MAX's generic op-creation header."""
    lines = str(e).splitlines()
    first = lines[0].strip() if lines else ""
    if first.startswith("Failed to create op"):
        for i, line in enumerate(lines):
            if line.strip() == "Diagnostics:":
                detail = [x.strip() for x in lines[i + 1:] if x.strip() and x.strip() != "Operation creation failed:"]
                if detail:
                    first = f"{first} || {detail[0]}"
                break
    return f"{type(e).__name__}: {first}"


def run_cell(input_dtypes: list[DType], fn: Callable[..., Any]) -> tuple[str, str]:
    """``fn(*inputs)`` in a fresh graph with inputs of ``input_dtypes`` (shape [2]): (result, message)."""
    _counter[0] += 1
    try:
        graph = Graph(f"cell{_counter[0]}", input_types=[TensorType(d, [2], device=DEVICE) for d in input_dtypes])
        with graph:
            result = fn(*(v.tensor for v in graph.inputs))
            if isinstance(result, TensorValue):
                return result.dtype.name, ""
            # a NumPy array on the left of ``+`` lets NumPy's operator run: an object array of TensorValues
            return (f"non-tensor:{type(result).__name__}[{getattr(result, 'dtype', '')}]",
                    "result is not a TensorValue (NumPy's operator took over)")
    except Exception as e:  # noqa: BLE001 - every refusal is a measured cell
        return "error", _message(e)


def accepted_dtypes(rows: list[Row]) -> list[DType]:
    accepted = []
    for d in DType:
        result, message = run_cell([d], lambda x: x)
        rows.append(("TensorType", d.name, "", result, message))
        if result != "error":
            accepted.append(d)
    return accepted


STRONG_OPS: dict[str, Callable[..., Any]] = {
    "x+y": lambda x, y: x + y,
    "ops.add": lambda x, y: ops.add(x, y),
    "x*y": lambda x, y: x * y,
    "x/y": lambda x, y: x / y,
    "ops.div": lambda x, y: ops.div(x, y),
    "ops.max": lambda x, y: ops.max(x, y),
    "x//y": lambda x, y: x // y,
    "x%y": lambda x, y: x % y,
    "x-y": lambda x, y: x - y,
    "x**y": lambda x, y: x ** y,
    "ops.min": lambda x, y: ops.min(x, y),
    "x==y": lambda x, y: x == y,
    "x>y": lambda x, y: x > y,
    "x&y": lambda x, y: x & y,
    "ops.where(c,x,y)": lambda c, x, y: ops.where(c, x, y),
    "ops.matmul": lambda x, y: ops.matmul(x, y),
    "ops.concat": lambda x, y: ops.concat([x, y]),
    "ops.stack": lambda x, y: ops.stack([x, y]),
}
"""Two graph values; ``ops.where`` takes a bool condition input first."""


def strong_pairs(rows: list[Row], dtypes: list[DType]) -> None:
    for name, fn in STRONG_OPS.items():
        condition = [DType.bool] if name.startswith("ops.where") else []
        for a in dtypes:
            for b in dtypes:
                rows.append((name, a.name, b.name, *run_cell([*condition, a, b], fn)))


PY_INTS = [0, 1, -1, 2, 6, 7, 8, 17, 28, 29, 127, 128, -128, -129, 240, 241, 255, 256, 257, 448, 449, 2048, 2049,
           -2049, 57344, 57345, 72089, 72090, 2 ** 24, 2 ** 24 + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 1,
           2 ** 63 - 1, 2 ** 63, -(2 ** 63), -(2 ** 63) - 1, 2 ** 64 - 1, 2 ** 64]
"""Both sides of each bound of MAX's table: bool 0/1, the integer ranges, float4 6, float6 7.5 and 28,
float8_e4m3fnuz 240, float8_e4m3fn 448, bfloat16 256, float16 2048, float8_e5m2fnuz 57344, float8_e5m2
72089.6, float32 2**24, float64 2**53."""


def scalar_values() -> list[tuple[str, Any]]:
    values: list[tuple[str, Any]] = [(f"py_int:{v}", v) for v in PY_INTS]
    values += [(f"py_float:{v!r}", v) for v in (0.0, 0.5, -0.5, 1.0, 1e300, 1e-300, math.inf, math.nan)]
    values += [(f"py_bool:{v!r}", v) for v in (True, False)]
    for t, v in [(np.int8, 1), (np.int64, 1), (np.uint8, 200), (np.int64, 2 ** 40), (np.float16, 0.5),
                 (np.float32, 0.5), (np.float64, 0.5), (np.bool_, True)]:
        values.append((f"np_{np.dtype(t).name}:{v!r}", t(v)))
    for t, v in [(np.int32, [1, 2]), (np.int64, [1, 300]), (np.float32, [0.5, 1.5]), (np.float64, [0.5, 1.5]),
                 (np.bool_, [True, False]), (np.uint8, [1, 2])]:
        values.append((f"np_array_{np.dtype(t).name}:{v!r}", np.array(v, t)))
    values.append(("dim:3", Dim(3)))
    return values


SCALAR_OPS: dict[str, Callable[..., Any]] = {
    "x+s": lambda x, s: x + s,
    "s+x": lambda x, s: s + x,
    "ops.add(x,s)": lambda x, s: ops.add(x, s),
    "ops.add(s,x)": lambda x, s: ops.add(s, x),
    "x*s": lambda x, s: x * s,
    "x/s": lambda x, s: x / s,
    "s/x": lambda x, s: s / x,
    "x//s": lambda x, s: x // s,
    "x%s": lambda x, s: x % s,
    "ops.max(x,s)": lambda x, s: ops.max(x, s),
    "ops.where(c,x,s)": lambda c, x, s: ops.where(c, x, s),
}
"""A graph value ``x`` and a non-MAX object ``s``; ``ops.where`` takes a bool condition input first."""

SCALAR_LEFT = ("s+x", "ops.add(s,x)", "s/x")


def scalar_cells(rows: list[Row], dtypes: list[DType]) -> None:
    values = scalar_values()
    for name, fn in SCALAR_OPS.items():
        where = name.startswith("ops.where")
        for d in dtypes:
            for label, v in values:
                if where:
                    result = run_cell([DType.bool, d], lambda c, x, v=v: fn(c, x, v))
                else:
                    result = run_cell([d], lambda x, v=v: fn(x, v))
                lhs, rhs = (label, d.name) if name in SCALAR_LEFT else (d.name, label)
                rows.append((name, lhs, rhs, *result))


def no_graph_value_cells(rows: list[Row]) -> None:
    cases: list[tuple[str, str, str, Callable[[], Any]]] = [
        ("ops.add", "py_int:1", "py_int:2", lambda: ops.add(1, 2)),
        ("ops.add", "py_float:1.0", "py_float:2.0", lambda: ops.add(1.0, 2.0)),
        ("ops.add", "py_int:1", "py_float:2.0", lambda: ops.add(1, 2.0)),
        ("ops.add", "py_bool:True", "py_int:1", lambda: ops.add(True, 1)),
        ("ops.mul", "py_int:2", "py_int:3", lambda: ops.mul(2, 3)),
        ("ops.div", "py_int:1", "py_int:2", lambda: ops.div(1, 2)),
        ("ops.max", "py_int:1", "py_int:2", lambda: ops.max(1, 2)),
        ("ops.add", "np_float32:1.0", "np_float32:2.0", lambda: ops.add(np.float32(1), np.float32(2))),
        ("ops.add", "np_array_float32:[1.0]", "py_int:1", lambda: ops.add(np.array([1.0], np.float32), 1)),
        ("ops.add", "np_array_float32:[1.0]", "np_array_float32:[1.0]",
         lambda: ops.add(np.array([1.0], np.float32), np.array([1.0], np.float32))),
        ("ops.add", "dim:3", "py_int:1", lambda: ops.add(Dim(3), 1)),
        ("ops.add", "dim:3", "dim:4", lambda: ops.add(Dim(3), Dim(4))),
        ("ops.add", "dim:3", "py_float:0.5", lambda: ops.add(Dim(3), 0.5)),
        ("ops.exp", "py_float:1.0", "", lambda: ops.exp(1.0)),
        ("ops.negate", "py_int:1", "", lambda: ops.negate(1)),
        ("ops.constant(1,int32)+py_int:1", "int32", "py_int:1", lambda: ops.constant(1, DType.int32, DEVICE) + 1),
        ("ops.constant(0.5,float16)", "py_float:0.5", "float16", lambda: ops.constant(0.5, DType.float16, DEVICE)),
        ("ops.constant(1e300,float16)", "py_float:1e300", "float16",
         lambda: ops.constant(1e300, DType.float16, DEVICE)),
        ("ops.constant(300,int8)", "py_int:300", "int8", lambda: ops.constant(300, DType.int8, DEVICE)),
        ("ops.constant(0,float8_e8m0fnu)", "py_int:0", "float8_e8m0fnu",
         lambda: ops.constant(0, DType.float8_e8m0fnu, DEVICE)),
        ("ops.constant(1,float4_e2m1fn)", "py_int:1", "float4_e2m1fn",
         lambda: ops.constant(1, DType.float4_e2m1fn, DEVICE)),
        ("ops.constant(np.float32 arr)", "np_array_float32:[1.0]", "",
         lambda: ops.constant(np.array([1.0], np.float32), device=DEVICE)),
        ("ops.constant(1)", "py_int:1", "", lambda: ops.constant(1)),
    ]
    for name, lhs, rhs, fn in cases:
        rows.append((name, lhs, rhs, *run_cell([], lambda fn=fn: fn())))


def main(argv: list[str]) -> int:
    out = (Path(argv[0]) if argv else OUT) / NAME
    started = time.time()
    version = importlib.metadata.version("max")
    rows: list[Row] = []
    dtypes = accepted_dtypes(rows)
    strong_pairs(rows, dtypes)
    scalar_cells(rows, dtypes)
    no_graph_value_cells(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as f:
        f.write(f"# max=={version} python={sys.version.split()[0]} numpy=={np.__version__} command: "
                "python tools/measure_max_python.py (the python of a virtual environment with MAX)\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["op", "lhs", "rhs", "result", "message"])
        w.writerows(rows)
    print(f"max {version}: TensorType accepts {', '.join(d.name for d in dtypes)}")
    print(f"{len(rows)} cells written to {out} in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
