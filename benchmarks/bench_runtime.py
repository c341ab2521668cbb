#!/usr/bin/env python
"""Runtime benchmark: latticecast's PJRT runtime against JAX, side by side in one run.

    .venv/bin/python benchmarks/bench_runtime.py              # everything (about 2 minutes)
    .venv/bin/python benchmarks/bench_runtime.py --chain-ops 1000 --rounds 5   # quicker

Three measurements, each reported as medians and as a ratio latticecast / JAX
(machines are noisy: the two sides are measured in alternating rounds in the
same process, and the ratio is the median of the per-round ratios):

1. *Round trip*: one call of a small program (``x: int16[4], y: float32[4] ->
   convert + add``) with NumPy arrays in and NumPy arrays out, against
   ``np.asarray(jax.jit(f)(x, y))``. Target: at most 1.5x JAX.
2. *Compile*: the 10,000-op mixed-dtype chain of ``benchmarks/chain.py``, built
   with the graph builder and implicit-cast (4 converts), compiled by
   ``latticecast.runtime.compile`` (cache off), against ``lowered.compile()`` of
   JAX's own lowering of the same program (``jax.jit(f).lower(...)``, a convert
   per op). Target: no slower than JAX's compile.
3. *Cached compile*: a second ``compile`` of an identical module, served from the
   in-memory cache. Target: under 1 ms.

"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Callable, Sequence

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

SMALL_PROGRAM = """
module @round_trip {
  func.func public @main(%x: tensor<4xi16>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %x : (tensor<4xi16>) -> tensor<4xf32>
    %1 = stablehlo.add %0, %y : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
"""

# -- the chain program -----------------------------------------------------------------------
# One program for every benchmark: benchmarks/chain.py (five inputs of different dtypes, a chain of
# + and *). latticecast builds it with the graph builder and implicit-cast (one convert per input that
# needs one); JAX traces the same Python with jax.numpy and lowers it its own way (a convert per op).

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chain import DTYPES as CHAIN_DTYPES  # noqa: E402
from chain import build_graph, chain_ops  # noqa: E402
from chain import inputs as chain_inputs  # noqa: E402

CHAIN_INPUT_DTYPES = tuple(d.name for d in CHAIN_DTYPES)


def build_mixed_chain(n_ops: int) -> tuple[str, int]:
    """Legal StableHLO text of the chain, built with the graph builder and implicit-cast, and its
    op count (binary ops and converts)."""
    text = build_graph(n_ops).mlir()
    ops = sum(text.count(f"stablehlo.{op}") for op in ("add", "multiply", "convert"))
    return text, ops


def build_mixed_chain_jax(n_ops: int) -> Callable[..., object]:
    """The same chain as a JAX function over jax.numpy arrays (x64 on, so promotions agree)."""
    def f(*xs):
        return chain_ops(xs, n_ops)
    return f


# -- timing helpers -------------------------------------------------------------------------------


def per_call_us(fn: Callable[[], object], n: int) -> float:
    """Median wall time of one call, in microseconds, over ``n`` calls."""
    timer = time.perf_counter_ns
    samples = []
    for _ in range(n):
        t0 = timer()
        fn()
        samples.append(timer() - t0)
    return statistics.median(samples) / 1e3


def alternate(fns: Sequence[Callable[[], float]], rounds: int) -> list[list[float]]:
    """Run each measurement once per round, alternating, so drift hits all sides alike."""
    results: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            results[i].append(fn())
    return results


def ratio(a: list[float], b: list[float]) -> float:
    return statistics.median(x / y for x, y in zip(a, b))


def row(name: str, value: str, note: str = "") -> None:
    print(f"  {name:<60} {value:>12}  {note}")


# -- the three measurements -----------------------------------------------------------------------


def bench_round_trip(rounds: int, calls: int) -> None:
    import jax
    import jax.numpy as jnp

    from latticecast.jax_internals import compile_on
    from latticecast.runtime import compile
    from latticecast.runtime.partitioning import compile_options, read_partitioning
    from latticecast.runtime.sharded import ShardedCall
    from latticecast.runtime.source import parse_runnable_module

    model = compile(SMALL_PROGRAM)
    x = np.arange(4, dtype=np.int16)
    y = np.ones(4, np.float32)
    jitted = jax.jit(lambda a, b: a.astype(jnp.float32) + b)
    np.testing.assert_array_equal(model(x, y)[0], np.asarray(jitted(x, y)))
    module = parse_runnable_module(SMALL_PROGRAM)  # the client path, which partitioned modules take
    plain = ShardedCall(compile_on([model.device], module, compile_options([model.device])), [model.device],
                        model._program.signature, read_partitioning(module, "<input>"))

    def lc() -> float:
        return per_call_us(lambda: model(x, y), calls)

    def jx() -> float:
        return per_call_us(lambda: np.asarray(jitted(x, y)), calls)

    def lc_plain() -> float:
        return per_call_us(lambda: plain([x.copy(), y.copy()]), calls)

    def jx_put() -> float:
        dev = jax.devices("cpu")[0]
        return per_call_us(lambda: np.asarray(jitted(jax.device_put(x, dev), jax.device_put(y, dev))),
                           calls)

    for fn in (lc, jx, lc_plain, jx_put):  # warm up
        per_call_us(lambda: None, 10)
        fn()
    lcs, jxs, plains, puts = alternate([lc, jx, lc_plain, jx_put], rounds)
    r = ratio(lcs, jxs)
    print(f"\n(1) round trip, NumPy in and out: x: int16[4], y: float32[4] -> convert + add "
          f"({rounds} rounds x {calls} calls, medians)")
    row("latticecast Model(x, y)", f"{statistics.median(lcs):8.2f} us", f"[{model.dispatch} path]")
    row("jax: np.asarray(jax.jit(f)(x, y))", f"{statistics.median(jxs):8.2f} us")
    row("ratio latticecast / jax.jit", f"{r:8.2f} x", "target <= 1.50 x: " + ("met" if r <= 1.5 else "NOT met"))
    row("(info) latticecast client path (device_put+execute_sharded)", f"{statistics.median(plains):8.2f} us")
    row("(info) jax.jit with jax.device_put inputs", f"{statistics.median(puts):8.2f} us")


def bench_chain_compile(n_ops: int, repeats: int) -> str:
    import jax
    jax.config.update("jax_enable_x64", True)

    from latticecast.runtime import compile

    t0 = time.perf_counter()
    text, total_ops = build_mixed_chain(n_ops)
    build_s = time.perf_counter() - t0
    inputs = chain_inputs()

    lc_times, jx_lower, jx_compile = [], [], []
    model = compiled = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        model = compile(text, use_cache=False)
        lc_times.append(time.perf_counter() - t0)
        jax.clear_caches()  # a fresh function and empty caches: JAX traces and compiles again
        f = build_mixed_chain_jax(n_ops)
        t0 = time.perf_counter()
        lowered = jax.jit(f).lower(*inputs)
        t1 = time.perf_counter()
        compiled = lowered.compile()
        t2 = time.perf_counter()
        jx_lower.append(t1 - t0)
        jx_compile.append(t2 - t1)
    assert model is not None and compiled is not None
    ours = model(*inputs)[0]
    theirs = np.asarray(compiled(*inputs))
    same = ours.dtype == theirs.dtype and np.allclose(ours.astype(np.float64), theirs.astype(np.float64),
                                                      equal_nan=True)
    lc_m, lo_m, co_m = (statistics.median(v) for v in (lc_times, jx_lower, jx_compile))
    print(f"\n(2) compile a {n_ops:,}-op mixed-dtype chain ({total_ops:,} ops with converts; "
          f"inputs {', '.join(CHAIN_INPUT_DTYPES)}; {repeats} repeat(s), medians)")
    row("build the StableHLO text (build_mixed_chain)", f"{build_s * 1e3:8.1f} ms", "(not timed below)")
    row("latticecast compile(text): parse + check + XLA", f"{lc_m:8.2f} s")
    row("jax: jax.jit(f).lower(...)  (trace + lower)", f"{lo_m:8.2f} s")
    row("jax: lowered.compile()      (XLA)", f"{co_m:8.2f} s")
    row("ratio latticecast / jax compile()", f"{ratio(lc_times, jx_compile):8.2f} x")
    row("ratio latticecast / jax lower()+compile()",
        f"{ratio(lc_times, [a + b for a, b in zip(jx_lower, jx_compile)]):8.2f} x")
    row("results identical to jax", "yes" if same else "NO")
    return text


def bench_cached_compile(chain_text: str | None, rounds: int) -> None:
    import jax
    import jax.numpy as jnp

    from latticecast.runtime import compile

    compile(SMALL_PROGRAM)  # make sure it is cached
    x = np.arange(4, dtype=np.int16)
    y = np.ones(4, np.float32)

    def lc_small() -> float:
        return per_call_us(lambda: compile(SMALL_PROGRAM), 200)

    def jx_small() -> float:
        return per_call_us(lambda: jax.jit(lambda a, b: a.astype(jnp.float32) + b).lower(x, y).compile(), 20)

    fns = [lc_small, jx_small]
    if chain_text is not None:
        compile(chain_text)
        # Equal texts that are new string objects (a file read again, say): no cached str hash.
        copies = ["".join([chain_text[:1], chain_text[1:]]) for _ in range(20 * rounds)]

        def lc_chain() -> float:
            return per_call_us(lambda: compile(chain_text), 20)

        def lc_chain_copy() -> float:
            it = iter([copies.pop() for _ in range(20)])
            return per_call_us(lambda: compile(next(it)), 20)

        fns += [lc_chain, lc_chain_copy]
    results = alternate(fns, rounds)
    print(f"\n(3) second compile of an identical module (in-memory cache; {rounds} rounds, medians)")
    small = statistics.median(results[0])
    row("latticecast compile(small text), cached", f"{small:8.1f} us",
        "target < 1 ms: " + ("met" if small < 1000 else "NOT met"))
    if chain_text is not None:
        mb = len(chain_text) / 1e6
        for name, res in ((f"latticecast compile(chain text, {mb:.2f} MB), cached", results[2]),
                          ("  ... the same text as a new, equal str object", results[3])):
            value = statistics.median(res)
            row(name, f"{value:8.1f} us", "target < 1 ms: " + ("met" if value < 1000 else "NOT met"))
    row("(info) jax: jax.jit(f).lower(...).compile() again", f"{statistics.median(results[1]):8.1f} us",
        "(retrace + lower + jax's executable cache)")
    if chain_text is not None:
        bench_disk_cache(chain_text)


def bench_disk_cache(chain_text: str) -> None:
    """(info) The chain from the disk cache, as a new process would get it."""
    import tempfile

    from latticecast.runtime import clear_cache, compile

    with tempfile.TemporaryDirectory() as tmp:
        clear_cache(stats=False)  # a memory hit would never look at the disk
        compile(chain_text, cache_dir=tmp)  # compiles and writes the entry
        clear_cache(stats=False)
        t0 = time.perf_counter()
        model = compile(chain_text, cache_dir=tmp)
        elapsed = time.perf_counter() - t0
    row("(info) latticecast compile(chain text) from the disk cache", f"{elapsed * 1e3:8.1f} ms",
        f"(parse + deserialize; source: {model.cache_source})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds per measurement")
    parser.add_argument("--calls", type=int, default=5000, help="calls per round for (1)")
    parser.add_argument("--chain-ops", type=int, default=10_000, help="binary ops in the chain for (2)")
    parser.add_argument("--chain-repeats", type=int, default=1, help="compiles of the chain per side")
    parser.add_argument("--skip-chain", action="store_true", help="skip (2)")
    args = parser.parse_args(argv)

    import jax
    import jaxlib

    from latticecast.runtime import cache_info

    print(f"latticecast runtime benchmark: jax {jax.__version__}, jaxlib {jaxlib.__version__}, "
          f"numpy {np.__version__}, python {sys.version.split()[0]}, {os.cpu_count()} CPU(s), "
          f"device {jax.devices()[0]}")
    bench_round_trip(args.rounds, args.calls)
    chain_text = None if args.skip_chain else bench_chain_compile(args.chain_ops, args.chain_repeats)
    bench_cached_compile(chain_text, args.rounds)
    print(f"\ncache counters: {cache_info()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
