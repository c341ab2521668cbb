"""Two revisions side by side: ``python3 benchmarks/before_after.py BASE_REV [HEAD_REV]``.

Runs latticecast's side of each benchmark in ``targets.py`` (the measurements ``python3
dev.py bench`` shows against JAX) on two git revisions in one run, and prints each
one's median per revision and the ratio after/before (``HEAD / BASE``; below 1: the
later revision is faster), of the medians and of the fastest samples (the least
disturbed by other load). Each revision is checked out with ``git worktree add`` into
a temporary directory (removed at the end); ``HEAD_REV`` left out means this checkout's
working tree as it is, uncommitted changes included. Every measurement runs in a fresh
process whose ``PYTHONPATH`` is that revision's ``src``, with this checkout's
benchmark code for both, and the two revisions alternate, round by round, the first
to run changing each round: the machines are shared and noisy.

    python3 benchmarks/before_after.py main            # main vs this working tree
    python3 benchmarks/before_after.py edfceb1 tidy --rounds 7
    python3 benchmarks/before_after.py HEAD~3 --only chain --scale 0.1

``--scale`` multiplies every program's size (0.01 for a smoke test: the ratios then
say little); ``--only`` keeps the measurements whose name contains the text.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Measure:
    """One benchmark: ``code`` sets ``result`` (in ``unit``) for a program of ``size`` (scaled)."""

    name: str
    unit: str
    size: int
    code: str

    def sized(self, scale: float) -> int:
        return max(1, round(self.size * scale))


MEASURES = (
    Measure("literal chain: build + implicit-cast + print", "s", 10_000, """
        from targets import build_latticecast
        build_latticecast(200, True)
        result = build_latticecast(SIZE, True)[1]
    """),
    Measure("plain chain: build + implicit-cast + print", "s", 10_000, """
        from targets import build_latticecast
        build_latticecast(200, False)
        result = build_latticecast(SIZE, False)[1]
    """),
    Measure("a literal every other op: build + implicit-cast + print", "s", 100_000, """
        from targets import build_latticecast, every_other_literal
        build_latticecast(100, True, every_other_literal)
        result = build_latticecast(SIZE, True, every_other_literal)[1]
    """),
    Measure("implicit-cast alone on the literal chain", "s", 100_000, """
        from targets import LITERAL_CHAIN_DTYPES, chain
        from latticecast import DType, Graph, TensorType
        from latticecast.passes import ImplicitCastOptions, run_implicit_cast
        g = Graph("chain", input_types=[TensorType(DType(d), (8,)) for d in LITERAL_CHAIN_DTYPES], policy="jax")
        with g:
            g.output(chain(g.inputs, SIZE, True))
        op = g._module.operation.clone()  # as built, before the pass
        t0 = time.perf_counter()
        run_implicit_cast(op, ImplicitCastOptions(policy="jax"))
        result = time.perf_counter() - t0
    """),
    Measure("implicit-cast + print, one converted input per op", "s", 10_000, """
        from latticecast import DType, Graph, TensorType
        g = Graph("inputs", input_types=[TensorType(DType.float32, (2,))] + [TensorType(DType.int8, (2,))] * SIZE)
        with g:
            acc = g.inputs[0]
            for x in g.inputs[1:]:
                acc = acc + x
            g.output(acc)
        t0 = time.perf_counter()
        g.mlir()
        result = time.perf_counter() - t0
    """),
    Measure("audit of a lattice table (size: its types)", "s", 1_000, """
        from latticecast import PromotionTable, audit
        cells = [(i // 40, i % 40) for i in range(SIZE)]  # a product of two chains: a lattice
        table = PromotionTable.from_function(cells, None, lambda a, b: (max(a[0], b[0]), max(a[1], b[1])),
                                             name="grid")
        t0 = time.perf_counter()
        audit(table)
        result = time.perf_counter() - t0
    """),
    Measure("round trip NumPy -> result, small program (size: calls)", "us", 2_000, """
        import numpy as np
        from bench_runtime import SMALL_PROGRAM, per_call_us
        from latticecast.runtime import compile
        model = compile(SMALL_PROGRAM)
        x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
        per_call_us(lambda: model(x, y), 200)
        result = per_call_us(lambda: model(x, y), SIZE)
    """),
    Measure("latticecast-opt --implicit-cast, JAX's transformer (size: layers)", "s", 32, """
        from latticecast.cli.opt import main
        args = [JAX_MODULE, "--implicit-cast", "-o", JAX_MODULE + ".out"]
        main(args)
        t0 = time.perf_counter()
        main(args)
        result = time.perf_counter() - t0
    """),
)
"""Every measure, each latticecast's side of a row of ``targets.py``; ``SIZE`` is the scaled size (the
last one's is the layers of the transformer in the JAX module, written once for both revisions)."""


@dataclass(frozen=True)
class Comparison:
    """A measure's samples on both revisions."""

    measure: Measure
    before: list[float]
    after: list[float]

    @property
    def ratio(self) -> float:
        """after/before of the medians: below 1 the later revision is faster."""
        return statistics.median(self.after) / statistics.median(self.before)

    @property
    def best_ratio(self) -> float:
        """after/before of the fastest samples: the least disturbed by other load on the machine."""
        return min(self.after) / min(self.before)


def resolve(rev: str) -> str:
    """The commit ``rev`` names in this repository.

    Raises:
        SystemExit: ``rev`` names no commit.
    """
    proc = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                          capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"before_after.py: {rev!r} is not a commit of {ROOT}; pass a branch, tag or commit "
                         f"(git log --oneline lists them)")
    return proc.stdout.strip()


@contextlib.contextmanager
def checkout(rev: str | None) -> Iterator[Path]:
    """The ``src`` directory of revision ``rev`` (a temporary worktree, removed on exit); ``None``:
    this checkout's own ``src``."""
    if rev is None:
        yield ROOT / "src"
        return
    commit = resolve(rev)
    with tempfile.TemporaryDirectory(prefix="latticecast-before-after-") as tmp:
        tree = Path(tmp, commit[:12])
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), commit],
                       check=True)
        try:
            yield tree / "src"
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


def write_jax_module(path: Path, layers: int) -> None:
    """The StableHLO JAX writes for the transformer step of ``bench_jax_module.py``."""
    import jax
    import numpy as np

    sys.path.insert(0, str(HERE))
    from bench_jax_module import D, T, make_step, parameters

    path.write_text(jax.jit(make_step()).lower(parameters(layers), np.ones((T, D), np.float32)).as_text())


def run(measure: Measure, src: Path, scale: float, jax_module: Path) -> float:
    """One sample of ``measure`` in a fresh process that imports latticecast from ``src``.

    Raises:
        SystemExit: the process failed, or imported latticecast from elsewhere than ``src``.
    """
    program = textwrap.dedent(f"""
        import json, sys, time
        from pathlib import Path
        sys.path.insert(0, {str(HERE)!r})
        import latticecast
        if Path(latticecast.__file__).resolve().parent.parent != Path({str(src)!r}).resolve():
            sys.exit(f"latticecast was imported from {{latticecast.__file__}}, not from {str(src)!r}")
        SIZE = {measure.sized(scale)}
        JAX_MODULE = {str(jax_module)!r}
    """) + textwrap.dedent(measure.code) + "\nprint(json.dumps(result))\n"
    env = dict(os.environ, PYTHONPATH=str(src), TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(f"before_after.py: {measure.name!r} failed under {src}:\n{proc.stderr}")
    return float(json.loads(proc.stdout.strip().splitlines()[-1]))


def compare(before: Path, after: Path, measures: tuple[Measure, ...], rounds: int, scale: float,
            jax_module: Path) -> Iterator[Comparison]:
    """Each measure's samples on both trees, ``rounds`` each, alternating which runs first."""
    for measure in measures:
        samples: dict[Path, list[float]] = {before: [], after: []}
        for i in range(rounds):
            for src in ((before, after) if i % 2 == 0 else (after, before)):
                samples[src].append(run(measure, src, scale, jax_module))
        yield Comparison(measure, samples[before], samples[after])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", metavar="BASE_REV", help="the revision before (a branch, tag or commit)")
    ap.add_argument("head", metavar="HEAD_REV", nargs="?", help="the revision after (default: this working tree)")
    ap.add_argument("--rounds", type=int, default=5, help="samples per measure and revision (default 5)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every program's size (default 1)")
    ap.add_argument("--only", default="", help="only the measures whose name contains this text")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.scale <= 0:
        ap.error("--rounds must be at least 1 and --scale above 0")
    measures = tuple(m for m in MEASURES if args.only.lower() in m.name.lower())
    if not measures:
        ap.error(f"--only {args.only!r} matches no measure; the measures are: {'; '.join(m.name for m in MEASURES)}")
    with checkout(args.base) as before, checkout(args.head) as after, \
            tempfile.TemporaryDirectory() as tmp:
        jax_module = Path(tmp, "step.mlir")
        write_jax_module(jax_module, MEASURES[-1].sized(args.scale))
        print(f"before: {args.base} ({resolve(args.base)[:10]}), after: {args.head or 'this working tree'}; "
              f"medians of {args.rounds} rounds, sizes x{args.scale:g}", flush=True)
        print(f"{'measure':64s} {'size':>8s} {'before':>10s} {'after':>10s} {'after/before':>13s} "
              f"{'(fastest)':>10s}", flush=True)
        for c in compare(before, after, measures, args.rounds, args.scale, jax_module):
            m = c.measure
            print(f"{m.name:64s} {m.sized(args.scale):8,d} {statistics.median(c.before):8.4g}{m.unit:>2s} "
                  f"{statistics.median(c.after):8.4g}{m.unit:>2s} {c.ratio:12.2f}x {c.best_ratio:9.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
