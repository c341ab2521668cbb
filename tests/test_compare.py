"""A program under two policies (issue 16): ``latticecast compare``, ``Graph.compare`` and ``retype-results``."""

from __future__ import annotations

import numpy as np
import pytest

import latticecast as lc
from latticecast import DType, Graph, TensorType
from latticecast.cli.main import main
from latticecast.dialect_utils.parsing import parse_module
from latticecast.passes.infer_types import compare, infer_types, retype_results

MIXED = """
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf16>, %c: tensor<4xi8>) -> (tensor<4xf16>, tensor<i1>) {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %1 = "stablehlo.add"(%c, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf16>, tensor<4xi8>) -> tensor<4xi1>
  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi1>) -> tensor<1xi1>
  %4 = stablehlo.reshape %3 : (tensor<1xi1>) -> tensor<i1>
  return %0, %4 : tensor<4xf16>, tensor<i1>
}
"""


def test_inference_follows_each_policy_through_the_program() -> None:
    module = parse_module(MIXED, lenient=True)
    torch, numpy = infer_types(module, lc.policy("torch")), infer_types(module, lc.policy("numpy"))
    assert torch.outputs["main"] == [DType.float16, DType.bool]
    assert numpy.outputs["main"] == [DType.float64, DType.bool]      # NumPy: int32 . float16 = float64
    assert not torch.refusals and not numpy.refusals


def test_compare_lists_the_ops_that_differ_and_the_outputs_that_change() -> None:
    module = parse_module(MIXED, lenient=True, source_name="mixed.mlir")
    found = compare(module, lc.policy("torch"), lc.policy("numpy"))
    assert [(c.op, c.location, c.this, c.other) for c in found.changes] == [
        ("stablehlo.multiply", "mixed.mlir:3:8", DType.float16, DType.float64)]
    assert found.outputs == {"main": ([DType.float16, DType.bool], [DType.float64, DType.bool])}


def test_a_refusal_shows_as_refused() -> None:
    module = parse_module(MIXED, lenient=True, source_name="mixed.mlir")
    found = compare(module, lc.policy("jax"), lc.policy("array-api"))
    assert any(c.other is None and c.op == "stablehlo.multiply" for c in found.changes)
    assert "array-api refused" in found.render()


def test_the_cli_prints_the_comparison(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "mixed.mlir"
    path.write_text(MIXED)
    assert main(["compare", str(path), "--policy", "torch", "--vs", "numpy"]) == 0
    out = capsys.readouterr().out
    assert f"{path}:3:8: 'stablehlo.multiply': torch f16, numpy f64" in out
    assert "@main outputs: torch (f16, b), numpy (f64, b)" in out


def test_graph_compare_and_retype_results_agree_with_building_under_the_other_policy() -> None:
    types = [TensorType(DType.int32, [4]), TensorType(DType.float16, [4])]

    def forward(a: lc.Value, b: lc.Value) -> lc.Value:
        return (a * b).reshape([2, 2])

    built_jax = Graph("f", forward, types, policy="jax")
    built_numpy = Graph("f", forward, types, policy="numpy")
    found = built_jax.compare("numpy")
    assert found.outputs["main"] == ([DType.float16], [DType.float64])
    assert built_numpy.output_types[0].dtype == DType.float64
    # retype-results on the JAX-built IR gives what building under NumPy gives
    module = parse_module(built_jax.mlir(before_passes=True), lenient=True)
    with module.context:
        assert retype_results(module, lc.policy("numpy")) == 2    # the multiply and the reshape
    assert "tensor<2x2xf64>" in str(module)
    from latticecast.passes import run_pipeline
    from latticecast.runtime import compile as compile_module

    run_pipeline(module, "builtin.module(implicit-cast{policy=numpy})")
    a, b = np.arange(4, dtype=np.int32), np.full(4, 0.5, np.float16)
    (mine,) = compile_module(str(module))(a, b)
    (theirs,) = built_numpy.compile()(a, b)
    assert mine.dtype == theirs.dtype == np.float64
    np.testing.assert_array_equal(mine, theirs)


def test_compare_on_a_jax_lowered_transformer_is_truthful() -> None:
    """JAX writes its promotions as explicit converts: under any other policy every op keeps its dtype."""
    import jax
    import jax.numpy as jnp

    def block(x: jax.Array, w: jax.Array) -> jax.Array:
        h = x @ w
        att = jax.nn.softmax(h @ h.T / jnp.sqrt(h.shape[-1]))
        return jnp.tanh(att @ h) + x.astype(jnp.float32)

    text = jax.jit(block).lower(np.ones((4, 8), np.float16), np.ones((8, 8), np.float16)).as_text()
    found = compare(parse_module(text, lenient=True), lc.policy("torch"), lc.policy("jax"))
    assert found.changes == [] and found.outputs == {}


def test_a_graph_reports_its_promotions() -> None:
    types = [TensorType(DType.int32, [4]), TensorType(DType.float32, [4])]
    g = Graph("r", lambda a, b: a + b * 2, types, report_promotions=True)
    g.mlir()
    remarks = [d for d in g.diagnostics if "remark" in d]
    assert any("promotes operand #0 from i32 to f32: precision loss" in d for d in remarks), remarks
    assert any("weak literal operand #1 takes type f32" in d for d in remarks), remarks    # the 2 in b * 2
    assert remarks[-1].endswith("implicit-cast: 2 promotions: 0 widening, 1 precision loss, 0 magnitude loss, "
                                "1 weak literal")
    quiet = Graph("q", lambda a, b: a + b * 2, types)
    quiet.mlir()
    assert quiet.diagnostics == []


@pytest.mark.parametrize("content, fragment", [
    (b"\xff\xfe", "bad.mlir:1:1: error: the input is neither UTF-8 text nor MLIR bytecode"),
    (b"func.func @f(", "bad.mlir:1:13: error: expected non-function type"),
])
def test_compare_refuses_bad_input_in_one_line(tmp_path: object, capsys: pytest.CaptureFixture[str],
                                               content: bytes, fragment: str) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "bad.mlir"
    path.write_bytes(content)
    assert main(["compare", str(path), "--vs", "jax"]) == 2
    err = capsys.readouterr().err
    assert fragment in err.splitlines()[0] and "Traceback" not in err


def test_compare_names_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "/nonexistent/prog.mlir", "--vs", "jax"]) == 2
    assert "cannot read /nonexistent/prog.mlir: No such file or directory" in capsys.readouterr().err


def test_a_bad_diagnose_precision_level_is_named() -> None:
    from latticecast.passes import ImplicitCastOptions, PassOptionError

    with pytest.raises(PassOptionError, match="diagnose-precision must be one of off, remark, warning, error, not 'loud'"):
        ImplicitCastOptions(diagnose_precision="loud")  # type: ignore[arg-type]
    with pytest.raises(PassOptionError, match="diagnose-precision must be one of"):
        ImplicitCastOptions.parse("diagnose-precision=loud")
