"""tools/max_graph_suite.py: the name-only shim (no checkout needed) and, when
LATTICECAST_MAX_CHECKOUT names a modular/modular checkout, a run of two of MAX's graph test files."""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))

import max_graph_suite as suite  # noqa: E402

import latticecast.dtypes  # noqa: E402
import latticecast.max  # noqa: E402
import latticecast.ops  # noqa: E402


@pytest.fixture
def shim(monkeypatch):
    saved = {n: m for n, m in sys.modules.items() if n == "max" or n.startswith("max.")}
    monkeypatch.setattr(suite, "_collecting", False)  # as the tests run, after collection
    finder = suite.install_shim()
    try:
        yield finder
    finally:
        suite.uninstall_shim(finder)
        sys.modules.update(saved)


def test_the_shim_maps_max_names_onto_latticecast(shim):
    from max.dtype import DType
    from max.graph import Graph, TensorType, ops

    assert DType is latticecast.max.DType and DType.float32 is latticecast.dtypes.DType.float32
    assert Graph is latticecast.max.Graph and TensorType is latticecast.max.TensorType
    assert ops.add is latticecast.ops.add
    import max.graph.ops as ops_module
    assert ops_module.matmul is latticecast.ops.matmul
    from max._mlir_context import default_mlir_context
    from max import mlir
    from latticecast.dialect_utils.context import default_context
    context = default_mlir_context()
    try:
        assert context is default_context() and mlir.Context.current is context
        with mlir.Location.unknown():  # what MAX's mlir_context fixture does next
            pass
    finally:
        context.__exit__(None, None, None)


def test_a_name_latticecast_lacks_is_a_type_whose_use_names_it(shim):
    from max.graph import NoSuchThing
    from max.graph import ops

    assert isinstance(NoSuchThing, type) and issubclass(NoSuchThing, suite.MissingName)
    assert not isinstance(3, NoSuchThing)
    with pytest.raises(suite.MissingNameError, match="missing name: max.graph.NoSuchThing"):
        NoSuchThing()
    with pytest.raises(suite.MissingNameError, match="max.graph.ops.no_such_op"):
        ops.no_such_op(1)


def test_a_max_module_latticecast_lacks_imports_with_placeholders(shim):
    module = importlib.import_module("max.experimental.tensor")
    assert issubclass(module.Tensor, suite.MissingName)
    with pytest.raises(suite.MissingNameError, match="max.experimental.tensor.Tensor"):
        module.Tensor.from_numpy(1)


def test_a_placeholder_is_inert_while_tests_are_collected(shim, monkeypatch):
    from max._core.dialects import kgen
    monkeypatch.setattr(suite, "_collecting", True)
    made = kgen.ParamOperatorAttr(kgen.POC.add, [1, 2])  # a test module's parametrize list, at import
    assert issubclass(made, suite.MissingName)
    monkeypatch.setattr(suite, "_collecting", False)
    with pytest.raises(suite.MissingNameError, match="max._core.dialects.kgen.ParamOperatorAttr"):
        made.opcode


def test_a_submodule_import_leaves_the_function_of_the_same_name(shim):
    import max.graph.ops as ops
    importlib.import_module("max.graph.ops.irfft")  # MAX's module beside its ops.irfft function
    assert ops.irfft is latticecast.ops.irfft


def test_the_shim_leaves_no_max_module_behind(shim):
    import max.graph  # noqa: F401
    suite.uninstall_shim(shim)
    assert not [n for n in sys.modules if n == "max" or n.startswith("max.")]
    sys.meta_path.insert(0, shim)  # the fixture removes it again


def test_causes_group_missing_names_and_messages():
    assert suite.cause_of("MissingNameError", "missing name: max.graph.ops.gather") == "missing max.graph.ops.gather"
    assert suite.cause_of("ModuleNotFoundError", "No module named 'max.nn'") == "missing module max.nn"
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
    ours = {"a.py::t1": rec("failed", cause="missing max.graph.ops.gather"), "a.py::t2": rec("passed"),
            "a.py::t3": rec("passed"), "a.py::TestT::t4[x]": rec("passed", position="a.py::t4#0"),
            "collect:b.py": {"outcome": "collection error", "file": "b.py", "cause": "missing module max.nn"}}
    summary = suite.compare(baseline, ours, tmp_path)
    assert (summary["passed_with_max"], summary["not_internal"], summary["passed_here"]) == (4, 3, 1)
    assert summary["internal"] == {"a.py::t2": "_mlir_op"}
    assert summary["percentage"] == 33.3
    assert summary["causes"] == {"missing max.graph.ops.gather": 1, "missing module max.nn": 1}
    assert summary["missing_names"] == {"max.graph.ops.gather": 1, "module max.nn": 1}


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
