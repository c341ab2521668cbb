"""Two checkouts of latticecast side by side: ``python benchmarks/before_after.py OLD_SRC [NEW_SRC]``.

Runs the same measurements on two source trees (each a ``src`` directory; ``NEW_SRC``
defaults to this checkout's), alternating between them round by round in fresh
processes, and prints the medians and the ratio old / new (above 1: the new tree is
faster). The measurements use only API both trees have: the graph builder
(``Graph(name, input_types=...)``, ``g.mlir()``), ``latticecast.runtime.compile`` and
``latticecast-opt``'s ``main``. For a redesign's "no slowdown" check, e.g.::

    git worktree add /tmp/before <commit> && python benchmarks/before_after.py /tmp/before/src
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent

MEASURES = {
    "10k-op chain, a literal every 4th op: build + pass + print (s)": """
        from targets import build_latticecast
        build_latticecast(200, True)
        result = min(build_latticecast(10_000, True)[1] for _ in range(3))
    """,
    "10k-op chain without literals: build + pass + print (s)": """
        from targets import build_latticecast
        build_latticecast(200, False)
        result = min(build_latticecast(10_000, False)[1] for _ in range(3))
    """,
    "round trip NumPy -> result, small program (us)": """
        import numpy as np
        from bench_runtime import SMALL_PROGRAM, per_call_us
        from latticecast.runtime import compile
        model = compile(SMALL_PROGRAM)
        x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
        per_call_us(lambda: model(x, y), 2000)
        result = min(per_call_us(lambda: model(x, y), 2000) for _ in range(5))
    """,
    "latticecast-opt --implicit-cast on JAX's 32-layer transformer module, in process (s)": """
        import io, contextlib
        from latticecast.cli.opt import main
        args = [MODULE, "--implicit-cast", "-o", MODULE + ".out"]
        main(args)
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            main(args)
            times.append(time.perf_counter() - t0)
        result = min(times)
    """,
}


def _jax_module(path: Path) -> None:
    import jax
    import numpy as np

    sys.path.insert(0, str(HERE))
    from bench_jax_module import D, T, make_step, parameters

    path.write_text(jax.jit(make_step()).lower(parameters(32), np.ones((T, D), np.float32)).as_text())


def _run(src: str, code: str, module: Path) -> float:
    program = textwrap.dedent(f"""
        import json, sys, time
        sys.path.insert(0, {str(HERE)!r})
        MODULE = {str(module)!r}
    """) + textwrap.dedent(code) + "\nprint(json.dumps(result))\n"
    env = dict(os.environ, PYTHONPATH=src, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(f"measurement failed under {src}:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default=str(HERE.parent / "src"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        module = Path(tmp, "step.mlir")
        _jax_module(module)
        print(f"{'measure':88s} {'old':>9s} {'new':>9s} {'old/new':>8s}")
        for name, code in MEASURES.items():
            old, new = [], []
            for _ in range(args.rounds):
                old.append(_run(args.old, code, module))
                new.append(_run(args.new, code, module))
            o, n = statistics.median(old), statistics.median(new)
            print(f"{name:88s} {o:9.4g} {n:9.4g} {o / n:7.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
