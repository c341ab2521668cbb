"""The layers import downward only, and the one module cycle is value <-> ops (tools/import_graph.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import import_graph  # noqa: E402


def test_the_source_tree_keeps_its_layers() -> None:
    assert import_graph.problems(import_graph.edges()) == []


def test_the_check_finds_an_upward_import_and_a_cycle() -> None:
    found = import_graph.problems({("latticecast.promotion.dtypes", "latticecast.graph.graph"): True,
                                   ("latticecast.passes.base", "latticecast.runtime.model"): False,
                                   ("latticecast.runtime.model", "latticecast.passes.base"): False})
    assert "latticecast.promotion.dtypes imports latticecast.graph.graph, a higher layer" in found
    assert "layer cycle latticecast.passes <-> latticecast.runtime" in found
    assert any(p.startswith("module cycle latticecast.passes.base <-> latticecast.runtime.model") for p in found)


def test_the_source_tree_has_no_mlir_below_rank_1() -> None:
    outside = import_graph.external_imports()
    assert ("latticecast.dialect_utils.context", "jaxlib.mlir") in outside  # the reader sees them at all
    assert ("latticecast.dialect_utils.graph_types", "jaxlib.mlir") in outside  # the graph types' conversions
    assert not [m for (m, _) in outside if m.startswith("latticecast.promotion")]
    assert import_graph.problems(import_graph.edges(), outside) == []


def test_the_check_finds_mlir_in_the_promotion_layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A synthetic package: MLIR imported at the top of a promotion module, JAX and MLIR inside a
    function of another (as dims.py once did), the promotion layer reaching up to dialect_utils, and
    MLIR only for type checking in a third (not an import at run time); and MLIR in dialect_utils,
    where it belongs."""
    root = tmp_path / "latticecast"
    (root / "dialect_utils").mkdir(parents=True)
    (root / "promotion").mkdir()
    (root / "__init__.py").write_text("")
    (root / "promotion" / "__init__.py").write_text("")
    (root / "dialect_utils" / "__init__.py").write_text("from jaxlib.mlir import ir\n")
    (root / "promotion" / "dtypes.py").write_text("import jaxlib.mlir.ir\nimport numpy\n")
    (root / "promotion" / "dims.py").write_text("def to_mlir():\n    from jaxlib.mlir import ir\n    import jax.numpy\n"
                                                "    from ..dialect_utils import ir as context\n    return ir\n")
    (root / "promotion" / "tables.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                  "    from mlir import ir\n")
    outside = import_graph.external_imports(root)
    assert outside == {("latticecast.dialect_utils", "jaxlib.mlir"): False,
                       ("latticecast.promotion.dtypes", "jaxlib.mlir.ir"): False,
                       ("latticecast.promotion.dims", "jaxlib.mlir"): True,
                       ("latticecast.promotion.dims", "jax.numpy"): True}
    found = import_graph.problems(import_graph.edges(root), outside)
    assert [p.split(":")[0] for p in found] == [
        "latticecast.promotion.dims imports jax.numpy (deferred)",
        "latticecast.promotion.dims imports jaxlib.mlir (deferred)",
        "latticecast.promotion.dims imports latticecast.dialect_utils, a higher layer",
        "latticecast.promotion.dtypes imports jaxlib.mlir.ir"]


def test_the_check_fails_on_a_planted_violation(tmp_path: Path) -> None:
    """``tools/import_graph.py --check`` on a copy of the real source with one deferred MLIR import
    planted in a promotion module: it exits 1 and names the module; the unplanted copy passes."""
    import shutil
    import subprocess

    tool = Path(import_graph.__file__)
    copy = tmp_path / "repo"
    shutil.copytree(tool.parent.parent / "src" / "latticecast", copy / "src" / "latticecast",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "tools").mkdir()
    shutil.copy(tool, copy / "tools" / tool.name)
    run = [sys.executable, str(copy / "tools" / tool.name), "--check"]
    clean = subprocess.run(run, capture_output=True, text=True, check=False)
    assert clean.returncode == 0, clean.stdout
    weak = copy / "src" / "latticecast" / "promotion" / "weak.py"
    weak.write_text(weak.read_text(encoding="utf-8") + "\n\ndef _planted() -> None:\n"
                    "    from jaxlib.mlir import ir  # noqa: F401\n", encoding="utf-8")
    planted = subprocess.run(run, capture_output=True, text=True, check=False)
    assert planted.returncode == 1
    assert "latticecast.promotion.weak imports jaxlib.mlir (deferred): rank 0 has no MLIR" in planted.stdout
