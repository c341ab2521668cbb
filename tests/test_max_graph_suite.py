"""tools/max_graph_suite.py: the sed rewrite, the internals rule and the comparison (no checkout needed) and,
when LATTICECAST_MAX_CHECKOUT names a modular/modular checkout, a run of two of MAX's graph test files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))

import max_graph_suite as suite  # noqa: E402



SED = "s/\\bmax\\./latticecast.max./g; s/^from max import/from latticecast.max import/"
"""The migration as the issue and the docs write it, for GNU sed."""


def test_the_rewrite_is_the_sed_line_and_nothing_else():
    text = ("from max.dtype import DType\nfrom max import mlir\nimport max.graph.ops as ops\n"
            "x = max.graph.ops.add(a, b)  # max. in a comment too\nm = max(1, 2)\ny = np.max(a)\n"
            "s = 'max._core'\n  from max import driver\n")
    expected = ("from latticecast.max.dtype import DType\nfrom latticecast.max import mlir\n"
                "import latticecast.max.graph.ops as ops\nx = latticecast.max.graph.ops.add(a, b)  # latticecast.max. "
                "in a comment too\nm = max(1, 2)\ny = np.max(a)\ns = 'latticecast.max._core'\n  from max import driver\n")
    assert suite.rewrite(text) == expected
    sed = shutil.which("sed")
    if sed is not None:  # GNU sed itself agrees
        assert subprocess.run([sed, SED], input=text, capture_output=True, text=True, check=True).stdout == expected


def test_the_rewritten_copy_keeps_the_layout_and_rewrites_only_python(tmp_path):
    suite_dir = tmp_path / "co" / suite.SUITE
    (suite_dir / "testdata").mkdir(parents=True)
    (suite_dir / "test_a.py").write_text("from max.graph import ops\n")
    (suite_dir / "testdata" / "w.safetensors").write_bytes(b"max.graph\x00")
    copy = suite.rewritten_copy(tmp_path / "co", tmp_path / "out")
    assert (copy / suite.SUITE / "test_a.py").read_text() == "from latticecast.max.graph import ops\n"
    assert (copy / suite.SUITE / "testdata" / "w.safetensors").read_bytes() == b"max.graph\x00"


def test_a_rewritten_max_test_file_runs_under_latticecast(tmp_path):
    """A MAX test file, rewritten, imports MAX's module tree from latticecast.max and runs."""
    suite_dir = tmp_path / "co" / suite.SUITE
    suite_dir.mkdir(parents=True)
    (suite_dir / "test_mlp.py").write_text(
        "import numpy as np\nfrom max.driver import CPU\nfrom max.dtype import DType\n"
        "from max.engine import InferenceSession\nfrom max.graph import DeviceRef, Graph, TensorType, ops\n"
        "from max.graph.ops.irfft import Normalization\n\n"
        "def test_relu():\n"
        "    with Graph('r', input_types=[TensorType(DType.float32, [2], DeviceRef.CPU())]) as g:\n"
        "        g.output(ops.relu(g.inputs[0].tensor))\n"
        "    (y,) = InferenceSession(devices=[CPU()]).load(g).execute(np.array([-1, 2], np.float32))\n"
        "    assert y.to_numpy().tolist() == [0.0, 2.0] and len(list(Normalization)) == 3\n\n"
        "def test_fails():\n    from max._core.no_such import thing\n")
    records = suite.run_rewritten(tmp_path / "co", [], 3, [], tmp_path / "r.json")
    outcomes = {k.split("::")[-1]: v for k, v in records.items()}
    assert outcomes["test_relu"]["outcome"] == "passed"
    assert outcomes["test_fails"]["outcome"] == "failed"
    assert outcomes["test_fails"]["cause"] == "missing module latticecast.max._core.no_such"


def test_causes_group_missing_names_and_messages():
    assert suite.cause_of("ModuleNotFoundError", "No module named 'latticecast.max._core'") == \
        "missing module latticecast.max._core"
    assert suite.cause_of("ModuleNotFoundError", "No module named 'max.nn'") == "missing module max.nn"
    assert suite.cause_of("ImportError", "cannot import name 'X' from 'latticecast.max.graph' (/x.py)") == \
        "missing latticecast.max.graph.X"
    assert suite.cause_of("AttributeError", "module 'latticecast.ops' has no attribute 'tile'") == \
        "missing latticecast.ops.tile"
    assert suite.cause_of("ValueError", "bad <Value at 0x7f00deadbeef>\nmore") == "ValueError: bad <Value>"


def test_an_exception_group_counts_as_its_first_failure():
    text = ("  | ExceptionGroup: Hypothesis found 2 distinct failures. (2 sub-exceptions)\n"
            "  +-+---------------- 1 ----------------\n    | Traceback (most recent call last):\n"
            "    | latticecast.errors.PromotionError: index is not a dtype\n    | Failing test case: t(x=1)\n"
            "    +---------------- 2 ----------------\n    | ValueError: other\n")
    assert suite.first_in_group(text) == "latticecast.errors.PromotionError: index is not a dtype"
    assert suite.first_in_group("no group here") is None


def test_the_internal_rule():
    assert suite.probes_internals("graph/test_x.py", "def t(g):\n    assert 'x' in str(graph)\n") == \
        r"str\((graph|g)\)"
    assert suite.probes_internals("graph/test_x.py", "def t():\n    op = y._mlir_op\n") == "_mlir_op"
    assert suite.probes_internals("graph/test_dialects.py", "") == "test_dialects.py"
    # fixtures in the signature do not count; only what the body does
    assert suite.probes_internals("graph/test_x.py", "@given(x=st.none())\ndef t(mlir_context, kernel_library):\n"
                                  "    ops.add(x, y)\n") is None
    assert suite.probes_internals("graph/test_x.py", "def t():\n    demo.run(memo)\n") is None
    assert suite.probes_internals("graph/test_x.py", "def t(g):\n    chains = g.device_chains\n") == \
        r"\bdevice_chains\b"


def test_the_internal_rule_follows_the_module_helpers_a_test_calls():
    helpers = {"check": "def check(graph):\n    assert 'rmo.matmul' in probe(graph)\n",
               "probe": "def probe(g):\n    return str(g._mlir_op)\n",
               "build": "def build():\n    return ops.matmul(x, y)\n"}
    assert suite.probes_internals("graph/test_x.py", "def t():\n    g = build()\n    check(g)\n",
                                  helpers) == "_mlir_op"
    assert suite.probes_internals("graph/test_x.py", "def t():\n    g = build()\n", helpers) is None


def test_a_name_imported_from_max_internals_marks_the_tests_that_use_it(tmp_path):
    (tmp_path / "t.py").write_text("from max._core.safetensors import safe_open\nfrom max.graph import ops\n"
                                   "import max._core.dialects.kgen as K\n")
    names = suite.module_internal_names(tmp_path, "t.py")
    assert names == ["safe_open", "K"]
    assert suite.probes_internals("t.py", "def t():\n    with safe_open(p) as f:\n        pass\n",
                                  internal_names=names) == "safe_open"
    # in a string (an error message the test expects) it is text, not a use
    assert suite.probes_internals("t.py", "def t():\n    match = 'only accepts K.Attr'\n",
                                  internal_names=names) is None


def test_compare_counts_only_what_real_max_passes_and_is_not_internal(tmp_path):
    (tmp_path / "a.py").write_text("def t1(mlir_context):\n    ops.add(x, y)\n\n"
                                   "def t2():\n    assert y._mlir_op\n\n"
                                   "def t3():\n    pass\n\n"
                                   "class TestT:\n    def t4(self, dtype):\n        ops.sub(x, y)\n")
    (tmp_path / "b.py").write_text("def t5():\n    pass\n")

    def rec(outcome, position=None, cause=None):
        return {"outcome": outcome, "position": position, **({"cause": cause} if cause else {})}
    baseline = {"a.py::t1": rec("passed", position="a.py::t1#0"), "a.py::t2": rec("passed"),
                "a.py::t3": rec("failed"), "a.py::TestT::t4[DType.x]": rec("passed", position="a.py::t4#0"),
                "b.py::t5": rec("passed")}
    ours = {"a.py::t1": rec("failed", cause="missing latticecast.max.graph.ops.gather"), "a.py::t2": rec("passed"),
            "a.py::t3": rec("passed"), "a.py::TestT::t4[x]": rec("passed", position="a.py::t4#0"),
            "collect:b.py": {"outcome": "collection error", "file": "b.py", "cause": "missing module max.nn"}}
    summary = suite.compare(baseline, ours, tmp_path)
    assert (summary["passed_with_max"], summary["not_internal"], summary["passed_here"]) == (4, 3, 1)
    assert summary["internal"] == {"a.py::t2": "_mlir_op"}
    assert summary["percentage"] == 33.3
    assert summary["causes"] == {"missing latticecast.max.graph.ops.gather": 1, "missing module max.nn": 1}
    assert summary["internal_by_rule"] == {"_mlir_op": ["a.py::t2"]}


CHECKOUT = os.environ.get("LATTICECAST_MAX_CHECKOUT")
MAX_PYTHON = os.environ.get("LATTICECAST_MAX_PYTHON", suite.MAX_PYTHON)


@pytest.mark.skipif(not CHECKOUT, reason="set LATTICECAST_MAX_CHECKOUT to a modular/modular checkout")
@pytest.mark.skipif(not Path(MAX_PYTHON).exists(), reason=f"no MAX 26.7 Python at {MAX_PYTHON} "
                    "(set LATTICECAST_MAX_PYTHON)")
def test_the_harness_runs_two_of_max_files(tmp_path):
    out = tmp_path / "results.json"
    assert suite.main([str(CHECKOUT), "--out", str(out), "--real-max", "--max-python", MAX_PYTHON,
                       "--max-examples", "3", "--files", "test_dim.py", "test_type.py"]) == 0
    summary = json.loads(out.read_text())["summary"]
    assert summary["passed_with_max"] >= summary["not_internal"] > 0
    assert 0 < summary["passed_here"] <= summary["not_internal"]
    assert sum(summary["causes"].values()) == summary["not_internal"] - summary["passed_here"]
