"""Instructions per op of the chain rows' parts and of the JAX module's passes, counted by callgrind:
the guard for a change smaller than this machine's noise.

    python3 benchmarks/instructions.py                      # this working tree
    python3 benchmarks/instructions.py --against main       # main against this working tree
    python3 benchmarks/instructions.py --against HEAD~1 --ops 2000

Wall time on the project's shared machines moves by 10-70% between runs of the same code
(``dev.py bench --against`` measures that band and judges only beyond it), so a change of a few
percent on the builder's or the pass's hot path cannot be seen there. The count of instructions
a program executes does not move: run under valgrind's callgrind with address-space
randomisation off (``setarch -R``), a fixed ``PYTHONHASHSEED``, one BLAS thread and Python's
garbage collector off, the same code executes the same count, run after run (each tree is
measured twice, and the two counts must agree).

The parts, each per op of the 10,000-op chain of ``targets.py`` (the plain chain and the literal
one): the build (the graph builder), in a process of its own; and, in another, ``implicit-cast``
beside a control that runs no latticecast code (``binding_floor.read_walk``, a walk reading what
the pass reads), each on the module as built, parsed from text that this tree's builder wrote, so
that the pass meets the same module, and the same heap, in both trees. And, in a third process, the
JAX module of ``dev.py bench``'s module rows (``bench_jax_module.py``'s training step, written by
JAX at two layer counts, :data:`MODULE_LAYERS`): the control walk; ``implicit-cast`` on the module
as JAX wrote it (a legal module: a walk that decides nothing, which the chains never show); then
``lift-implicit-casts`` under ``jax-x32`` and ``compare`` with ``torch`` (the work of ``latticecast
compare --from``), each per op of the module. And, in a fourth, the control and ``implicit-cast`` on the
many-inputs graph (``targets.inputs_graph``, as built by this tree), per input: the pass's convert path,
one convert made per input, which the chains hardly take. Each part runs at two sizes in its process,
after a warm-up of every part, and its count per op is the difference over the difference of the
sizes, so what a part costs once (a lazy import, a first plan) cancels out.
``time.sleep(0)`` marks the phases: callgrind dumps its counters before each call
(``--dump-before=time_sleep``).

With ``--against REF``, REF is checked out into a temporary worktree (``before_after.py``'s) and
both trees are counted. The control says how far the same code's count moves between the two trees
(the heap's layout moves the hash tables of the bindings; a few tenths of a percent): a part is
*slower* when its count grows by more than that, or by more than ``--tolerance`` (default 0.5%)
if that is larger, and the exit status is then 1 (2 when a count could not be made). Under
callgrind everything runs about 50 times slower: a tree takes about four minutes at the default
size. Needs ``valgrind`` and ``setarch`` on ``PATH``; counts are of one stack (Python and jaxlib):
compare trees on the same one.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

import before_after  # its worktree and environment helpers

HERE = Path(__file__).resolve().parent

PARTS = {"build": ("build",), "pass": ("read walk (control)", "implicit-cast"),
         "module": ("read walk (control)", "implicit-cast", "lift", "compare")}
"""The parts each kind of process counts, in the order it runs them at each size. The control runs no
latticecast code (a walk of the benchmark's own): its count moves only with the stack and the heap
the process has, and is never judged."""
CHAINS = ("plain", "literal")
MODULE = "JAX module"
"""The name of the JAX module's rows (the chains' are ``plain chain: ...`` and ``literal chain: ...``)."""
INPUTS = "many inputs"
"""The name of the rows of ``targets.inputs_graph`` (an int8 input converted per add): the pass's convert
path, which the chains, whose few inputs are converted once each, hardly take; counted per input."""
MODULE_LAYERS = (1, 2, 6)
"""The JAX module's layer counts: the warm-up's, then the two sizes counted (about 1,800 ops a layer)."""

PROGRAM = """\
import gc, sys, time
gc.disable()
sys.path.insert(0, {here!r})
import binding_floor
from targets import LITERAL_CHAIN_DTYPES, chain, inputs_graph
import latticecast
from latticecast import DType, Graph, TensorType
from latticecast.dialect_utils.context import make_context
from latticecast.dialect_utils.parsing import parse_module
from latticecast.passes import ImplicitCastOptions, LiftOptions, run_implicit_cast, run_lift
from latticecast.passes.infer_types import compare
if not latticecast.__file__.startswith({src!r}):
    sys.exit(f"latticecast was imported from {{latticecast.__file__}}, not from {src!r}")
literal, kind, sizes, texts = {literal!r}, {kind!r}, {sizes!r}, {texts!r}
options = ImplicitCastOptions(policy="jax")
context = make_context(lenient=True)

def build(n):
    g = Graph("chain", input_types=[TensorType(DType(d), (8,)) for d in LITERAL_CHAIN_DTYPES], policy="jax")
    with g:
        g.output(chain(g.inputs, n, literal))
    return g

def parsed(i):
    return parse_module(open(texts[i]).read(), context, lenient=True).operation

def parts(i, mark):
    if kind == "module":
        walked, legal, lifted = parsed(i), parsed(i), parsed(i)
        source, target = latticecast.policy("jax-x32"), latticecast.policy("torch")
        mark()
        binding_floor.read_walk(walked)
        mark()
        run_implicit_cast(legal, options)
        mark()
        result = run_lift(lifted, LiftOptions(policy=source))
        mark()
        compare(result.program, source, target)
        mark()
        return
    if kind == "build":
        mark()
        build(sizes[i])
        mark()
        return
    walked, module = parsed(i), parsed(i)  # read from the same text in both trees: the same heap before
    mark()
    binding_floor.read_walk(walked)
    mark()
    run_implicit_cast(module, options)
    mark()

if kind == "text":  # the modules as built, in the generic form, for the pass's processes
    for n, path in zip(sizes, texts):
        open(path, "w").write(build(n).mlir(before_passes=True))
    sys.exit()
if kind == "inputs-text":  # the many-inputs graph as built, the same way
    for n, path in zip(sizes, texts):
        open(path, "w").write(inputs_graph(n).mlir(before_passes=True))
    sys.exit()
if kind == "module-text":  # JAX's module at each layer count, and how many ops each has
    from bench_lift import module_text
    from jaxlib.mlir import ir
    for n, path in zip(sizes, texts):
        open(path, "w").write(module_text(n))
    for i, path in enumerate(texts):
        ops = [0]
        def count(op):
            ops[0] += 1
            return ir.WalkResult.ADVANCE
        parsed(i).walk(count)
        open(path + ".ops", "w").write(str(ops[0]))
    sys.exit()
parts(0, lambda: None)  # the warm-up: lazy imports, the first plans
for i in (1, 2):
    parts(i, lambda: time.sleep(0))
"""

WARM_UP = 64
"""The ops of the chain each process runs first, uncounted."""


class CountError(Exception):
    """callgrind could not count a program; the message says why."""


def _program(tmp: Path, src: Path, kind: str, literal: bool, sizes: tuple[int, int],
             texts: Sequence[str]) -> Path:
    program = Path(tmp, f"{kind}.py")
    warm_up = MODULE_LAYERS[0] if kind.startswith("module") else WARM_UP
    program.write_text(PROGRAM.format(here=str(HERE), src=str(src), literal=literal, kind=kind,
                                      sizes=(warm_up, *sizes), texts=list(texts)))
    return program


DETERMINISTIC = (("PYTHONHASHSEED", "0"), ("OPENBLAS_NUM_THREADS", "1"), ("OMP_NUM_THREADS", "1"))
"""The environment that makes a count repeat (with ``setarch -R`` and the collector off): a fixed hash seed,
and no BLAS thread spinning beside the program."""


def _env(src: Path) -> dict[str, str]:
    return before_after.child_env(src, DETERMINISTIC)  # src first on PYTHONPATH


def write_texts(src: Path, literal: bool, sizes: tuple[int, int], texts: Sequence[str], module: bool = False,
                inputs: bool = False) -> None:
    """The chain at the warm-up size and at ``sizes``, as built (generic form), into ``texts``; with
    ``module``, JAX's module at the warm-up's layer count and at ``sizes`` layers, each with its count
    of ops beside it (``path.ops``); with ``inputs``, the many-inputs graph at those numbers of inputs.

    Raises:
        CountError: the program failed.
    """
    kind = "module-text" if module else "inputs-text" if inputs else "text"
    with tempfile.TemporaryDirectory(prefix="latticecast-instructions-") as tmp:
        proc = subprocess.run([sys.executable, str(_program(Path(tmp), src, kind, literal, sizes, texts))],
                              capture_output=True, text=True, env=_env(src))
    if proc.returncode:
        what = "JAX's module could not be written" if module else \
            "the many-inputs graph could not be built" if inputs else "the chain could not be built"
        raise CountError(f"{what}: {(proc.stderr.strip().splitlines() or ['no output'])[-1]}")


def counts(src: Path, kind: str, literal: bool, sizes: tuple[int, int], texts: Sequence[str]) -> dict[str, float]:
    """Instructions per op of each part of ``PARTS[kind]`` for one chain, latticecast imported from ``src``.

    Raises:
        CountError: valgrind failed, or wrote fewer dumps than the program has phases.
    """
    with tempfile.TemporaryDirectory(prefix="latticecast-instructions-") as tmp:
        out = Path(tmp, "cg.out")
        proc = subprocess.run(["setarch", "-R", "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                               "--dump-before=time_sleep", sys.executable,
                               str(_program(Path(tmp), src, kind, literal, sizes, texts))],
                              capture_output=True, text=True, env=_env(src))
        if proc.returncode:
            lines = [line for line in proc.stderr.splitlines() if not line.startswith("==")]
            raise CountError(f"the program failed under callgrind: {(lines or ['no output'])[-1]}")
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = [_total(p) for p in dumps]
    # the dumps, per size: what came before its first mark, then the part before each later mark
    names = PARTS[kind]
    phases = len(names) + 1
    if len(totals) < 2 * phases:
        raise CountError(f"callgrind wrote {len(totals)} dumps, not {2 * phases}: is time.sleep named "
                         "time_sleep in this Python's symbols?")
    small, large = totals[1:phases], totals[phases + 1:2 * phases]
    # per op: of the chain (its size), or of JAX's module (counted when it was written)
    units = [int(Path(t + ".ops").read_text()) for t in texts[1:]] if kind == "module" else sizes
    ops = units[1] - units[0]
    return {part: (b - a) / ops for part, a, b in zip(names, small, large)}


def _total(dump: Path) -> int:
    found = re.search(r"^(?:summary|totals): (\d+)", dump.read_text(errors="replace"), re.MULTILINE)
    if found is None:
        raise CountError(f"{dump.name} has no totals line")
    return int(found.group(1))


def measure(src: Path, sizes: tuple[int, int], texts: dict[str, list[str]]) -> dict[tuple[str, str], float]:
    """Every (chain, part) count for the tree at ``src``, and every part of JAX's module, each counted
    twice and checked to agree (``texts``: each chain's modules as built, read by the pass's processes,
    and JAX's modules, by :data:`MODULE`).

    Raises:
        CountError: a count failed, or two counts of the same code differ (the method's premise).
    """
    runs = [(chain, kind) for chain in CHAINS for kind in ("build", "pass") for _ in range(2)] + \
        [(MODULE, "module")] * 2 + [(INPUTS, "pass")] * 2

    def count(run: tuple[str, str]) -> dict[str, float]:
        chain, kind = run
        return counts(src, kind, chain == "literal", MODULE_LAYERS[1:] if kind == "module" else sizes, texts[chain])

    with ThreadPoolExecutor(2) as pool:  # the counts do not depend on the load: two at a time
        made = list(pool.map(count, runs))
    out: dict[tuple[str, str], float] = {}
    for (chain, kind), first, second in zip(runs[::2], made[::2], made[1::2]):
        for part in PARTS[kind]:
            a, b = first[part], second[part]
            if abs(a - b) > 0.001 * max(a, b):
                raise CountError(f"two counts of the same code differ ({_name((chain, part))}: {a:.0f} and "
                                 f"{b:.0f} instructions per op): something in the process is not deterministic")
            out[(chain, part)] = min(a, b)
    return out


def table(before: dict[tuple[str, str], float] | None, after: dict[tuple[str, str], float],
          tolerance: float) -> tuple[list[str], list[str]]:
    """The table's lines, and the parts slower than the band: ``tolerance``, or the control's own move
    between the trees if that is larger (the control itself is never judged)."""
    if before is None:
        return [f"{'part':36s} {'instructions/op':>16s}"] + [
            f"{_name(key):36s} {value:16,.0f}" for key, value in after.items()], []
    moved = [abs(after[k] / before[k] - 1) for k in after if "control" in k[1]]
    band = max([tolerance, *moved])
    lines = [f"{'part':36s} {'before':>10s} {'after':>10s} {'after/before':>13s}  verdict (band {band:.1%})"]
    slower = []
    for key, value in after.items():
        name = _name(key)
        ratio = value / before[key]
        verdict = "slower" if ratio > 1 + band else "fewer" if ratio < 1 - band else "the same"
        if "control" in key[1]:
            verdict = "control"
        elif verdict == "slower":
            slower.append(name)
        lines.append(f"{name:36s} {before[key]:10,.0f} {value:10,.0f} {ratio:12.3f}x  {verdict}")
    return lines, slower


def _name(key: tuple[str, str]) -> str:
    """A row's name: ``plain chain: build``, ``JAX module: lift``."""
    return f"{key[0]} chain: {key[1]}" if key[0] in CHAINS else f"{key[0]}: {key[1]}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", metavar="REF", help="the revision to compare this working tree with")
    ap.add_argument("--ops", type=int, default=10_000, help="ops counted per part (default 10,000)")
    ap.add_argument("--tolerance", type=float, default=0.005,
                    help="a part is slower when its count grows by more than this (default 0.005: 0.5%%)")
    args = ap.parse_args(argv)
    if args.ops < 100:
        ap.error("--ops must be at least 100: fewer ops measure the fixed costs, not the per-op ones")
    if not 0 <= args.tolerance < 1:
        ap.error("--tolerance must be at least 0 and below 1")
    missing = [tool for tool in ("valgrind", "setarch") if shutil.which(tool) is None]
    if missing:
        print(f"{' and '.join(missing)} not on PATH: install {'them' if len(missing) > 1 else 'it'} "
              "(Debian: apt install valgrind util-linux)", file=sys.stderr)
        return 2
    sizes = (args.ops // 10, args.ops // 10 + args.ops)
    try:
        # REF is checked out first: a revision that does not exist is named before minutes of counting
        with before_after.checkout(None) as here, tempfile.TemporaryDirectory() as tmp, \
                (before_after.checkout(args.against) if args.against else contextlib.nullcontext()) as base:
            if base is not None:
                print(f"before: {before_after.describe(args.against, base)}")
            print(f"after:  {before_after.describe(None, here)}")
            texts = {chain: [str(Path(tmp, f"{chain}-{n}.mlir")) for n in (WARM_UP, *sizes)] for chain in CHAINS}
            for chain in CHAINS:  # built by this tree, read by both: the pass's input is the same
                write_texts(here, chain == "literal", sizes, texts[chain])
            texts[MODULE] = [str(Path(tmp, f"module-{n}.mlir")) for n in MODULE_LAYERS]
            write_texts(here, False, MODULE_LAYERS[1:], texts[MODULE], module=True)
            texts[INPUTS] = [str(Path(tmp, f"inputs-{n}.mlir")) for n in (WARM_UP, *sizes)]
            write_texts(here, False, sizes, texts[INPUTS], inputs=True)
            after = measure(here, sizes, texts)
            before = measure(base, sizes, texts) if base is not None else None
    except (CountError, before_after.BenchError) as e:
        print(f"instructions.py: error: {e}", file=sys.stderr)
        return 2
    print(f"Python {sys.version.split()[0]}; instructions per op, {args.ops:,} ops, callgrind "
          "(deterministic: each count made twice, and equal)")
    lines, slower = table(before, after, args.tolerance)
    print("\n".join(lines))
    if slower:
        print(f"\nmore instructions than the base beyond the band: {'; '.join(slower)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
