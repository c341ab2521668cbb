"""Issue 3's benchmark: build + implicit-cast + verify against jax.jit(f).lower(), side by side.

    python benchmarks/bench_graph.py [--sizes 1000,10000,100000] [--repeats 5]

For each N it builds the mixed-dtype chain of ``benchmarks/chain.py`` with latticecast
(graph build, the implicit-cast pass, the verifier) and traces and lowers the same
program with ``jax.jit(f).lower(...)`` (x64, so the promotions agree), and reports
medians, the ratio, and the number of ``stablehlo.convert`` ops each emits. Then the
pass alone against MLIR's C++ ``cse`` on the same 100,000-op module. The machines are
shared and noisy: medians over repeats, and ratios measured in one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
from jaxlib.mlir import passmanager  # noqa: E402

from chain import DTYPES, SHAPE, build_graph, jax_function  # noqa: E402
from latticecast.passes import ImplicitCastOptions, run_implicit_cast  # noqa: E402


def median_time(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def latticecast_build(n: int):
    g = build_graph(n)
    m = g.module          # runs implicit-cast in a PassManager, which verifies after it
    m.operation.verify()  # and once more, explicitly
    return g


def jax_lower(n: int):
    f = jax_function()
    f.n = n
    args = [jax.ShapeDtypeStruct(SHAPE, d.np_dtype) for d in DTYPES]
    return jax.jit(f).lower(*args)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    jax.config.update("jax_enable_x64", True)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'N':>8} {'latticecast s':>14} {'jax lower s':>12} {'jax/lc':>8} {'lc us/op':>9} "
          f"{'converts lc':>12} {'converts jax':>13}")
    per_op = []
    for n in sizes:
        reps = args.repeats if n <= 10_000 else max(1, args.repeats // 2)
        t_lc, g = median_time(lambda: latticecast_build(n), reps)
        t_jax, lowered = median_time(lambda: jax_lower(n), reps)
        c_lc = g.mlir().count("stablehlo.convert")
        c_jax = lowered.as_text().count("stablehlo.convert")
        per_op.append(t_lc / n * 1e6)
        print(f"{n:>8} {t_lc:>14.4f} {t_jax:>12.4f} {t_jax / t_lc:>7.1f}x {t_lc / n * 1e6:>9.2f} "
              f"{c_lc:>12} {c_jax:>13}")
    if len(per_op) > 1:
        print(f"growth: time per op from N={sizes[0]} to N={sizes[-1]} changes by "
              f"{per_op[-1] / per_op[0]:.2f}x (1.0 = linear)")

    n = 100_000
    g = build_graph(n)
    module = g._module  # as built, before the pass: the same module for both
    ctx = g.context

    def fresh():
        return module.operation.clone()

    pass_times, cse_times = [], []
    for _ in range(max(1, args.repeats // 2) + 1):
        op = fresh()
        t0 = time.perf_counter()
        run_implicit_cast(op, ImplicitCastOptions(policy="jax"))
        pass_times.append(time.perf_counter() - t0)
        op.erase()
        op = fresh()
        with ctx:
            pm = passmanager.PassManager.parse("builtin.module(cse)")
        pm.enable_verifier(False)
        t0 = time.perf_counter()
        pm.run(op)
        cse_times.append(time.perf_counter() - t0)
        op.erase()
    tp, tc = statistics.median(pass_times), statistics.median(cse_times)
    print(f"\nimplicit-cast alone on the {n}-op module: {tp:.3f} s; builtin.module(cse): {tc:.3f} s; "
          f"ratio {tp / tc:.1f}x")


if __name__ == "__main__":
    main()
