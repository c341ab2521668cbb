"""The public text path: ``lc.parse``, ``lc.run_pipeline`` on text, and pass warnings as Python warnings."""

from __future__ import annotations

import warnings

import pytest
from jaxlib.mlir import ir, passmanager

import latticecast as lc
from latticecast.dialect_utils.context import make_context
from latticecast.passes import ImplicitCastPass

MIXED = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

LOSSY = """\
func.func @f(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
"""


def test_parse_accepts_mixed_generic_ops_and_returns_a_module() -> None:
    module = lc.parse(MIXED)
    assert isinstance(module, ir.Module)
    with pytest.raises(ir.MLIRError, match="same element type"):
        module.operation.verify()  # unverified until implicit-cast runs


def test_parse_strict_refuses_them_with_the_verifier_s_message() -> None:
    with pytest.raises(lc.MLIRParseError, match=r"in\.mlir:2:8: error: .*same element type"):
        lc.parse(MIXED, lenient=False, source_name="in.mlir")


def test_parse_into_a_context_of_the_caller() -> None:
    context = make_context(lenient=True)
    assert lc.parse(MIXED, context=context).context is context


def test_run_pipeline_on_text_returns_the_legal_module() -> None:
    module = lc.run_pipeline(MIXED).module  # the default pipeline: implicit-cast
    assert isinstance(module, ir.Module)
    module.operation.verify()
    assert "stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>" in str(module)
    as_max = lc.run_pipeline(MIXED.replace("xi16", "xi64"), "implicit-cast{policy=max}")
    assert "stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf32>" in str(as_max)


def test_run_pipeline_refuses_what_is_neither_text_nor_a_module() -> None:
    with pytest.raises(lc.LatticecastError, match=r"not int; parse text with latticecast.parse"):
        lc.run_pipeline(3)  # type: ignore[arg-type]  # the mistake under test


def test_a_pass_warning_is_a_python_warning_through_run_pipeline() -> None:
    with pytest.warns(lc.LatticecastWarning, match=r"in\.mlir:2:8: warning: .*i32 to f16 can lose magnitude") as w:
        lc.run_pipeline(LOSSY, "implicit-cast{diagnose-lossy=warning}", source_name="in.mlir")
    assert w[0].filename == __file__  # attributed to the caller's line


def test_a_pass_warning_is_a_python_warning_in_the_user_s_own_pass_manager() -> None:
    module = lc.parse(LOSSY)
    p = ImplicitCastPass(diagnose_lossy="warning")
    with module.context:
        pm = passmanager.PassManager("builtin.module")
    p.add_to(pm)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pm.run(module.operation)
    lossy = [w for w in caught if issubclass(w.category, lc.LatticecastWarning)]
    assert len(lossy) == 1 and "i32 to f16 can lose magnitude" in str(lossy[0].message)
    assert lossy[0].filename == __file__  # attributed to the line that ran the PassManager
    assert [d.severity for d in p.diagnostics] == ["warning"]  # and still recorded on the pass


def test_remarks_and_the_off_level_issue_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", lc.LatticecastWarning)
        lc.run_pipeline(LOSSY, "implicit-cast{diagnose-lossy=remark}")
        lc.run_pipeline(LOSSY, "implicit-cast")


def test_resources_keep_their_names_in_a_file_of_several_top_level_ops() -> None:
    """Found by opt_fuzz: text of several top-level ops used to be parsed twice in one context, and the
    second parse renamed its dense_resource blobs (bias -> bias_1), unlike mlir-opt."""
    text = """module {
  func.func @a() -> tensor<2xf16> {
    %0 = stablehlo.constant dense_resource<bias> : tensor<2xf16>
    return %0 : tensor<2xf16>
  }
}
module {
}
{-#
  dialect_resources: {
    builtin: {
      bias: "0x02000000003C0040"
    }
  }
#-}
"""
    printed = str(lc.parse(text, source_name="two.mlir"))
    assert "dense_resource<bias>" in printed and "bias_1" not in printed
