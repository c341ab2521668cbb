"""Start-up of ``latticecast-opt`` against importing jaxlib's MLIR bindings alone.

    python benchmarks/bench_startup.py [--repeats 10]

A lit suite runs ``latticecast-opt`` once per RUN line, so its start-up is most of a lit
test's time. Two commands are timed, alternating, each in a fresh process, and their
medians compared:

* ``latticecast-opt`` on a small file with a mixed-dtype add, running ``--implicit-cast``
  (``python -m latticecast.cli.opt``, which is what the console script runs);
* ``python -c "from jaxlib.mlir import ir"``, the floor: the MLIR bindings every pass run needs.

The ratio is the first median over the second.
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

SMALL_PROGRAM = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def _seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    return time.perf_counter() - start


def measure(repeats: int) -> tuple[float, float]:
    """Median seconds of a ``latticecast-opt`` pass run and of the bare jaxlib import."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "small.mlir"
        path.write_text(SMALL_PROGRAM)
        opt = [sys.executable, "-m", "latticecast.cli.opt", str(path), "--implicit-cast"]
        floor = [sys.executable, "-c", "from jaxlib.mlir import ir"]
        _seconds(opt), _seconds(floor)  # warm the file cache
        opt_times, floor_times = [], []
        for _ in range(repeats):
            opt_times.append(_seconds(opt))
            floor_times.append(_seconds(floor))
    return statistics.median(opt_times), statistics.median(floor_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10, help="runs of each command (default 10)")
    args = parser.parse_args()
    opt, floor = measure(args.repeats)
    print(f"latticecast-opt --implicit-cast (small file): {opt * 1000:7.0f} ms  (median of {args.repeats})")
    print(f"python -c 'from jaxlib.mlir import ir':       {floor * 1000:7.0f} ms")
    print(f"start-up ratio:                                {opt / floor:7.2f}x")


if __name__ == "__main__":
    main()
