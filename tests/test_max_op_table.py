"""tools/max_op_table.py and its data, tests/data/max_ops_26_7.json: MAX 26.7's op list and each op's
status in latticecast.ops."""

from __future__ import annotations

import collections
import json
import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import max_op_table as tool  # noqa: E402

import latticecast.ops  # noqa: E402

DATA = json.loads(tool.DATA.read_text())


def test_the_data_is_max_26_7s_132_functions():
    assert DATA["max_version"] == "26.7.0" and len(DATA["ops"]) == 132
    assert {"add", "gather", "while_loop", "custom", "conv2d"} <= set(DATA["ops"])


def test_the_recorded_statuses_are_what_latticecast_ops_has_now():
    """Fails when an op is added (or refused) without `python tools/max_op_table.py --write`."""
    now = tool.table(sorted(DATA["ops"]), latticecast.ops)
    stale = {name: (DATA["ops"][name], status) for name, status in now.items() if DATA["ops"][name] != status}
    assert stale == {}, f"run `python tools/max_op_table.py --write`: (recorded, now) = {stale}"


def test_implemented_means_callable_in_latticecast_ops():
    for name, status in DATA["ops"].items():
        assert (status != "missing") == callable(getattr(latticecast.ops, name, None)), name


def test_the_statuses_of_a_namespace():
    def refused(x):
        """MAX's custom is refused: Mojo kernels have no StableHLO form; write the op with latticecast.ops."""

    def marked(x):
        """Nothing said here."""
    marked.__refused__ = "a reason"  # type: ignore[attr-defined]

    def works(x):
        """Adds one.

        Nothing is refused here (a later paragraph does not count)."""
    space = types.SimpleNamespace(custom=refused, other=marked, add=works, constant=3)
    assert tool.table(["custom", "other", "add", "constant", "gather"], space) == {
        "custom": "refused", "other": "refused", "add": "implemented", "constant": "missing", "gather": "missing"}


def test_the_markdown_counts():
    text = tool.markdown({"a": "implemented", "b": "missing", "c": "implemented"}, "26.7.0")
    assert text.splitlines()[0].endswith("3 functions; 2 implemented, 0 refused, 1 missing")
    assert "| `b` | missing |" in text
    counts = collections.Counter(DATA["ops"].values())
    assert sum(counts.values()) == 132


@pytest.mark.skipif(not Path(tool.MAX_PYTHON).exists(), reason=f"no MAX 26.7 at {tool.MAX_PYTHON}")
def test_the_data_is_what_the_installed_max_lists():
    version, names = tool.max_ops_installed(tool.MAX_PYTHON)
    assert (version, names) == (DATA["max_version"], sorted(DATA["ops"]))
