"""``latticecast-opt`` loads only what a pass run needs, so that a lit suite's RUN lines start fast.

A pass run needs jaxlib's MLIR bindings, the pass and its policy; it does not need jax, the
runtime, the graph builder, the ``latticecast`` command's subcommands, or the generated Python op
classes of the StableHLO dialects. (``latticecast.audit`` is imported with the package: it is a few
milliseconds, and a lazy ``lc.audit`` would be shadowed by the submodule of the same name.) Each check runs in a fresh interpreter, since this
test process has imported everything already. (NumPy is loaded by ``jaxlib.mlir.ir`` itself.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

NOT_NEEDED = ("jax", "latticecast.runtime", "latticecast.graph", "latticecast.cli.table_cmd",
              "latticecast.evidence", "latticecast.cli.lattice_cmd", "latticecast.cli.compare_cmd", "jaxlib.mlir.dialects._stablehlo_ops_gen", "jaxlib.mlir.dialects._chlo_ops_gen")
"""Not Shardy's op classes: from jaxlib 0.12 on, its native library imports them itself."""

PROGRAM = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
COMPARE = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>}
      : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
"""

RUN_AND_LIST = """\
import io, json, sys
from contextlib import redirect_stdout
from latticecast.cli.opt import main
out = io.StringIO()
with redirect_stdout(out):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "output": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _run(tmp_path: Path, *args: str) -> dict[str, object]:
    path = tmp_path / "small.mlir"
    path.write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)  # as a user's shell has it: the tool sets it itself
    child = subprocess.run([sys.executable, "-c", RUN_AND_LIST, str(path), *args], capture_output=True, text=True,
                           env=env, check=True)
    result: dict[str, object] = json.loads(child.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("args", [("--implicit-cast",), ("--pass-pipeline=builtin.module(implicit-cast,canonicalize)",),
                                  ()])
def test_a_pass_run_imports_only_what_it_needs(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = _run(tmp_path, *args)
    modules = set(result["modules"])  # type: ignore[arg-type]  # json: a list of str
    assert result["code"] == (0 if args else 1)  # no pass: the mixed add does not verify
    assert [m for m in NOT_NEEDED if m in modules] == []
    if args:
        assert "stablehlo.convert" in str(result["output"])  # the pass did run


def test_a_compare_loads_the_dialect_classes_it_needs(tmp_path: Path) -> None:
    """The op classes load when a StableHLO attribute is read or built: a compare (whose
    direction is one) is still rebuilt and legalised in a fresh process."""
    path = tmp_path / "small.mlir"
    result = _run(tmp_path, "--implicit-cast")
    path.write_text(COMPARE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    child = subprocess.run([sys.executable, "-m", "latticecast.cli.opt", str(path), "--implicit-cast"],
                           capture_output=True, text=True, env=env)
    assert child.returncode == 0, child.stderr
    assert "stablehlo.compare LT, %0, %arg1 : (tensor<4xf32>, tensor<4xf32>)" in child.stdout, child.stdout
    assert result["code"] == 0
