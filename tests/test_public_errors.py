"""No jaxlib ``MLIRError`` escapes a public entry point: each one driven with bad IR raises a
:class:`~latticecast.LatticecastError` whose message names the place (issue 27)."""

from __future__ import annotations

from typing import Callable

import pytest
from jaxlib.mlir import ir

import latticecast as lc
from latticecast.dialect_utils.context import make_context
from latticecast.dialect_utils.parsing import parse_module

UNPARSABLE = "func.func @f(%a: tensor<2xi8>) -> tensor<2xi8> {\n  return %nope : tensor<2xi8>\n}\n"
REFUSED = """func.func @main(%a: tensor<2xi8>, %b: tensor<2xui32>) -> tensor<2xi8> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xui32>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
"""
"""Parses (the generic form of a mixed add), but ``max`` refuses i8 + ui32 and the declared i8 is wrong."""
INVALID = """func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""
"""Parses leniently, fails the verifier (a result shape no add has)."""

def _runner_run(text: str) -> object:
    """The one runner, as latticecast-opt uses it: the input verified first unless implicit-cast leads."""
    from latticecast.passes import ImplicitCastOptions, Pipeline, PipelineRunner

    module = parse_module(text, make_context(lenient=True), lenient=True, source_name="bad.mlir")
    runner = PipelineRunner(Pipeline((ImplicitCastOptions(policy="max"),)), module.context, verify_input=True)
    return runner.run(module.operation, source_name="bad.mlir")


ENTRY_POINTS: dict[str, Callable[[str], object]] = {
    "parse": lambda t: lc.parse(t, source_name="bad.mlir"),
    "run_pipeline(text)": lambda t: lc.run_pipeline(t, "implicit-cast{policy=max}", source_name="bad.mlir"),
    "run_pipeline(module)": lambda t: lc.run_pipeline(parse_module(t, make_context(lenient=True), lenient=True,
                                                                   source_name="bad.mlir"),
                                                      "implicit-cast{policy=max}"),
    "PipelineRunner.run": lambda t: _runner_run(t),
    "compile": lambda t: lc.compile(t),
    "lift": lambda t: lc.lift(t, "max"),
    "retarget": lambda t: lc.retarget(t, from_="jax", to="max", source_name="bad.mlir").module,
}


ACCEPTED = {("parse", "refused"), ("lift", "refused"), ("retarget", "refused")}
"""What a lenient entry point reads as it is: a mixed generic-form add parses (implicit-cast decides it),
lift finds nothing of jax's to take out, and retarget decides the add under max, whose types it infers
(i8 + ui32 is i64 there; the declared i8 is jax's, not max's)."""


@pytest.mark.parametrize("name,text", [("unparsable", UNPARSABLE), ("refused", REFUSED), ("invalid", INVALID)],
                         ids=["unparsable", "refused", "invalid"])
@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_bad_ir_raises_a_latticecast_error(entry: str, name: str, text: str) -> None:
    try:
        ENTRY_POINTS[entry](text)
    except ir.MLIRError as e:  # pragma: no cover - the defect this test exists for
        pytest.fail(f"{entry} let jaxlib's MLIRError escape: {e}")
    except lc.LatticecastError as e:
        assert (entry, name) not in ACCEPTED and str(e).strip(), entry
    else:
        assert (entry, name) in ACCEPTED, f"{entry} accepted {name} IR without a word"


def test_retarget_decides_a_mixed_op_under_the_target() -> None:
    r = lc.retarget(REFUSED, from_="jax", to="max", source_name="bad.mlir")
    assert not r.errors and "stablehlo.add %1, %0 : tensor<2xi64>" in str(r.module)


def test_run_pipeline_raises_pass_failure_with_located_diagnostics() -> None:
    with pytest.raises(lc.PassFailure) as e:
        lc.run_pipeline(REFUSED, "implicit-cast{policy=max}", source_name="bad.mlir")
    assert e.value.diagnostics and e.value.diagnostics[0].startswith("bad.mlir:2:8: error:")
    assert isinstance(e.value, RuntimeError)  # except RuntimeError keeps working


def test_pass_failure_is_one_class_for_the_graph_and_the_pipeline() -> None:
    from latticecast.graph import PassFailure

    assert PassFailure is lc.PassFailure is lc.errors.PassFailure


def test_the_runner_s_failure_keeps_every_error_located() -> None:
    """PassFailure.located has the errors as objects (file, line, column), the pass's own first."""
    with pytest.raises(lc.PassFailure) as e:
        _runner_run(REFUSED)
    first = e.value.located[0]
    assert (first.file, first.line, first.col, first.severity) == ("bad.mlir", 2, 8, "error")
    assert e.value.diagnostics[0] == first.format()
