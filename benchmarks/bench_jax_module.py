"""latticecast-opt on the largest module JAX writes for a 32-layer transformer, against JAX lowering it.

    python benchmarks/bench_jax_module.py [--layers 32] [--repeats 5]

The model is a pre-norm decoder (multi-head causal attention, GELU MLP, biases) with
bf16 weights and f32 activations, so JAX's module has the converts of mixed precision.
``jax.jit(jax.value_and_grad(loss)).lower(params, x)`` writes about 12,000 lines for 32
layers: the largest module of the model (the forward pass alone is a third of it).

Measured in one run, medians over ``--repeats``:

* **JAX**: ``jax.jit(f).lower(...)`` of a fresh function each time (tracing, JAX's
  passes, lowering to StableHLO; nothing cached between repeats);
* **latticecast-opt**: ``latticecast-opt module.mlir --implicit-cast`` as a command (a new
  process each time: start-up, imports, parse, verify, the pass, print), writing to a file;
* and, in this process, the parts: parse, implicit-cast (with the verifier), print.

The ratio printed is JAX's time over latticecast-opt's: above 1, the tool is faster.
The machines are shared: compare numbers from the same run only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

D, HEADS, T, FF = 64, 4, 16, 256


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * lax.rsqrt(v + 1e-5) * g + b


def attention(p, x):
    t = x.shape[0]

    def heads(w, b):
        return (x @ w + b).reshape(t, HEADS, D // HEADS)

    q, k, v = heads(p["wq"], p["bq"]), heads(p["wk"], p["bk"]), heads(p["wv"], p["bv"])
    s = jnp.einsum("qhd,khd->hqk", q, k) / np.sqrt(D // HEADS).astype(np.float32)
    s = jnp.where(jnp.tril(jnp.ones((t, t), bool)), s, -1e9)
    o = jnp.einsum("hqk,khd->qhd", jax.nn.softmax(s, axis=-1), v).reshape(t, D)
    return o @ p["wo"] + p["bo"]


def layer(p, x):
    x = x + attention(p, layer_norm(x, p["g1"], p["b1"]))
    h = jax.nn.gelu(layer_norm(x, p["g2"], p["b2"]) @ p["w1"] + p["c1"])
    return x + h @ p["w2"] + p["c2"]


def parameters(layers: int) -> list[dict]:
    r = np.random.default_rng(0)

    def weight(*shape):
        return (r.standard_normal(shape) / np.sqrt(shape[0])).astype(jnp.bfloat16)

    def zeros(n):
        return np.zeros(n, np.float32)

    return [{"g1": np.ones(D, np.float32), "b1": zeros(D), "wq": weight(D, D), "wk": weight(D, D),
             "wv": weight(D, D), "wo": weight(D, D), "bq": zeros(D), "bk": zeros(D), "bv": zeros(D),
             "bo": zeros(D), "g2": np.ones(D, np.float32), "b2": zeros(D), "w1": weight(D, FF), "c1": zeros(FF),
             "w2": weight(FF, D), "c2": zeros(D)} for _ in range(layers)]


def make_step():
    """A new training-step function (a new object: JAX's caches never answer for it)."""
    def loss(ps, x):
        for p in ps:
            x = layer(p, x)
        return jnp.mean(x ** 2)
    return jax.value_and_grad(loss)


def median(times: list[float]) -> float:
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    ps, x = parameters(args.layers), np.ones((T, D), np.float32)
    jax.jit(make_step()).lower(ps, x)  # warm up JAX itself (imports, first-use initialisation)
    jax_times, text = [], ""
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        lowered = jax.jit(make_step()).lower(ps, x)
        jax_times.append(time.perf_counter() - t0)
        text = lowered.as_text()
    lines = text.count("\n")

    opt = Path(sys.executable).with_name("latticecast-opt")
    command = [str(opt)] if opt.exists() else [sys.executable, "-m", "latticecast.cli.opt"]
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp, "step.mlir"), Path(tmp, "out.mlir")
        src.write_text(text)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
        opt_times = []
        for _ in range(args.repeats + 1):  # the first run warms the disk cache of the imports
            t0 = time.perf_counter()
            subprocess.run([*command, str(src), "--implicit-cast", "-o", str(dst)], check=True, env=env)
            opt_times.append(time.perf_counter() - t0)
        opt_times = opt_times[1:]
        identical = dst.read_text() == text

    from latticecast.dialect_utils.context import make_context
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.dialect_utils.printing import asm
    from latticecast.passes import run_pipeline

    parts: dict[str, list[float]] = {"parse": [], "implicit-cast + verify": [], "print": []}
    ctx = make_context(lenient=True)
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        module = parse_module(text, ctx, lenient=True, source_name="step.mlir")
        t1 = time.perf_counter()
        run_pipeline(module, "builtin.module(implicit-cast)")
        t2 = time.perf_counter()
        asm(module, assume_verified=True)  # as latticecast-opt prints
        t3 = time.perf_counter()
        for key, dt in zip(parts, (t1 - t0, t2 - t1, t3 - t2)):
            parts[key].append(dt)

    jax_s, opt_s = median(jax_times), median(opt_times)
    print(f"module: jax.value_and_grad of a {args.layers}-layer transformer, {lines} lines, "
          f"{text.count('stablehlo.convert')} converts; latticecast-opt's output identical to JAX's: {identical}")
    print(f"{'measurement':52s} {'median':>9s}")
    print(f"{'JAX: jax.jit(step).lower(params, x)':52s} {jax_s:8.3f}s")
    print(f"{'latticecast-opt step.mlir --implicit-cast (process)':52s} {opt_s:8.3f}s")
    for key, times in parts.items():
        print(f"{'  in process: ' + key:52s} {median(times):8.3f}s")
    print(f"ratio (JAX / latticecast-opt): {jax_s / opt_s:.2f}x "
          f"({'latticecast-opt is faster' if opt_s < jax_s else 'latticecast-opt is SLOWER'})")
    if not identical:
        sys.exit("latticecast-opt changed a legal module")


if __name__ == "__main__":
    main()
