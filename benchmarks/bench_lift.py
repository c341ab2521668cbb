"""Lift plus compare on the largest module JAX writes for a 32-layer transformer, against implicit-cast alone.

    python benchmarks/bench_lift.py [--layers 32] [--repeats 9]

The module is ``bench_jax_module.py``'s (``jax.value_and_grad`` of a pre-norm decoder with bf16
weights and f32 activations: about 12,000 lines, about a thousand converts). Measured in one run,
the two sides alternating, medians over ``--repeats``:

* **the commands** a user runs: ``latticecast-opt step.mlir --implicit-cast -o out.mlir`` against
  ``latticecast compare step.mlir --from jax-x32 --vs torch -o report.txt`` (each a new process:
  start-up, imports, parse, the work, the output);
* **in process**, the module parsed beforehand for both: ``implicit-cast`` (with the verifier, as
  ``run_pipeline`` runs it) against ``lift-implicit-casts`` then :func:`~latticecast.passes.infer_types.compare`
  (the work of ``compare --from``), with lift and compare apart. ``implicit-cast`` is timed twice: on
  JAX's legal module (a walk that finds nothing to decide) and on the module lift gives back (every
  promotion decided and written, the other half of the law). Beside them, the least Python's lift
  and compare (:mod:`lift_floor`), plain and checking what lift must: the floors of the row.

The ratios printed are lift + compare over implicit-cast: at most 2 is the target. The machines are
shared: compare numbers from the same run only.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def module_text(layers: int) -> str:
    """The JAX module of ``bench_jax_module.py``'s training step."""
    import jax
    import numpy as np

    from bench_jax_module import D, T, make_step, parameters

    ps, x = parameters(layers), np.ones((T, D), np.float32)
    return jax.jit(make_step()).lower(ps, x).as_text()


def commands(text: str, repeats: int) -> tuple[float, float]:
    """Medians (seconds) of ``latticecast-opt --implicit-cast`` and ``latticecast compare --from`` as processes."""
    bindir = Path(sys.executable).parent
    opt = [str(bindir / "latticecast-opt")] if (bindir / "latticecast-opt").exists() else \
        [sys.executable, "-m", "latticecast.cli.opt"]
    cli = [str(bindir / "latticecast")] if (bindir / "latticecast").exists() else [sys.executable, "-m", "latticecast"]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "step.mlir")
        src.write_text(text)
        runs = {"opt": [*opt, str(src), "--implicit-cast", "-o", str(Path(tmp, "out.mlir"))],
                "compare": [*cli, "compare", str(src), "--from", "jax-x32", "--vs", "torch", "-o",
                            str(Path(tmp, "report.txt"))]}
        times: dict[str, list[float]] = {k: [] for k in runs}
        for i in range(repeats + 1):  # the first round warms the disk cache of the imports
            for name, command in runs.items():
                t0 = time.perf_counter()
                subprocess.run(command, check=True, env=env, capture_output=True)
                if i:
                    times[name].append(time.perf_counter() - t0)
    return statistics.median(times["opt"]), statistics.median(times["compare"])


def in_process(text: str, repeats: int) -> dict[str, float]:
    """Medians (seconds): implicit-cast, lift, compare and lift + compare, each on a fresh parse, and
    the least Python's lift and compare (:mod:`lift_floor`), plain and checking what lift must, in the
    same rounds."""
    import lift_floor

    import latticecast as lc
    from latticecast.dialect_utils.context import make_context
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.passes import LiftOptions, run_lift, run_pipeline
    from latticecast.passes.infer_types import compare

    ctx = make_context(lenient=True)
    source, target = lc.policy("jax-x32"), lc.policy("torch")
    parts: dict[str, list[float]] = {"implicit-cast": [], "lift": [], "compare": [], "ratio": [],
                                     "implicit-cast (mixed)": [], "ratio (mixed)": [],
                                     "least lift": [], "least compare": [], "least ratio": [],
                                     "checked lift": [], "checked compare": [], "checked ratio": []}
    made = lift_floor.tables(ctx)
    first = parse_module(text, ctx, lenient=True, source_name="step.mlir")
    run_lift(first, LiftOptions(policy=source))
    mixed = first.operation.get_asm(print_generic_op_form=True)  # the program lift gives back
    for _ in range(repeats + 1):
        module = parse_module(text, ctx, lenient=True, source_name="step.mlir")
        t0 = time.perf_counter()
        run_pipeline(module, "builtin.module(implicit-cast)")
        t1 = time.perf_counter()
        module = parse_module(text, ctx, lenient=True, source_name="step.mlir")
        t2 = time.perf_counter()
        lifted = run_lift(module, LiftOptions(policy=source))
        t3 = time.perf_counter()
        assert lifted.program is not None
        compare(lifted.program, source, target)
        t4 = time.perf_counter()
        module = parse_module(mixed, ctx, lenient=True, source_name="mixed.mlir")
        t5 = time.perf_counter()
        run_pipeline(module, "builtin.module(implicit-cast{policy=jax-x32})")
        t6 = time.perf_counter()
        least = lift_floor.sample(text, ctx, made)
        checked = lift_floor.sample(text, ctx, made, checked=True)
        for key, dt in zip(parts, (t1 - t0, t3 - t2, t4 - t3, (t4 - t2) / (t1 - t0), t6 - t5,
                                   (t4 - t2) / (t6 - t5), least.lift, least.compare,
                                   (least.lift + least.compare) / (t1 - t0), checked.lift, checked.compare,
                                   (checked.lift + checked.compare) / (t1 - t0))):
            parts[key].append(dt)
    return {key: statistics.median(values[1:]) for key, values in parts.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=9)
    args = ap.parse_args()
    text = module_text(args.layers)
    print(f"module: {text.count(chr(10)):,} lines, {text.count('stablehlo.convert')} converts")
    opt_s, compare_s = commands(text, max(3, args.repeats // 3))
    print(f"{'latticecast-opt step.mlir --implicit-cast (process)':62s} {opt_s:8.3f}s")
    print(f"{'latticecast compare step.mlir --from jax-x32 --vs torch (process)':62s} {compare_s:8.3f}s")
    print(f"ratio (commands): {compare_s / opt_s:.2f}x (target <= 2x)")
    parts = in_process(text, args.repeats)
    for key in ("implicit-cast", "lift", "compare"):
        print(f"{'  in process: ' + key:62s} {parts[key]:8.3f}s")
    print(f"ratio (in process, lift + compare over implicit-cast on the legal module, a walk that changes "
          f"nothing): {parts['ratio']:.2f}x (target <= 2x)")
    print(f"  the least Python (lift_floor.py): lift {parts['least lift']:.4f}s, compare {parts['least compare']:.4f}s, "
          f"{parts['least ratio']:.2f}x implicit-cast")
    print(f"  the same checking what lift must: lift {parts['checked lift']:.4f}s, compare "
          f"{parts['checked compare']:.4f}s, {parts['checked ratio']:.2f}x implicit-cast")
    print(f"{'  in process: implicit-cast on the lifted module (its promotions)':62s} "
          f"{parts['implicit-cast (mixed)']:8.3f}s")
    print(f"ratio (in process, lift + compare over implicit-cast deciding the lifted module's promotions): "
          f"{parts['ratio (mixed)']:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
