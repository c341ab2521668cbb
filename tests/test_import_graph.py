"""The layers import downward only, and the one module cycle is value <-> ops (tools/import_graph.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import import_graph  # noqa: E402


def test_the_source_tree_keeps_its_layers() -> None:
    assert import_graph.problems(import_graph.edges()) == []


def test_the_check_finds_an_upward_import_and_a_cycle() -> None:
    found = import_graph.problems({("latticecast.dtypes", "latticecast.graph.graph"): True,
                                   ("latticecast.passes.base", "latticecast.runtime.model"): False,
                                   ("latticecast.runtime.model", "latticecast.passes.base"): False})
    assert "latticecast.dtypes imports latticecast.graph.graph, a higher layer" in found
    assert "layer cycle latticecast.passes <-> latticecast.runtime" in found
    assert any(p.startswith("module cycle latticecast.passes.base <-> latticecast.runtime.model") for p in found)
