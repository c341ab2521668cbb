"""Values of MAX 26.7 ops whose meaning the API reference leaves open, measured on MAX (CPU).

The expressions below are written once and evaluated by both systems: on MAX by
running this file (``/work/venvs/max/bin/python tools/max_semantics.py [out.npz]``, which
writes ``tests/data/max_semantics_reference.npz``), and on latticecast by
``tests/test_max_names.py``, which loads this file for ``INPUTS`` and ``EXPRESSIONS``
(MAX is imported only in :func:`main`). Each expression receives ``ops`` and the graph
inputs ``f`` (float32[8]), ``i`` (int32[8]) and ``m`` (float32[2, 4], with ties and NaNs).

What they pin down: ``%`` and ``//`` round toward negative infinity (Python's rule, for
floats and integers); ``round`` ties to even; ``argmax``/``argmin`` take the first index
of a tie and never pick a NaN over a number; ``band_part(..., exclude=True)`` zeroes the
band (NaNs too); the three ``gelu`` approximations; ``sigmoid``, ``silu``, ``logsoftmax``,
``trunc``; reductions that keep their axis, ``var`` without Bessel's correction,
``transpose`` swapping two axes, slicing, elementwise ``max(x, y)``. And two things
latticecast deliberately does not copy: MAX's ``exp`` of NaN is +inf, and its ``<``/``<=``
are ``not (>=)``/``not (>)``, true for NaN.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable

import numpy as np

INPUTS: dict[str, np.ndarray] = {
    "f": np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -7.0, 7.0], np.float32),
    "i": np.array([-7, -6, -1, 0, 1, 5, 7, -8], np.int32),
    "m": np.array([[1.0, 3.0, 3.0, 0.0], [np.nan, 2.0, np.nan, 5.0]], np.float32),
}

EXPRESSIONS: dict[str, Callable[..., Any]] = {
    "f % 3.0": lambda ops, f, i, m: f % 3.0,
    "f % -3.0": lambda ops, f, i, m: f % -3.0,
    "i % 3": lambda ops, f, i, m: i % 3,
    "i % -3": lambda ops, f, i, m: i % -3,
    "i // 3": lambda ops, f, i, m: i // 3,
    "i // -3": lambda ops, f, i, m: i // -3,
    "f // 3.0": lambda ops, f, i, m: f // 3.0,
    "round(f)": lambda ops, f, i, m: ops.round(f),
    "argmax(m)": lambda ops, f, i, m: ops.argmax(m),
    "argmin(m)": lambda ops, f, i, m: ops.argmin(m),
    "m.argmax(axis=0)": lambda ops, f, i, m: m.argmax(axis=0),
    "band_part(m, 1, 0, exclude=True)": lambda ops, f, i, m: ops.band_part(m, 1, 0, exclude=True),
    "band_part(m, None, 1)": lambda ops, f, i, m: ops.band_part(m, None, 1),
    "gelu(f)": lambda ops, f, i, m: ops.gelu(f),
    "gelu(f, 'tanh')": lambda ops, f, i, m: ops.gelu(f, approximate="tanh"),
    "gelu(f, 'quick')": lambda ops, f, i, m: ops.gelu(f, approximate="quick"),
    "sigmoid(f)": lambda ops, f, i, m: ops.sigmoid(f),
    "silu(f)": lambda ops, f, i, m: ops.silu(f),
    "relu(f)": lambda ops, f, i, m: ops.relu(f),
    "logsoftmax(m)": lambda ops, f, i, m: ops.logsoftmax(m),
    "softmax(m, axis=0)": lambda ops, f, i, m: ops.softmax(m, axis=0),
    "trunc(f)": lambda ops, f, i, m: ops.trunc(f),
    "is_nan(m)": lambda ops, f, i, m: ops.is_nan(m),
    "m.max()": lambda ops, f, i, m: m.max(),
    "m.min(axis=0)": lambda ops, f, i, m: m.min(axis=0),
    "ops.sum(m)": lambda ops, f, i, m: ops.sum(m),
    "m.mean(axis=0)": lambda ops, f, i, m: m.mean(axis=0),
    "m.var()": lambda ops, f, i, m: m.var(),
    "m.stdev(axis=0)": lambda ops, f, i, m: m.stdev(axis=0),
    "ops.max(m, 2.0)": lambda ops, f, i, m: ops.max(m, 2.0),
    "m.transpose(0, 1)": lambda ops, f, i, m: m.transpose(0, 1),
    "m.T": lambda ops, f, i, m: m.T,
    "m[:, 1:3]": lambda ops, f, i, m: m[:, 1:3],
    "m[-1]": lambda ops, f, i, m: m[-1],
    "m[..., None][0, ::2]": lambda ops, f, i, m: m[..., None][0, ::2],
    "m.flatten()": lambda ops, f, i, m: m.flatten(),
    "m.reshape([4, -1])": lambda ops, f, i, m: m.reshape([4, -1]),
    "ops.concat([m, m], axis=1)": lambda ops, f, i, m: ops.concat([m, m], axis=1),
    "ops.stack([f, f], axis=1)": lambda ops, f, i, m: ops.stack([f, f], axis=1),
    "exp(m)": lambda ops, f, i, m: ops.exp(m),
    "m < 2.0": lambda ops, f, i, m: m < 2.0,
    "m <= 2.0": lambda ops, f, i, m: m <= 2.0,
}


def main(path: str = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "data",
                                  "max_semantics_reference.npz")) -> None:
    from max.driver import CPU
    from max.dtype import DType
    from max.engine import InferenceSession
    from max.graph import DeviceRef, Graph, TensorType, ops

    types = [TensorType(DType.from_numpy(a.dtype), a.shape, DeviceRef.CPU()) for a in INPUTS.values()]
    with Graph("semantics", input_types=types) as graph:
        f, i, m = (v.tensor for v in graph.inputs)
        graph.output(*(expression(ops, f, i, m) for expression in EXPRESSIONS.values()))
    start = time.perf_counter()
    model = InferenceSession(devices=[CPU()]).load(graph)
    print(f"compiled in {time.perf_counter() - start:.1f}s")
    outs = [o.to_numpy() for o in model.execute(*INPUTS.values())]
    arrays = {f"in/{k}": v for k, v in INPUTS.items()}
    arrays.update({f"out/{k}": o for k, o in zip(EXPRESSIONS, outs)})
    for k, o in zip(EXPRESSIONS, outs):
        print(f"{k:36s} {o.dtype}{list(o.shape)} {o.tolist()}")
    np.savez_compressed(path, **arrays)
    print(f"wrote {os.path.normpath(path)} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main(*sys.argv[1:])
