"""Compile and run the drop-in programs on MAX (CPU) and save their outputs as test data.

Run with MAX installed (MAX 26.7; it needs no latticecast):
    /work/venvs/max/bin/python tools/run_max_dropin.py [output.npz]

For each program in ``tools/max_dropin_programs.py`` (``BUILDERS``): build the Graph,
compile it with ``InferenceSession(devices=[CPU()]).load(graph)``, execute it on inputs
drawn from ONE ``np.random.default_rng(0)`` stream (programs in BUILDERS order, inputs
in graph order, ``rng.standard_normal(shape, dtype=np.float32)``), check each output
against a NumPy reference, and save inputs and outputs to
``tests/data/max_dropin_reference.npz`` (keys ``<name>/in<i>`` and ``<name>/out<j>``),
which ``tests/test_max_dropin.py`` compares latticecast's outputs with. Prints build,
compile and run times (the first compile of a cold MAX cache takes minutes).
"""

from __future__ import annotations

import importlib.metadata
import math
import os
import sys
import time

import numpy as np
from max.driver import CPU
from max.engine import InferenceSession

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from max_dropin_programs import BUILDERS, INPUT_SHAPES  # noqa: E402

DEFAULT_OUTPUT = os.path.join(HERE, os.pardir, "tests", "data", "max_dropin_reference.npz")


def numpy_reference(name: str, ins: list[np.ndarray]) -> list[np.ndarray]:
    """What each program computes, in NumPy (a check on MAX's outputs before they become test data)."""
    if name == "mlp":
        x, w1, b1, w2, b2 = ins
        return [np.maximum(x @ w1 + b1, 0) @ w2 + b2]
    if name == "layernorm":
        x, g, b = ins
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        y = (x - m) / np.sqrt(v + 1e-5) * g + b
        return [y, y]
    if name == "attention":
        q, k, v = ins
        s = q @ k.T * (1.0 / math.sqrt(q.shape[-1]))
        s = np.where(np.tril(np.ones_like(s)) > 0.5, s, -np.inf)
        w = np.exp(s - s.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        return [w @ v, w]
    if name == "argmax":
        (lg,) = ins
        p = np.exp(lg - lg.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        return [lg.argmax(-1)[:, None].astype(np.int64), p]
    raise KeyError(name)


def main(path: str = DEFAULT_OUTPUT) -> None:
    print(f"max=={importlib.metadata.version('max')} numpy=={np.__version__}")
    rng = np.random.default_rng(0)
    session = InferenceSession(devices=[CPU()])
    arrays: dict[str, np.ndarray] = {}
    for name, build in BUILDERS.items():
        ins = [rng.standard_normal(s, dtype=np.float32) for s in INPUT_SHAPES[name]]
        t0 = time.perf_counter()
        graph = build()
        t1 = time.perf_counter()
        model = session.load(graph)
        t2 = time.perf_counter()
        outs = [o.to_numpy() for o in model.execute(*ins)]  # list[max.driver.Buffer]
        t3 = time.perf_counter()
        for j, (o, r) in enumerate(zip(outs, numpy_reference(name, ins), strict=True)):
            assert o.shape == r.shape and o.dtype == r.dtype, (name, j, o.shape, o.dtype, r.shape, r.dtype)
            if o.dtype.kind == "f":
                np.testing.assert_allclose(o, r, rtol=1e-4, atol=1e-5, err_msg=f"{name}/out{j}")
            else:
                np.testing.assert_array_equal(o, r, err_msg=f"{name}/out{j}")
        arrays.update({f"{name}/in{i}": a for i, a in enumerate(ins)})
        arrays.update({f"{name}/out{j}": o for j, o in enumerate(outs)})
        print(f"{name:10s} build {t1 - t0:6.3f}s  compile {t2 - t1:7.2f}s  run {t3 - t2:6.3f}s  outputs "
              + ", ".join(f"{o.dtype}{list(o.shape)}" for o in outs) + "  (matches NumPy)")
    np.savez_compressed(path, **arrays)
    print(f"wrote {os.path.normpath(path)} ({os.path.getsize(path)} bytes, {len(arrays)} arrays)")


if __name__ == "__main__":
    main(*sys.argv[1:])
