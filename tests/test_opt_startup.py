"""``latticecast-opt`` loads only what a pass run needs, so that a lit suite's RUN lines start fast.

A pass run needs jaxlib's MLIR bindings, the pass and its policy; it does not need jax, the
runtime, the graph builder, the ``latticecast`` command's subcommands, or the generated Python op
classes of the StableHLO dialects. ``--help`` and ``--version`` need none of MLIR and none of the
promotion layer (NumPy, the audit, the tables, the policies' classes): the package loads each layer on
first use. Each check runs in a fresh interpreter, since this test process has imported everything
already. (NumPy is loaded by ``jaxlib.mlir.ir`` itself.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

NOT_NEEDED = ("jax", "jaxlib._jax", "latticecast.runtime", "latticecast.graph", "latticecast.cli.table_cmd",
              "latticecast.evidence", "latticecast.cli.lattice_cmd", "latticecast.cli.compare_cmd",
              "jaxlib.mlir.dialects._stablehlo_ops_gen", "jaxlib.mlir.dialects._chlo_ops_gen",
              "latticecast.passes.lift", "latticecast.promotion.audit", "latticecast.cli.opt.verify",
              "html", "difflib", "tempfile", "importlib.metadata", "ml_dtypes",
              "jaxlib.mlir.dialects._sdy_ops_gen", "jaxlib.mlir.dialects._mpmd_ops_gen",
              "latticecast.passes.infer_types", "latticecast.passes.readiness")
"""What a pass run loads none of (Shardy's dialects load only for an input or pipeline that names them; the
inference under another policy only for --retype-results, the readiness checks only for a chunk that failed)."""

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
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), LATTICECAST_CACHE_DIR=str(tmp_path))
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)  # as a user's shell has it: the tool sets it itself
    child = subprocess.run([sys.executable, "-c", RUN_AND_LIST, str(path), *args], capture_output=True, text=True,
                           env=env, check=True)
    result: dict[str, object] = json.loads(child.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize("args", [("--implicit-cast",), ("--pass-pipeline=builtin.module(implicit-cast,canonicalize)",),
                                  ()])
def test_a_pass_run_imports_only_what_it_needs(tmp_path: Path, args: tuple[str, ...]) -> None:
    _run(tmp_path, *args)  # the first run finds the installed versions (importlib.metadata) and caches them
    result = _run(tmp_path, *args)
    modules = set(result["modules"])  # type: ignore[arg-type]  # json: a list of str
    assert result["code"] == (0 if args else 1)  # no pass: the mixed add does not verify
    # a chunk that failed is read for the hint (passes.readiness); a run that succeeded reads nothing more
    failed_only = {"latticecast.passes.readiness"}
    assert [m for m in NOT_NEEDED if m in modules and (args or m not in failed_only)] == []
    assert args or failed_only <= modules
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


NOT_FOR_HELP = ("numpy", "jaxlib.mlir", "latticecast.promotion.audit", "latticecast.promotion.tables",
                "latticecast.promotion.dtypes", "latticecast.policies.base", "latticecast.passes.pipeline",
                "latticecast.passes.runner", "latticecast.dialect_utils")
"""What ``--help`` and ``--version`` load none of (``--version``: once its answer is cached)."""


def _opt_modules(tmp_path: Path, *args: str) -> tuple[str, set[str]]:
    """``latticecast-opt ARGS``'s standard output and the modules it loaded, in a fresh interpreter whose
    latticecast cache is ``tmp_path``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), LATTICECAST_CACHE_DIR=str(tmp_path))
    child = subprocess.run([sys.executable, "-c", RUN_AND_LIST, *args], capture_output=True, text=True, env=env,
                           check=True)
    result = json.loads(child.stdout.splitlines()[-1])
    assert result["code"] == 0, child.stderr
    return str(result["output"]), set(result["modules"])


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_load_no_mlir_and_no_promotion_layer(tmp_path: Path, flag: str) -> None:
    first, first_modules = _opt_modules(tmp_path, flag)
    again, modules = _opt_modules(tmp_path, flag)
    assert again == first  # the cached versions are the ones found
    assert [m for m in NOT_FOR_HELP if m in modules] == []
    # a first --version asks jaxlib (which loads NumPy) and reads the MLIR version with dialect_utils, but
    # loads neither the audit nor the tables nor the policies
    assert [m for m in ("latticecast.promotion.audit", "latticecast.promotion.tables", "latticecast.policies.base")
            if m in first_modules] == []
    if flag == "--help":
        assert "--implicit-cast: Join operand types" in first and "Policies: jax," in first
    else:
        assert first.startswith("latticecast-opt ") and "StableHLO" in first
        assert {"jaxlib.mlir.ir", "numpy"} <= first_modules  # found out live the first time


def test_the_version_cache_is_found_again_when_damaged(tmp_path: Path) -> None:
    first, _ = _opt_modules(tmp_path, "--version")
    (cached,) = tmp_path.glob("versions-*.json")
    cached.write_text("{not json")
    again, modules = _opt_modules(tmp_path, "--version")
    assert again == first and "jaxlib.mlir.ir" in modules  # asked of jaxlib again


def test_the_package_names_win_over_their_submodules() -> None:
    """``lc.audit``, ``lc.policies``, ``lc.weak``, ``lc.evidence`` are functions, as when the package
    imported them eagerly, even after their submodules load first; ``lc.dtypes`` is still the module."""
    code = ("import latticecast.promotion.audit, latticecast.promotion.weak, latticecast.evidence, latticecast.policies.registry\n"
            "import types, latticecast as lc\n"
            "assert all(callable(f) and not isinstance(f, types.ModuleType)\n"
            "           for f in (lc.audit, lc.policies, lc.weak, lc.evidence)), (lc.audit, lc.policies)\n"
            "assert isinstance(lc.dtypes, types.ModuleType) and lc.DType.int8.name == 'int8'\n"
            "assert lc.policies()[0] == 'jax'\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert child.returncode == 0, child.stderr


def test_help_lists_the_passes_the_pipeline_runs() -> None:
    from latticecast.passes import PASS_OPTIONS, PASSES

    assert [kind.Options for kind in PASSES.values()] == list(PASS_OPTIONS)
    assert [kind.argument for kind in PASSES.values()] == list(PASSES)  # each found under its own name
    assert [kind.description for kind in PASSES.values()] == [o.pass_description for o in PASS_OPTIONS]


SHARDED = """\
module @jit_f attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%a: tensor<8xi16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %b: tensor<8xf32>)
      -> tensor<8xf32> {
    %0 = "stablehlo.add"(%a, %b) : (tensor<8xi16>, tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
"""


@pytest.mark.parametrize("args", [("--implicit-cast",), ("--pass-pipeline=builtin.module(sdy-close-shardings)",)])
def test_shardy_loads_for_an_input_or_a_pipeline_that_names_it(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Shardy's dialects are left out of a run until the input (or the pipeline) spells them."""
    path = tmp_path / "sharded.mlir"
    if "--implicit-cast" in args:
        path.write_text(SHARDED)
    else:
        path.write_text(PROGRAM.replace('"stablehlo.add"(%a, %b)', '"stablehlo.add"(%b, %b)')
                        .replace("(tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>", "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), LATTICECAST_CACHE_DIR=str(tmp_path))
    child = subprocess.run([sys.executable, "-c", RUN_AND_LIST, str(path), *args], capture_output=True, text=True,
                           env=env)
    assert child.returncode == 0, child.stderr
    result = json.loads(child.stdout.splitlines()[-1])
    assert result["code"] == 0, child.stderr
    if "--implicit-cast" in args:
        assert "sdy.mesh @mesh" in result["output"] and "stablehlo.convert" in result["output"]
