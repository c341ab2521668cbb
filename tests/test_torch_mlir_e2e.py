"""tools/torch_mlir_e2e.py: its judging and summary on recorded results (no torch needed) and, when
LATTICECAST_TORCH_MLIR_CHECKOUT names a llvm/torch-mlir checkout and torch with torch-mlir is at hand
(``$LATTICECAST_TORCH_PYTHON``), a run of the suite's comparison programs against a 0-d value."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))

import torch_mlir_e2e as e2e  # noqa: E402

from conftest import library_python  # noqa: E402

ISSUE_MODULE = """module {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<f64>) -> tensor<3xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xf64>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<3xf64>
    %2 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
    return %2 : tensor<3xi1>
  }
}
"""
"""What torch-mlir writes for ``x == z``, x float32 and z a 0-d float64 (tests/data/torch_mlir/eq_f32_zero_d_f64.mlir)."""


def _entry(**kw: Any) -> dict[str, Any]:
    entry = {"file": "elementwise_comparison.py", "probe_values": True, "inputs": ["float32", "float64"],
             "outputs": ["bool"], "oracle": ["float32"], "compare_pairs": [["float32", "float64"]],
             "explicit_conversions": False,
             "sites": [{"op": "eq", "kinds": ["nd", "0d"], "dtypes": ["float32", "float64"], "promoted": "float32"}]}
    entry.update(kw)
    return entry


def _refs(name: str) -> dict[str, np.ndarray]:
    return {f"{name}/in0": np.array([0.1, 1 / 3, 2.0 ** 24 + 1], np.float32), f"{name}/in1": np.array(0.1),
            f"{name}/out0": np.array([True, False, False])}


def test_the_judge_recovers_what_pytorch_compares_and_torch_mlir_does_not() -> None:
    found = e2e.judge_one("cmp", _entry(), ISSUE_MODULE, _refs("cmp"))
    assert found["as_lowered"] == "output 0[0]: False, PyTorch has True"  # torch-mlir compares in f64
    assert found["recovered"] is None  # the pass compares in f32, as PyTorch
    assert found["sites"] == [{"kind": "tensor", "dtypes": ["float64", "float32"], "mixed": True, "to_decide": True}]
    assert (found["removed"], found["weak"]) == (1, 0)
    assert len(found["remarks"]) == 1 and "broadcast of a 0-d tensor" in found["remarks"][0]
    assert found["recovered_0d"] is None and found["recovered_0d_remarks"] == found["remarks"]


def test_a_decomposition_s_constant_is_found_in_the_ir() -> None:
    """A comparison with a scalar that torch-mlir made a constant (a decomposition's bound), which eager
    does not record: the site is found in the IR, its convert removed, the constant made weak."""
    text = """module {
  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xi1> {
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f64>
    %0 = stablehlo.convert %cst : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.compare GT, %arg0, %1, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    return %2 : tensor<3xi1>
  }
}
"""
    refs = {"d/in0": np.array([0.1, 0.5, 0.05], np.float32), "d/out0": np.array([False, True, False])}
    entry = _entry(inputs=["float32"], oracle=[], compare_pairs=[], sites=[])
    found = e2e.judge_one("d", entry, text, refs)
    assert found["sites"] == [{"kind": "constant", "dtypes": ["float64", "float32"], "mixed": True, "to_decide": True}]
    assert (found["removed"], found["weak"], found["recovered"], found["as_lowered"]) == (1, 1, None, None)
    # left a strong 0-d float64, the constant is read by the 0-d rule: compared in float32 too, and remarked on
    assert found["recovered_0d"] is None and len(found["recovered_0d_remarks"]) == 1


def test_without_compare_pairs_the_judge_leaves_torch_mlirs_compare() -> None:
    """A program that converts dtypes itself: the IR does not tell its converts from torch-mlir's, so only
    the oracle's go; the convert to f64 stays (the oracle is f32), and the module is judged as torch-mlir
    wrote it."""
    found = e2e.judge_one("cmp", _entry(explicit_conversions=True), ISSUE_MODULE, _refs("cmp"))
    assert found["removed"] == 0 and found["recovered"] == found["as_lowered"] is not None
    assert found["recovered_as_torch_mlir"] and found["sites"][0]["to_decide"] is False
    assert e2e._verdict(_entry(), found, "recovered") == "torch-mlir"


def test_the_summary_counts_sites_against_a_0d_value() -> None:
    manifest = {"tests": 4, "select": "all",
                "not_imported": {"conv.py": "ModuleNotFoundError: No module named 'torchvision'"},
                "skipped": {"T4": "torch-mlir: failed"},
                "programs": {"T1": _entry(), "T2": _entry(), "T3": _entry(random=True)}}
    site = {"kind": "tensor", "dtypes": ["float64", "float32"], "mixed": True, "to_decide": True}
    scalar = {"kind": "constant", "dtypes": ["int64", "int64"], "mixed": False, "to_decide": False}
    results = {"T1": {"as_lowered": "output 0[0]: False, PyTorch has True", "recovered": None, "recovered_0d": None,
                      "recovered_as_torch_mlir": False, "removed": 1, "weak": 0, "remarks": ["r"],
                      "recovered_0d_remarks": ["r"], "sites": [site]},
               "T2": {"as_lowered": "x", "recovered": "x", "recovered_0d": "x", "recovered_as_torch_mlir": True,
                      "recovered_0d_as_torch_mlir": True, "removed": 0, "weak": 0, "remarks": [],
                      "recovered_0d_remarks": [], "sites": [scalar]},
               "T3": {"as_lowered": "y", "recovered": "z", "recovered_0d": "z", "recovered_as_torch_mlir": False,
                      "removed": 1, "weak": 1, "remarks": [], "recovered_0d_remarks": ["r"], "sites": [site]}}
    summary = e2e.summarize(manifest, results)
    sites = summary["comparison_sites_against_0d"]
    assert (sites["total"], sites["constant"], sites["tensor"], sites["mixed"], sites["decided"]) == (3, 1, 2, 2, 2)
    assert sites["recovered"] == {"agree": 1, "random": 1, "torch-mlir": 1, "disagree": 0}
    assert sites["mixed_recovered"] == {"agree": 1, "random": 1, "torch-mlir": 0, "disagree": 0}
    assert sites["as_lowered"] == {"agree": 0, "random": 1, "torch-mlir": 0, "disagree": 2}
    assert sorted(summary["disagreeing"]) == ["T1", "T2", "T3"] and summary["modules_with_sites"] == 3
    assert summary["remarks"] == {"recovered": 1, "recovered_0d": 2}
    lines = list(e2e.report(summary))
    assert lines[1].startswith("comparison sites against a 0-d value in torch-mlir's StableHLO: 3 in 3 modules "
                               "(1 against a constant or Python scalar, 2 against a 0-d tensor); 2 of another dtype; "
                               "2 decided by implicit-cast")
    assert lines[2] == ("  recovered by implicit-cast --policy torch: 1 agree with PyTorch eager, 1 in programs that "
                        "draw random numbers, 1 in modules that compute exactly what torch-mlir's does, which "
                        "disagrees with eager, 0 disagree")
    assert "  left out: T4: torch-mlir: failed" in lines


def test_disagreement_names_the_first_element_that_differs() -> None:
    f = np.float32
    assert e2e.disagreement([np.array([1.0, 2.0], f)], [np.array([1.0, 2.0], f)]) is None
    assert e2e.disagreement([np.array([1.0, 2.5], f)], [np.array([1.0, 2.0], f)]) == "output 0[1]: 2.5, PyTorch has 2.0"
    assert e2e.disagreement([np.array([1, 2])], [np.array([1.0, 2.0], f)]) == "output 0: int64[2], PyTorch has float32[2]"
    assert e2e.disagreement([], [np.array(1.0)]) == "0 outputs, PyTorch has 1"


def test_a_directory_without_the_suite_is_refused_saying_what_to_pass(tmp_path: Path, capsys) -> None:
    assert e2e.main([str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "has no projects/pt1/python/torch_mlir_e2e_test/test_suite" in err and "git archive" in err


CHECKOUT = os.environ.get("LATTICECAST_TORCH_MLIR_CHECKOUT")


@pytest.mark.skipif(not CHECKOUT, reason="set LATTICECAST_TORCH_MLIR_CHECKOUT to a llvm/torch-mlir checkout")
def test_every_comparison_against_a_0d_value_in_the_suite_is_pytorchs(tmp_path: Path) -> None:
    python = library_python("torch_mlir", "LATTICECAST_TORCH_PYTHON")
    out = tmp_path / "results.json"
    assert e2e.main([str(CHECKOUT), "--torch-python", python, "--out", str(out)]) == 0
    summary = json.loads(out.read_text())["summary"]
    sites = summary["comparison_sites_against_0d"]
    assert sites["total"] > 0 and sites["mixed"] > 0
    assert sites["recovered"]["disagree"] == 0, summary["disagreeing"]
    assert sites["recovered"]["agree"] >= 0.9 * sites["total"]
