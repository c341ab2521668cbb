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
    assert import_graph.problems(import_graph.edges(), outside) == []


def test_the_check_finds_mlir_in_the_promotion_layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A synthetic package: MLIR imported at the top of a promotion module, inside a function of
    another, and only for type checking in a third (not an import at run time); and MLIR in
    dialect_utils, where it belongs."""
    root = tmp_path / "latticecast"
    (root / "dialect_utils").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "dialect_utils" / "__init__.py").write_text("from jaxlib.mlir import ir\n")
    (root / "dtypes.py").write_text("import jaxlib.mlir.ir\nimport numpy\n")
    (root / "dims.py").write_text("def to_mlir():\n    from jaxlib.mlir import ir\n    import jax.numpy\n"
                                  "    return ir\n")
    (root / "tables.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                    "    from mlir import ir\n")
    monkeypatch.setitem(import_graph.RANKS, "latticecast.promotion.dims", 0)  # as it was before it moved up
    outside = import_graph.external_imports(root)
    assert outside == {("latticecast.dialect_utils", "jaxlib.mlir"): False, ("latticecast.promotion.dtypes", "jaxlib.mlir.ir"): False,
                       ("latticecast.promotion.dims", "jaxlib.mlir"): True, ("latticecast.promotion.dims", "jax.numpy"): True}
    found = import_graph.problems(import_graph.edges(root), outside)
    assert [p.split(":")[0] for p in found] == ["latticecast.promotion.dims imports jax.numpy (deferred)",
                                                "latticecast.promotion.dims imports jaxlib.mlir (deferred)",
                                                "latticecast.promotion.dtypes imports jaxlib.mlir.ir"]
