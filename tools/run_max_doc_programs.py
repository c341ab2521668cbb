"""Run MAX's documented engine programs on MAX (CPU) and save their outputs as test data.

Run with MAX installed (MAX 26.7; it needs no latticecast):
    /work/venv-max/bin/python tools/run_max_doc_programs.py [output.npz]

For each program in ``tools/max_doc_programs.py`` (``PROGRAMS``), in that order: draw its arguments
from ONE ``np.random.default_rng(0)`` stream (float32 ``rng.standard_normal(shape)``, int64
``rng.integers(0, VOCAB, shape)``), run it (it builds its graph, loads it with MAX's
``InferenceSession`` and executes it), check each output against a NumPy reference, and save
arguments, outputs and what the program printed to ``tests/data/max_doc_reference.npz`` (keys
``<name>/in<i>``, ``<name>/out<j>`` and ``<name>/stdout``, and ``meta/max_version``), which ``tests/test_max_engine.py`` compares latticecast's
outputs with. Prints each program's time (the first compile of a cold MAX cache takes minutes).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from max_doc_programs import PROGRAMS, VOCAB  # noqa: E402

DEFAULT_OUTPUT = os.path.join(HERE, os.pardir, "tests", "data", "max_doc_reference.npz")


def arguments(rng: np.random.Generator, specs: list[tuple[tuple[int, ...], type]]) -> list[np.ndarray]:
    """A program's arguments, drawn from ``rng`` in order (the test draws none: it reads them back)."""
    return [rng.standard_normal(shape, dtype=np.float32) if dtype is np.float32
            else rng.integers(0, VOCAB, shape, dtype=np.int64) for shape, dtype in specs]


def numpy_reference(name: str, ins: list[np.ndarray]) -> list[np.ndarray]:
    """What each program computes, in NumPy (a check on MAX's outputs before they become test data)."""
    relu = lambda v: np.maximum(v, 0)  # noqa: E731
    if name == "addition":
        return [ins[0] + ins[1]]
    if name == "add_constants":
        return [np.array([4.0, 6.0], np.float32)]
    if name == "add_one":
        return [ins[0] + 1, ins[0][:2] + 1]
    if name == "linear_relu":
        x, w, b = ins
        return [relu(x @ w + b)]
    if name == "mlp":
        x, w1, b1, w2, b2 = ins
        return [relu(x @ w1 + b1) @ w2 + b2]
    if name == "gather_constants":
        return [np.array([[1, 2], [5, 6]], np.int32)]
    if name == "embedding":
        ids, table, w = ins
        embedded = table[ids]
        return [embedded, embedded.mean(axis=1) @ w]
    raise KeyError(name)


def main(path: str = DEFAULT_OUTPUT) -> None:
    version = importlib.metadata.version("max")
    print(f"max=={version} numpy=={np.__version__}")
    rng = np.random.default_rng(0)
    arrays: dict[str, np.ndarray] = {"meta/max_version": np.array(version)}
    for name, (program, specs) in PROGRAMS.items():
        ins = arguments(rng, specs)
        printed = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(printed):
            outs = program(*ins)
        t1 = time.perf_counter()
        for j, (o, r) in enumerate(zip(outs, numpy_reference(name, ins), strict=True)):
            assert o.shape == r.shape and o.dtype == r.dtype, (name, j, o.shape, o.dtype, r.shape, r.dtype)
            if o.dtype.kind == "f":
                np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-6, err_msg=f"{name}/out{j}")
            else:
                np.testing.assert_array_equal(o, r, err_msg=f"{name}/out{j}")
        arrays.update({f"{name}/in{i}": a for i, a in enumerate(ins)})
        arrays.update({f"{name}/out{j}": np.array(o) for j, o in enumerate(outs)})
        arrays[f"{name}/stdout"] = np.array(printed.getvalue())
        print(f"{name:16s} build+compile+run {t1 - t0:7.2f}s  outputs "
              + ", ".join(f"{o.dtype}{list(o.shape)}" for o in outs) + "  (matches NumPy)")
    np.savez_compressed(path, **arrays)
    print(f"wrote {os.path.normpath(path)} ({os.path.getsize(path)} bytes, {len(arrays)} arrays)")


if __name__ == "__main__":
    main(*sys.argv[1:])
