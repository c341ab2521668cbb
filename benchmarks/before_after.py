"""Two revisions side by side, and the guard against slowdowns: ``python3 dev.py bench --against REF``.

    python3 dev.py bench --against main             # main vs this working tree, every row
    python3 dev.py bench --against main --quick     # the quick subset, smaller programs
    python3 benchmarks/before_after.py edfceb1 tidy --rounds 7
    python3 benchmarks/before_after.py HEAD~3 --only chain --scale 0.1

Runs latticecast's side of every row of ``python3 dev.py bench`` (``targets.py``,
``bench_sharded.py``, ``bench_startup.py``; and the binding floor, a control that runs no
latticecast code) on two git revisions in one run. ``BASE_REV`` is checked out with ``git
worktree add`` into a temporary directory (removed at the end, also on an error or Ctrl-C);
``HEAD_REV`` too, or left out: this checkout's working tree as it is, uncommitted changes
included. Every sample runs in a fresh process whose ``PYTHONPATH`` starts with that tree's
``src`` (the process checks that ``latticecast`` is imported from there; the header names each
side's commit and module path), with this checkout's benchmark code for both. The two trees
alternate, round by round, the first to run changing each round: the machines are shared.

For each row it prints both medians with the min-max of their repeats, the ratio after/before
of the medians (below 1: the later revision is faster), and the row's *noise band*: the
larger relative spread ``(max - min) / median`` of the two trees' own repeats, i.e. how far the
same code differs from itself in this run (at least 1%). A row is *slower* when the ratio of the medians and
the ratio of the fastest samples (the least disturbed by other load) both exceed 1 + its band,
*faster* when both are below 1 - band, else *within noise* (:func:`judge`). The exit status is
1 when any row (the control aside) is slower, 2 when the comparison could not be made (an
unknown revision, no git, a row that failed on either tree: then nothing is claimed for it),
else 0. On a busy machine the bands are wide and little is judged slower: run it on an idle
one. With the default 5 rounds, the same code against itself is judged slower in about one
row in a thousand (a simulation with load-like noise); with 3, in one or two in a hundred.

``--quick`` runs the rows marked quick below, the large programs at a tenth of their size
(the million-op chain, the 100,000-op pass, the 100,000 inputs; the JAX module at 3 layers,
the audit at 500 types), and leaves out the JAX module's ``compare --from`` and the sharded
rows; ``--scale``
multiplies every program's size further (0.01 for a smoke test); ``--only`` keeps the
measures whose name contains the text; ``--rounds`` (at least 3) the repeats per tree.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MIN_ROUNDS = 3
"""The fewest repeats per tree from which a noise band is measured (two samples say nothing of a spread)."""
MIN_BAND = 0.01
"""The narrowest noise band: below 1% a difference is the measurement's resolution (a peak RSS in pages,
the same deterministic work timed a few times), not a change of the code."""


class BenchError(SystemExit):
    """A comparison that cannot be made: the message names the problem and the fix."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Measure:
    """One benchmark: ``code`` sets ``result``, a list of ``row(name, value, unit)``, for a program of
    ``SIZE`` (``size`` scaled; ``quick_size`` under ``--quick``, ``None``: not in the quick subset).
    ``env``: extra environment of its process. ``control``: runs no latticecast code, so it is shown
    (the noise of the machine, and the floor) and never judged."""

    name: str
    size: int
    code: str
    quick_size: int | None = None
    per: str = "ops"
    """What ``SIZE`` counts (for the table); empty: the size is not used."""
    env: tuple[tuple[str, str], ...] = ()
    control: bool = False

    def sized(self, scale: float, quick: bool = False) -> int:
        base = self.quick_size if quick and self.quick_size is not None else self.size
        return max(1, round(base * scale))


MEASURES = (
    Measure("binding floor (control: jaxlib only)", 100_000, """
        from binding_floor import measure
        floor = measure(SIZE, 3)
        result = [row("Operation.create per op", floor.create_us * 1e-6),
                  row("reading a type", floor.type_us * 1e-6)]
    """, quick_size=20_000, control=True),
    Measure("literal chain: build + implicit-cast + print", 10_000, """
        from targets import build_latticecast
        build_latticecast(200, True)
        result = [row("", build_latticecast(SIZE, True)[1])]
    """, quick_size=10_000),
    Measure("plain chain: build + implicit-cast + print", 10_000, """
        from targets import build_latticecast
        build_latticecast(200, False)
        build, total, _ = build_latticecast(SIZE, False)
        result = [row("", total), row("its build, per op", build / SIZE)]
    """, quick_size=10_000),
    Measure("a literal every other op: build + implicit-cast + print", 1_000_000, """
        import resource
        from targets import build_latticecast, every_other_literal
        build_latticecast(100, True, every_other_literal)
        result = [row("", build_latticecast(SIZE, True, every_other_literal)[1]),
                  row("peak memory", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "MB")]
    """, quick_size=100_000),
    Measure("the same chain without literals", 1_000_000, """
        import resource
        from targets import build_latticecast, every_other_literal
        build_latticecast(100, False, every_other_literal)
        result = [row("", build_latticecast(SIZE, False, every_other_literal)[1]),
                  row("peak memory", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "MB")]
    """, quick_size=100_000),
    Measure("implicit-cast alone on the literal chain", 100_000, """
        from targets import LITERAL_CHAIN_DTYPES, chain
        from latticecast import DType, Graph, TensorType
        from latticecast.passes import ImplicitCastOptions, run_implicit_cast
        g = Graph("chain", input_types=[TensorType(DType(d), (8,)) for d in LITERAL_CHAIN_DTYPES], policy="jax")
        with g:
            g.output(chain(g.inputs, SIZE, True))
        op = g._module.operation.clone()  # as built, before the pass
        t0 = time.perf_counter()
        run_implicit_cast(op, ImplicitCastOptions(policy="jax"))
        result = [row("", time.perf_counter() - t0)]
    """, quick_size=10_000),
    Measure("implicit-cast + print, one converted input per op", 100_000, """
        from targets import inputs_graph
        def converted_inputs(n):
            g = inputs_graph(n)
            t0 = time.perf_counter()
            g.mlir()
            return time.perf_counter() - t0
        converted_inputs(100)
        result = [row(f"{SIZE // 10:,} inputs", converted_inputs(SIZE // 10)),
                  row(f"{SIZE:,} inputs", converted_inputs(SIZE))]
    """, quick_size=10_000, per=""),
    Measure("audit of a lattice table", 1_000, """
        from latticecast import PromotionTable, audit
        cells = [(i // 40, i % 40) for i in range(SIZE)]  # a product of two chains: a lattice
        table = PromotionTable.from_function(cells, None, lambda a, b: (max(a[0], b[0]), max(a[1], b[1])),
                                             name="grid")
        t0 = time.perf_counter()
        audit(table)
        result = [row("", time.perf_counter() - t0)]
    """, quick_size=500, per="types"),
    Measure("round trip NumPy -> result, small program, per call", 2_000, """
        import numpy as np
        from bench_runtime import SMALL_PROGRAM, per_call_us
        from latticecast.runtime import compile
        model = compile(SMALL_PROGRAM)
        x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
        per_call_us(lambda: model(x, y), 200)
        result = [row("", per_call_us(lambda: model(x, y), SIZE) * 1e-6)]
    """, quick_size=2_000, per="calls"),
    Measure("JAX's transformer: latticecast-opt --implicit-cast, in process", 32, """
        from latticecast.cli.opt import main
        args = [JAX_MODULE, "--implicit-cast", "-o", JAX_MODULE + ".out"]
        if main(args) != 0:
            raise SystemExit("latticecast-opt failed on this tree: nothing is measured")
        t0 = time.perf_counter()
        main(args)
        result = [row("", time.perf_counter() - t0)]  # parse + pass + print
    """, quick_size=3, per="layers"),
    Measure("JAX's transformer: latticecast compare --from jax-x32 --vs torch, in process", 32, """
        from latticecast.cli.main import main
        args = ["compare", JAX_MODULE, "--from", "jax-x32", "--vs", "torch", "-o", JAX_MODULE + ".report"]
        if main(args) != 0:  # a tree without compare --from (before lift): its usage error is not a time
            raise SystemExit("latticecast compare --from failed on this tree: nothing is measured")
        t0 = time.perf_counter()
        main(args)
        result = [row("", time.perf_counter() - t0)]  # parse, lift, compare, the report
    """, per="layers"),
    Measure("sharded, per call, 4x2 mesh of 8 CPU devices", 100, """
        from bench_runtime import per_call_us
        from bench_sharded import layer
        _, model, arrays, placed = layer()
        numpy_call = lambda: model(*arrays)
        arrays_call = lambda: model(*placed, return_arrays=True)[0].block_until_ready()
        per_call_us(numpy_call, 20), per_call_us(arrays_call, 20)
        result = [row("NumPy in and out", per_call_us(numpy_call, SIZE) * 1e-6),
                  row("jax.Arrays in place, return_arrays=True", per_call_us(arrays_call, SIZE) * 1e-6)]
    """, env=(("XLA_FLAGS", "--xla_force_host_platform_device_count=8"),), per="calls"),
    Measure("latticecast-opt start-up, a process", 1, """
        import tempfile
        from bench_startup import SMALL_PROGRAM, _seconds, commands
        small = Path(tempfile.mkdtemp(), "small.mlir")
        small.write_text(SMALL_PROGRAM)
        timed = commands(small)
        for c in timed:  # the disk cache of the imports
            _seconds(c.args, None)
        result = [row(c.name.removeprefix("latticecast-opt "), _seconds(c.args, None)) for c in timed]
    """, quick_size=1, per=""),
)
"""Every measure: latticecast's side of each row of ``dev.py bench`` (MAX's row compares MAX with the
literal chain, measured here), and the binding floor as a control. ``JAX_MODULE`` is the module JAX
writes for the transformer of ``bench_jax_module.py`` with the layers of the largest size asked for,
written once for both trees."""


# -- the decision ----------------------------------------------------------------------------------


def spread(samples: Sequence[float]) -> float:
    """``(max - min) / median`` of repeats of one measurement: how far it differs from itself.

    Args:
        samples: at least one positive value.

    Returns:
        The relative spread, 0 for one sample.

    Example:
        >>> round(spread([1.0, 1.1, 0.9]), 3)
        0.2
    """
    return (max(samples) - min(samples)) / statistics.median(samples)


@dataclass(frozen=True)
class Verdict:
    """After against before for one row: the ratios of the medians and of the fastest samples, and the
    noise band they are judged in."""

    ratio: float
    fastest: float
    band: float

    @property
    def slower(self) -> bool:
        """Slower by more than the noise, typical and fastest samples alike: the guard's failure."""
        return min(self.ratio, self.fastest) > 1 + self.band

    @property
    def faster(self) -> bool:
        return max(self.ratio, self.fastest) < 1 - self.band

    @property
    def word(self) -> str:
        return "SLOWER" if self.slower else "faster" if self.faster else "within noise"


def judge(before: Sequence[float], after: Sequence[float]) -> Verdict:
    """Whether ``after`` is slower than ``before`` by more than the noise of their repeats.

    The ratios are ``median(after) / median(before)`` and ``min(after) / min(before)`` (the
    fastest samples: other load on the machine only adds time); the noise band is the larger
    :func:`spread` of the two trees' own repeats (the same code, measured several times in
    the same run, differs from itself by that much), at least ``MIN_BAND``. Slower: both ratios
    above 1 + band, so that neither one disturbed sample nor a busy spell that hits one tree's
    median decides it.

    Args:
        before: the base revision's repeats (at least ``MIN_ROUNDS``), each a cost (seconds, MB).
        after: the later revision's repeats, as many.

    Returns:
        The verdict.

    Raises:
        ValueError: fewer than ``MIN_ROUNDS`` repeats on a side: no spread to judge by.

    Example:
        >>> judge([1.0, 1.02, 0.98], [1.5, 1.52, 1.49]).slower
        True
        >>> judge([1.0, 1.3, 0.8], [1.2, 1.25, 1.1]).word
        'within noise'
        >>> judge([1.0, 1.0, 1.2], [1.0, 1.5, 1.5]).word  # the medians differ by more than the band, the fastest do not
        'within noise'
    """
    if min(len(before), len(after)) < MIN_ROUNDS:
        raise ValueError(f"a noise band needs at least {MIN_ROUNDS} repeats per side, got {len(before)} and "
                         f"{len(after)}")
    return Verdict(statistics.median(after) / statistics.median(before), min(after) / min(before),
                   max(spread(before), spread(after), MIN_BAND))


# -- the trees ---------------------------------------------------------------------------------------


def git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``git -C cwd ARGS`` (output captured).

    Raises:
        BenchError: git is not installed.
    """
    if shutil.which("git") is None:
        raise BenchError("git is not on PATH: comparing revisions checks them out with git worktree; install git "
                         "(apt-get install git) or run the plain table: python3 dev.py bench")
    return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True)


def resolve(rev: str) -> str:
    """The commit ``rev`` names in this repository.

    Raises:
        BenchError: ``rev`` names no commit, or this is not a git checkout.
    """
    if git("rev-parse", "--git-dir").returncode:
        raise BenchError(f"{ROOT} is not a git checkout, so it has no revisions to compare; run from a clone")
    proc = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if proc.returncode or not rev:
        raise BenchError(f"{rev!r} is not a commit of {ROOT}; pass a branch, tag or commit "
                         f"(git log --oneline lists them)")
    return proc.stdout.strip()


@contextlib.contextmanager
def checkout(rev: str | None) -> Iterator[Path]:
    """The ``src`` directory of revision ``rev`` (a temporary worktree, removed on exit, an error or an
    interrupt included); ``None``: this checkout's own ``src``. Either way its bytecode is compiled
    first, as ``pip install`` compiles it: where ``PYTHONDONTWRITEBYTECODE`` is set, a tree that was
    never compiled would compile every changed module again in every sample (tens of milliseconds of
    a start-up).

    Raises:
        BenchError: ``rev`` names no commit, or git cannot add the worktree.
    """
    if rev is None:
        compile_bytecode(ROOT / "src")
        yield ROOT / "src"
        return
    commit = resolve(rev)
    with tempfile.TemporaryDirectory(prefix="latticecast-before-after-") as tmp:
        tree = Path(tmp, commit[:12])
        added = git("worktree", "add", "--detach", "--quiet", str(tree), commit)
        if added.returncode:
            raise BenchError(f"git could not check out {rev} into {tree}: {added.stderr.strip()}")
        try:
            compile_bytecode(tree / "src")
            yield tree / "src"
        finally:
            if git("worktree", "remove", "--force", str(tree)).returncode:
                shutil.rmtree(tree, ignore_errors=True)
                git("worktree", "prune")


def compile_bytecode(src: Path) -> None:
    """Compile every module under ``src`` to bytecode, as ``pip install`` does (``compileall``)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], stdout=subprocess.DEVNULL, check=False)


def describe(rev: str | None, src: Path) -> str:
    """One line that says which code a side runs: the commit its tree is at and the module imported.

    Raises:
        BenchError: ``import latticecast`` with ``src`` first on the path imports another tree's.
    """
    proc = subprocess.run([sys.executable, "-c", "import latticecast; print(latticecast.__file__)"],
                          capture_output=True, text=True, env=child_env(src, ()))
    found = proc.stdout.strip()
    if proc.returncode or Path(found).resolve().parent.parent != src.resolve():
        problem = f"it imports {found}" if found else (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"{rev or 'this working tree'} has no importable latticecast under {src} ({problem}); "
                         f"compare revisions that have src/latticecast")
    head = git("rev-parse", "HEAD", cwd=src.parent).stdout.strip()
    if rev is None:
        dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
        what = f"this working tree, HEAD {head[:10]}" + (" with uncommitted changes" if dirty else "")
    else:
        what = f"{rev} = {head[:10]} (a clean checkout)"
    return f"{what}; latticecast from {found}"


# -- the measurements --------------------------------------------------------------------------------


@dataclass
class Comparison:
    """A measure's rows, each with its samples on both trees, or why the measure could not be made."""

    measure: Measure
    rows: dict[str, tuple[str, list[float], list[float]]] = field(default_factory=dict)
    """Row name -> (unit, before samples, after samples)."""
    failed: str = ""


class MeasureFailed(Exception):
    """A sample's process failed; the message is its last line of error output."""


def child_env(src: Path, extra: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """The environment of a sample's process: ``src`` first on ``PYTHONPATH``."""
    path = os.pathsep.join([str(src)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))
    return dict(os.environ, PYTHONPATH=path, TF_CPP_MIN_LOG_LEVEL="3", **dict(extra))


def run(measure: Measure, src: Path, size: int, jax_module: Path) -> list[tuple[str, float, str]]:
    """One sample of ``measure`` in a fresh process that imports latticecast from ``src``.

    Raises:
        MeasureFailed: the process failed, or imported latticecast from elsewhere than ``src``.
    """
    program = textwrap.dedent(f"""
        import json, sys, time
        from pathlib import Path
        sys.path.insert(0, {str(HERE)!r})
        import latticecast
        if Path(latticecast.__file__).resolve().parent.parent != Path({str(src)!r}).resolve():
            sys.exit(f"latticecast was imported from {{latticecast.__file__}}, not from {str(src)!r}")
        SIZE = {size}
        JAX_MODULE = {str(jax_module)!r}
        def row(name, value, unit="s"):
            return [name, value, unit]
    """) + textwrap.dedent(measure.code) + "\nprint(json.dumps(result))\n"
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=child_env(src, measure.env))
    if proc.returncode:
        lines = proc.stderr.strip().splitlines()
        raise MeasureFailed(lines[-1] if lines else f"exit status {proc.returncode}")
    return [(str(n), float(v), str(u)) for n, v, u in json.loads(proc.stdout.strip().splitlines()[-1])]


def compare(before: Path, after: Path, measures: Sequence[Measure], rounds: int, scale: float,
            jax_module: Path, quick: bool = False) -> Iterator[Comparison]:
    """Each measure's samples on both trees, ``rounds`` each, alternating which runs first; a measure
    whose process fails on either tree is given up with the reason (``Comparison.failed``)."""
    for measure in measures:
        c = Comparison(measure)
        try:
            for i in range(rounds):
                for src in ((before, after) if i % 2 == 0 else (after, before)):
                    for name, value, unit in run(measure, src, measure.sized(scale, quick), jax_module):
                        _, before_samples, after_samples = c.rows.setdefault(name, (unit, [], []))
                        (before_samples if src == before else after_samples).append(value)
        except MeasureFailed as e:
            c.failed = f"failed on {'the base' if src == before else 'the later'} tree ({src}): {e}"
        yield c


def show(value: float, unit: str) -> str:
    """A value for the table: seconds in s, ms or us; others as they are."""
    if unit != "s":
        return f"{value:.0f} {unit}"
    for scale, name in ((1, "s"), (1e-3, "ms"), (1e-6, "us")):
        if value >= scale or name == "us":
            return f"{value / scale:.3g} {name}"
    raise AssertionError


def table(rows: Sequence[tuple[str, str, list[float], list[float]]]) -> Iterator[str]:
    """Lines of the table: name, both medians with their repeats' min-max, ratio, band and word."""
    yield (f"{'row':90s} {'before: median (min-max)':>30s} {'after: median (min-max)':>30s} "
           f"{'after/before':>12s} {'fastest':>8s} {'noise':>6s}  verdict")
    for name, unit, before, after in rows:
        v = judge(before, after)
        sides = [f"{show(statistics.median(s), unit)} ({show(min(s), unit)}-{show(max(s), unit)})"
                 for s in (before, after)]
        yield (f"{name[:90]:90s} {sides[0]:>30s} {sides[1]:>30s} {v.ratio:11.2f}x {v.fastest:7.2f}x "
               f"{v.band:5.0%}  {v.word}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    prog = "before_after.py"
    if "--prog" in argv:  # dev.py's name for itself in messages
        at = argv.index("--prog")
        prog = " ".join(argv[at + 1:at + 2]) or prog
        del argv[at:at + 2]
    ap = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", metavar="BASE_REV", help="the revision before (a branch, tag or commit)")
    ap.add_argument("head", metavar="HEAD_REV", nargs="?", help="the revision after (default: this working tree)")
    ap.add_argument("--rounds", type=int, default=None, help=f"repeats per tree (default 5, at least {MIN_ROUNDS})")
    ap.add_argument("--quick", action="store_true", help="the quick subset at smaller sizes")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every program's size (default 1)")
    ap.add_argument("--only", default="", help="only the measures whose name contains this text")
    args = ap.parse_args(argv)
    rounds = args.rounds if args.rounds is not None else 5
    if rounds < MIN_ROUNDS:
        ap.error(f"--rounds must be at least {MIN_ROUNDS}: the noise band is measured from the repeats")
    if not args.scale > 0:
        ap.error("--scale must be above 0")
    measures = [m for m in MEASURES if args.only.lower() in m.name.lower() and (m.quick_size or not args.quick)]
    if not measures:
        ap.error(f"--only {args.only!r} matches no measure{' of --quick' if args.quick else ''}; the measures are: "
                 f"{'; '.join(m.name for m in MEASURES)}")
    try:
        return compare_trees(args.base, args.head, measures, rounds, args.scale, args.quick)
    except BenchError as e:
        print(f"{prog}: error: {e.message}", file=sys.stderr)
        return 2


def compare_trees(base: str, head: str | None, measures: Sequence[Measure], rounds: int, scale: float,
                  quick: bool) -> int:
    """Check out both trees, measure, print the table; the exit status (see the module's docstring)."""
    import importlib.metadata

    import jax

    with checkout(base) as before, checkout(head) as after, tempfile.TemporaryDirectory() as tmp:
        sides = describe(base, before), describe(head, after)
        layers = max((m.sized(scale, quick) for m in measures if m.per == "layers"), default=0)
        jax_module = Path(tmp, "step.mlir")
        if layers:
            write_jax_module(jax_module, layers)
        left_out = [m.name for m in MEASURES if quick and not m.quick_size]
        print(f"before: {sides[0]}\nafter:  {sides[1]}\n"
              f"stack: Python {sys.version.split()[0]}, jax {jax.__version__}, "
              f"jaxlib {importlib.metadata.version('jaxlib')}; "
              f"{rounds} rounds, the trees alternating, each sample a fresh process"
              + (f"; --quick (left out: {'; '.join(left_out)})" if left_out else "")
              + (f"; sizes x{scale:g}" if scale != 1 else ""), flush=True)
        slower: list[str] = []
        failed: list[str] = []
        print(next(table([])), flush=True)
        for c in compare(before, after, measures, rounds, scale, jax_module, quick):
            title = c.measure.name + (f" ({c.measure.sized(scale, quick):,} {c.measure.per})" if c.measure.per else "")
            if c.failed:
                failed.append(f"{c.measure.name}: {c.failed}")
                print(f"{title}: {c.failed}", flush=True)
                continue
            rows = [(f"{title}{': ' + name if name else ''}", unit, b, a) for name, (unit, b, a) in c.rows.items()]
            for line, (name, _, b, a) in zip(list(table(rows))[1:], rows):
                print(line, flush=True)
                if judge(b, a).slower and not c.measure.control:
                    slower.append(name)
    if failed:
        print(f"\nnot compared ({len(failed)}): " + "; ".join(failed) + "\nthe benchmark code is this tree's: where "
              "the base lacks what it calls, leave that measure out with --only, or compare a later base",
              file=sys.stderr)
        return 2
    if slower:
        print(f"\nslower than the base beyond the noise ({len(slower)}): " + "; ".join(slower), file=sys.stderr)
        return 1
    print("\nno row slower than the base beyond its noise band")
    return 0


def write_jax_module(path: Path, layers: int) -> None:
    """The StableHLO JAX writes for the transformer step of ``bench_jax_module.py``."""
    import jax
    import numpy as np

    sys.path.insert(0, str(HERE))
    from bench_jax_module import D, T, make_step, parameters

    path.write_text(jax.jit(make_step()).lower(  # type: ignore[no-untyped-call]  # bench_jax_module is untyped
        parameters(layers), np.ones((T, D), np.float32)).as_text())


if __name__ == "__main__":
    sys.exit(main())
