"""Record what MAX 26.7 does with the cases of ``tools/max_indexing_cases.py``.

Run with MAX installed (it needs no latticecast):
    /work/venv-max/bin/python tools/record_max_indexing.py [output.json]

For every case (``VALUES`` and ``BUILDS``): build it in its own ``max.graph.Graph`` and record its
results' dtypes and shapes, or the error MAX raises (type and first line). Then compile the
``VALUES`` cases together, as one graph on ``InferenceSession(devices=[CPU()])`` (one compile:
each takes minutes on a busy machine), execute it and record every output. Writes
``tests/data/max_indexing.json``: ``{"max": version, "cases": {name: {"code", "inputs",
"results": [[dtype, shape], ...] | null, "error": [type, message] | null, "values": [...]}}}``.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
from typing import Any

import numpy as np
from max.driver import CPU
from max.dtype import DType
from max.engine import InferenceSession
from max.graph import DeviceRef, Graph, TensorType, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from max_indexing_cases import BUILDS, VALUES  # noqa: E402

DEFAULT_OUTPUT = os.path.join(HERE, os.pardir, "tests", "data", "max_indexing.json")
NAMES = "abc"


def _arrays(inputs: list[tuple[str, Any]]) -> list[np.ndarray]:
    return [np.asarray(values, dtype=dtype) for dtype, values in inputs]


def _types(inputs: list[tuple[str, Any]]) -> list[TensorType]:
    return [TensorType(DType[dtype], np.shape(values), DeviceRef.CPU()) for dtype, values in inputs]


def _results(out: Any) -> list[Any]:
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _evaluate(code: str, values: list[Any]) -> list[Any]:
    scope = dict(zip(NAMES, values), ops=ops, np=np, DType=DType, DeviceRef=DeviceRef)
    return _results(eval(code, scope))  # noqa: S307  # the cases are this repository's own expressions


def build(name: str, inputs: list[tuple[str, Any]], code: str) -> dict[str, Any]:
    record: dict[str, Any] = {"code": code, "inputs": inputs, "results": None, "error": None}
    try:
        with Graph(name, input_types=_types(inputs)) as g:
            outs = _evaluate(code, list(g.inputs))
            record["results"] = [[str(o.dtype), [int(d) for d in o.shape]] for o in outs]
    except Exception as e:  # noqa: BLE001  # MAX's error is what is recorded
        record["error"] = [type(e).__name__, str(e).strip().splitlines()[0]]
    return record


def write(path: str, version: str, cases: dict[str, Any]) -> None:
    """The record as JSON, one case a line (it diffs by case)."""
    lines = [f" {json.dumps(name)}: {json.dumps(cases[name], sort_keys=True)}" for name in sorted(cases)]
    with open(path, "w") as f:
        f.write(f'{{"max": {json.dumps(version)}, "cases": {{\n' + ",\n".join(lines) + "\n}}\n")


def main(path: str = DEFAULT_OUTPUT) -> None:
    cases = {name: build(name, inputs, code) for name, inputs, code in VALUES + BUILDS}
    failed = {name: cases[name]["error"] for name, _, _ in VALUES if cases[name]["error"]}
    assert not failed, failed
    types = [t for _, inputs, _ in VALUES for t in _types(inputs)]
    with Graph("indexing", input_types=types) as g:
        outputs, spans, at = [], {}, 0
        for name, inputs, code in VALUES:
            outs = _evaluate(code, list(g.inputs[at:at + len(inputs)]))
            at += len(inputs)
            spans[name] = (len(outputs), len(outputs) + len(outs))
            outputs += outs
        g.output(*outputs)
    model = InferenceSession(devices=[CPU()]).load(g)
    arrays = [a for _, inputs, _ in VALUES for a in _arrays(inputs)]
    results = [o.to_numpy() for o in model.execute(*arrays)]
    for name, (lo, hi) in spans.items():
        cases[name]["values"] = [r.tolist() for r in results[lo:hi]]
    write(path, importlib.metadata.version("max"), cases)
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
