"""Build, compile and run ``tools/max_nn_cases.py`` on MAX (CPU) and save MAX's outputs as test data.

Run with MAX 26.7 installed (it needs no latticecast):
    /work/venv-max/bin/python -u tools/run_max_nn.py [output.npz]
    /work/venv-max/bin/python -u tools/run_max_nn.py --types-only [output.json]

``--types-only`` builds the graph without compiling it and saves each case's result dtype and shape
(``tests/data/max_nn_types.json``): MAX's facts about the ops, in seconds.

All cases go into ONE graph (one compile: a cold MAX cache compiles each kernel for minutes), inputs in
case order. Saves ``tests/data/max_nn_reference.npz``: ``<case>/in<i>`` and ``<case>/out`` (MAX's output,
whose dtype and shape are MAX's result type), which ``tests/test_ops_nn.py`` compares latticecast with.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import time

import numpy as np
from max.driver import CPU
from max.dtype import DType
from max.engine import InferenceSession
from max.graph import DeviceRef, Graph, TensorType, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from max_nn_cases import CASES, inputs  # noqa: E402

DEFAULT_OUTPUT = os.path.join(HERE, os.pardir, "tests", "data", "max_nn_reference.npz")
DEFAULT_TYPES = os.path.join(HERE, os.pardir, "tests", "data", "max_nn_types.json")


def main() -> None:
    args = sys.argv[1:]
    types_only = "--types-only" in args
    args = [a for a in args if a != "--types-only"]
    output = args[0] if args else DEFAULT_TYPES if types_only else DEFAULT_OUTPUT
    names = list(CASES)
    arrays = {name: inputs(name) for name in names}
    types = [TensorType(DType.float32, a.shape, DeviceRef.CPU()) for name in names for a in arrays[name]]
    start = time.perf_counter()
    with Graph("max_nn_cases", input_types=types) as graph:
        values = iter(graph.inputs)
        outs = []
        for name in names:
            args = [next(values).tensor for _ in arrays[name]]
            out = CASES[name][1](ops, *args)
            print(f"{name}: {out.type}", flush=True)
            outs.append(out)
        graph.output(*outs)
    print(f"built in {time.perf_counter() - start:.1f} s", flush=True)
    if types_only:
        facts = {name: {"dtype": out.dtype.name, "shape": [int(d) for d in out.shape]} for name, out in zip(names, outs)}
        with open(output, "w") as f:
            json.dump({"max_version": importlib.metadata.version("max"), "cases": facts}, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"saved {len(names)} result types to {output}")
        return
    start = time.perf_counter()
    model = InferenceSession(devices=[CPU()]).load(graph)
    print(f"compiled in {time.perf_counter() - start:.1f} s", flush=True)
    results = model.execute(*[a for name in names for a in arrays[name]])
    saved: dict[str, np.ndarray] = {"max_version": np.array(importlib.metadata.version("max"))}
    for name, result in zip(names, results):
        for i, a in enumerate(arrays[name]):
            saved[f"{name}/in{i}"] = a
        saved[f"{name}/out"] = result.to_numpy()
    np.savez_compressed(output, **saved)
    print(f"saved {len(names)} cases to {output}")


if __name__ == "__main__":
    main()
