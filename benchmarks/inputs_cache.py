"""Why the many-inputs row of ``targets.py`` grows faster than its work: instructions and cache misses
of ``g.mlir()`` (implicit-cast, the verifier, the print) on graphs of N and 10N converted inputs,
counted by valgrind's callgrind with its cache simulator.

    python benchmarks/inputs_cache.py [--small 10000] [--large 100000]

Each size runs twice under callgrind, once building the graph only and once building it and calling
``g.mlir()``; the difference is ``g.mlir()``'s. The table gives each count per input at both sizes and
its growth. Linear work grows by exactly large / small; a count that grows faster shows where the time
goes beyond the work. Under callgrind everything runs about 50 times slower: the default sizes take
about 25 minutes on two cores (the four runs go two at a time). Needs ``valgrind`` on ``PATH``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PROGRAM = """\
import sys
sys.path.insert(0, {here!r})
from targets import inputs_graph
g = inputs_graph(int(sys.argv[2]))
if sys.argv[1] == "mlir":
    g.mlir()
"""

EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
"""callgrind's counts with ``--cache-sim=yes``, in the order its summary line gives them."""
SHOWN = {"Ir": "instructions", "D1mr": "L1 data read misses", "DLmr": "last-level data read misses",
         "DLmw": "last-level data write misses"}


def counts(program: Path, mode: str, n: int) -> dict[str, int]:
    """callgrind's event counts for one run of ``program`` (``mode``: ``build`` or ``mlir``) at size ``n``."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", "--callgrind-out-file=/dev/null",
                           sys.executable, str(program), mode, str(n)], capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    found = re.search(r"Collected : ([\d ]+)", proc.stderr)
    if proc.returncode or found is None:
        raise SystemExit(f"callgrind failed on {mode} {n}:\n{proc.stderr[-2000:]}")
    return dict(zip(EVENTS, map(int, found.group(1).split())))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--large", type=int, default=100_000)
    args = ap.parse_args(argv)
    if not 0 < args.small < args.large:
        ap.error("--small must be positive and below --large")
    if shutil.which("valgrind") is None:
        print("valgrind is not on PATH: install it (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp, "inputs.py")
        program.write_text(PROGRAM.format(here=str(Path(__file__).resolve().parent)))
        runs = [(mode, n) for n in (args.small, args.large) for mode in ("build", "mlir")]
        with ThreadPoolExecutor(2) as pool:
            results = dict(zip(runs, pool.map(lambda r: counts(program, *r), runs)))
    growth = args.large / args.small
    print(f"g.mlir() on {args.small:,} and {args.large:,} converted inputs (build-only runs subtracted); "
          f"linear work grows {growth:g}x")
    print(f"{'count':32s} {'per input, ' + format(args.small, ','):>20s} {'per input, ' + format(args.large, ','):>20s}"
          f" {'growth':>8s}")
    for event, name in SHOWN.items():
        small = results[("mlir", args.small)][event] - results[("build", args.small)][event]
        large = results[("mlir", args.large)][event] - results[("build", args.large)][event]
        print(f"{name:32s} {small / args.small:20.1f} {large / args.large:20.1f} {large / small:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
