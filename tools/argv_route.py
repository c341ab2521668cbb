"""The route a ``latticecast-opt`` command line takes through latticecast's modules, counted.

Issue 27 asked for it before and after the pass runner: the stops a command line makes from the tool's
entry point to the PassManager's run. A *stop* is a call of a latticecast function that is handed the
command line in some form: the ``argv`` list, a pass flag, pipeline text, the configuration, a parsed
pipeline or one of its elements, or the runner built from it (a dataclass's generated methods are not
stops, and a function called again right after itself, once per element, is one stop). The tool runs ``latticecast-opt`` in this
process under :func:`sys.setprofile`, records each such call in order until the first latticecast pass
runs, and prints the stops, the modules they are in, and how many stops return to a module the route
had already left.

    python tools/argv_route.py                    # the tree this file is in
    PYTHONPATH=OTHER/src python tools/argv_route.py --tree OTHER/src   # another checkout's tree
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

SMALL = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
ARGV = ["--implicit-cast", "--policy", "max", "--canonicalize", "--cse"]
"""The command line traced (after the input file): a pass with global options, then two MLIR passes."""

_CARRIERS = ("PassFlag", "OptConfig", "Pipeline", "PipelineElement", "MLIRPass", "PipelineRunner",
             "ImplicitCastOptions", "LatticecastPassManager")
"""The classes that hold the command line once it has been read."""


class _Stop(Exception):
    pass


def _carries(value: object, argv: list[str]) -> bool:
    """Whether ``value`` is the command line in some form."""
    if value is argv:
        return True
    if isinstance(value, str):
        return "implicit-cast" in value or "builtin.module" in value
    if isinstance(value, (list, tuple)) and value and len(value) < 64:
        return any(_carries(v, argv) for v in value)
    return type(value).__name__ in _CARRIERS


def trace(tree: Path) -> list[tuple[str, str]]:
    """The stops ``latticecast-opt IN ARGV`` makes in the latticecast package under ``tree``: (module, function)."""
    sys.path.insert(0, str(tree))
    from latticecast.cli import opt  # noqa: PLC0415 - from the tree asked for

    assert Path(opt.__file__).resolve().is_relative_to(tree.resolve()), opt.__file__
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "in.mlir"
        path.write_text(SMALL)
        argv = [str(path), *ARGV]
        stops: list[tuple[str, str]] = []

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            if event != "call":
                return
            module = frame.f_globals.get("__name__", "")
            if not module.startswith("latticecast"):
                return
            if frame.f_code.co_name in ("__call__", "run") and module.startswith("latticecast.passes.implicit_cast"):
                raise _Stop  # the first latticecast pass runs: the route has arrived
            if frame.f_code.co_qualname.startswith("__create_fn__"):
                return  # a dataclass's generated __init__/__eq__: storing the fields is not a stop
            names = frame.f_code.co_varnames[:frame.f_code.co_argcount + frame.f_code.co_kwonlyargcount]
            stop = (module, frame.f_code.co_qualname)
            if any(_carries(frame.f_locals.get(n), argv) for n in names) and (not stops or stops[-1] != stop):
                stops.append(stop)  # a function called again right away (per element) is one stop

        devnull = open(os.devnull, "w")
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = devnull
        sys.setprofile(profile)
        try:
            opt.main(argv)
        except _Stop:
            pass
        finally:
            sys.setprofile(None)
            sys.stdout, sys.stderr = saved
            devnull.close()
    return stops


def summary(stops: list[tuple[str, str]]) -> tuple[int, int, int]:
    """(stops, modules, returns): a return is a stop in a module the route had been in and left."""
    left: set[str] = set()
    returns = 0
    previous = None
    for module, _ in stops:
        if previous is not None and module != previous:
            left.add(previous)
            if module in left:
                returns += 1
        previous = module
    return len(stops), len({m for m, _ in stops}), returns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="the src directory whose latticecast is traced (default: this checkout's)")
    args = parser.parse_args()
    stops = trace(args.tree)
    for module, function in stops:
        print(f"  {module}: {function}")
    n, modules, returns = summary(stops)
    print(f"latticecast-opt IN {' '.join(ARGV)}: {n} stops in {modules} modules, {returns} of them returns to a "
          f"module already visited")
    return 0


if __name__ == "__main__":
    sys.exit(main())
