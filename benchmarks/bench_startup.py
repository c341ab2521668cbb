"""Start-up of ``latticecast-opt`` against importing jaxlib's MLIR bindings alone.

    python benchmarks/bench_startup.py [--repeats 10] [--ref main]

A lit suite runs ``latticecast-opt`` once per RUN line, so its start-up is most of a lit
test's time. Three commands are timed, each in a fresh process
(``python -m latticecast.cli.opt``, which is what the console script runs):

* ``--version``;
* ``--help``;
* a run on a small file with a mixed-dtype add: ``--implicit-cast --policy jax``;

and each against the floor, ``python -c "import jaxlib.mlir.ir"``: the MLIR bindings every
pass run needs. Every round times each command and a floor run beside it, the order
alternating round by round (the machines are shared and noisy); the table gives the
medians, the difference from the floor's median and the ratio to it, and the budget
(issue 27): ``--version`` and ``--help`` at most the floor + 50 ms, a run at most the
floor + 100 ms.

``--ref REV`` times the same commands on another git revision too (checked out the way
``before_after.py`` does, into a temporary worktree; its ``src`` first on ``PYTHONPATH``),
in the same rounds, and adds a column after/before for each command.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from before_after import checkout, compile_bytecode  # noqa: E402  (one home for checking out a revision)

SMALL_PROGRAM = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

FLOOR = ("import jaxlib.mlir.ir", ["-c", "import jaxlib.mlir.ir"])


@dataclass(frozen=True)
class Command:
    """A ``latticecast-opt`` command line and its budget over the floor, in seconds."""

    name: str
    args: tuple[str, ...]
    budget: float


def commands(small_file: Path) -> tuple[Command, ...]:
    """The three timed commands, ``small_file`` the run's input."""
    opt = ("-m", "latticecast.cli.opt")
    return (Command("latticecast-opt --version", (*opt, "--version"), 0.05),
            Command("latticecast-opt --help", (*opt, "--help"), 0.05),
            Command("latticecast-opt small.mlir --implicit-cast --policy jax",
                    (*opt, str(small_file), "--implicit-cast", "--policy", "jax"), 0.1))


def _seconds(args: list[str] | tuple[str, ...], src: Path | None) -> float:
    """Wall time of ``python ARGS`` in a fresh process (``src`` first on ``PYTHONPATH`` if given)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    return time.perf_counter() - start


def _check_source(src: Path) -> None:
    """Exit unless ``import latticecast`` with ``src`` on ``PYTHONPATH`` imports it from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    found = subprocess.run([sys.executable, "-c", "import latticecast; print(latticecast.__file__)"],
                           capture_output=True, text=True, env=env).stdout.strip()
    if not found or Path(found).resolve().parent.parent != src.resolve():
        raise SystemExit(f"bench_startup.py: latticecast was imported from {found or '(nowhere)'}, not {src}")


def measure(cmds: tuple[Command, ...], trees: dict[str, Path | None], repeats: int
            ) -> tuple[list[float], dict[tuple[str, str], list[float]]]:
    """The floor's samples, and each (tree, command)'s, ``repeats`` rounds of alternating pairs."""
    floor: list[float] = []
    samples: dict[tuple[str, str], list[float]] = {(t, c.name): [] for t in trees for c in cmds}
    for tree, src in trees.items():  # warm the file cache (and any per-build cache the tool keeps)
        for c in cmds:
            _seconds(c.args, src)
    _seconds(FLOOR[1], None)
    for i in range(repeats):
        for tree, src in (trees.items() if i % 2 == 0 else reversed(trees.items())):
            for c in cmds:
                pair = [(samples[(tree, c.name)], c.args, src), (floor, FLOOR[1], None)]
                for into, args, where in (pair if i % 2 == 0 else pair[::-1]):
                    into.append(_seconds(args, where))
    return floor, samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10, help="rounds (default 10)")
    parser.add_argument("--ref", metavar="REV", help="also time this git revision (e.g. main), side by side")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    with tempfile.TemporaryDirectory() as tmp, \
            (checkout(args.ref) if args.ref else contextlib.nullcontext(None)) as before:
        path = Path(tmp) / "small.mlir"
        path.write_text(SMALL_PROGRAM)
        cmds = commands(path)
        compile_bytecode(HERE.parent / "src")  # as pip install does; the revision's is compiled by checkout
        trees: dict[str, Path | None] = {"this tree": None}
        if before is not None:
            _check_source(before)
            trees = {args.ref: before, "this tree": None}
        floor_samples, samples = measure(cmds, trees, args.repeats)
    floor = statistics.median(floor_samples)
    print(f"medians of {args.repeats} rounds, each command beside a floor run, alternating; "
          f"python {sys.version.split()[0]}")
    print(f"{'command':58s} {'tree':>10s} {'median':>8s} {'- floor':>8s} {'/ floor':>8s} {'budget':>8s}"
          + (f" {'after/before':>13s}" if len(trees) > 1 else ""))
    print(f"{'python -c ' + repr(FLOOR[0]):58s} {'':>10s} {floor * 1000:6.0f}ms")
    for c in cmds:
        for tree in trees:
            m = statistics.median(samples[(tree, c.name)])
            verdict = "ok" if m - floor <= c.budget else "OVER"
            line = (f"{c.name:58s} {tree[:10]:>10s} {m * 1000:6.0f}ms {(m - floor) * 1000:+6.0f}ms "
                    f"{m / floor:7.2f}x {f'+{c.budget * 1000:.0f}ms':>6s} {verdict}")
            if len(trees) > 1 and tree == "this tree":
                line += f" {m / statistics.median(samples[(args.ref, c.name)]):11.2f}x"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
