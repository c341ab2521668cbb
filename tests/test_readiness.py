"""What a module needs before it runs is read from the IR (``passes/readiness.py``), on IR that JAX
and the graph builder really wrote as well as on hand-written IR; the hints of ``latticecast-opt``
and the runtime come from it, never from the words of MLIR's messages."""

from __future__ import annotations

import pytest

from latticecast.dialect_utils.diagnostics import MLIRParseError
from latticecast.passes.readiness import MixedOp, foreign_ops, mixed_ops, parse_leniently, unrunnable_element_types

MIXED = """func.func @main(%x: tensor<4xi16>, %y: tensor<4xf32>, %z: tensor<4xi8>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%0, %z) : (tensor<4xf32>, tensor<4xi8>) -> tensor<4xf32>
  %2 = stablehlo.convert %z : (tensor<4xi8>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def test_mixed_ops_in_program_order_with_their_element_types() -> None:
    module = parse_leniently(MIXED)
    assert module is not None
    assert mixed_ops(module) == [MixedOp("stablehlo.add", ("i16", "f32")), MixedOp("stablehlo.multiply", ("f32", "i8"))]
    assert unrunnable_element_types(module) == [] and foreign_ops(module) == []


def test_a_module_jax_wrote_needs_nothing() -> None:
    """JAX's lowering is legal StableHLO: its promotions are converts already."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    text = jax.jit(lambda a, b: a * 2 + b).lower(jnp.ones(4, jnp.int16), jnp.ones(4, jnp.float32)).as_text()
    module = parse_leniently(text)
    assert module is not None
    assert (mixed_ops(module), unrunnable_element_types(module), foreign_ops(module)) == ([], [], [])


def test_a_graph_before_its_pass_is_mixed_and_has_max_dtypes() -> None:
    """The builder's module before implicit-cast: a mixed add, and an index value MAX's dtypes allow."""
    from latticecast import DType, Graph, TensorType

    g = Graph("g", input_types=[TensorType(DType.int16, (4,)), TensorType(DType.float32, (4,)),
                                TensorType(DType.index, (4,))], policy="max")
    with g:
        a, b, i = g.inputs
        g.output(a + b, i)
    assert mixed_ops(g._module) == [MixedOp("stablehlo.add", ("i16", "f32"))]
    assert unrunnable_element_types(g._module) == ["index"]
    assert "stablehlo.convert" in g.mlir()  # and after the pass, the module runs
    assert (mixed_ops(g.module), unrunnable_element_types(g.module)) == ([], [])


def test_other_dialects_and_text_that_does_not_parse() -> None:
    module = parse_leniently('func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n'
                             '  %0 = "mydialect.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n'
                             '  %1 = "mydialect.op"(%0) : (tensor<2xf32>) -> tensor<2xf32>\n'
                             '  return %1 : tensor<2xf32>\n}')
    assert module is not None and foreign_ops(module) == ["mydialect.op"]
    assert parse_leniently("func.func @f(") is None


def test_the_runtime_hint_names_the_op_whatever_mlir_says() -> None:
    """The hint is decided from the IR: the op and its element types, not the verifier's wording."""
    from latticecast.runtime import compile

    with pytest.raises(MLIRParseError) as e:
        compile(MIXED)
    assert "'stablehlo.add' mixes element types (i16, f32)" in str(e.value)
    assert "implicit-cast" in str(e.value).split("hint:")[1]


def test_a_verifier_error_unrelated_to_dtypes_gets_no_dtype_hint() -> None:
    from latticecast.runtime import compile

    text = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "stablehlo.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xf32>
      return %x : tensor<4xf32> }"""
    with pytest.raises(MLIRParseError) as e:
        compile(text)
    assert "hint:" not in str(e.value)


def test_modules_torch_mlir_wrote_need_nothing() -> None:
    """torch-mlir's StableHLO (the recorded corpus) is legal: its promotions are converts already."""
    from pathlib import Path

    corpus = sorted((Path(__file__).parent / "data" / "torch_mlir").glob("*.mlir"))
    assert corpus
    for path in corpus:
        module = parse_leniently(path.read_text(), str(path))
        assert module is not None, path
        assert (mixed_ops(module), unrunnable_element_types(module), foreign_ops(module)) == ([], [], []), path


def test_a_value_used_after_its_region_is_found_in_the_graph() -> None:
    from latticecast import DType, Graph, TensorType, ops
    from latticecast.passes.readiness import EscapingUse, escaping_uses

    with Graph("leak", input_types=[TensorType(DType.float32, [])]) as g:
        (x,) = g.inputs
        inside = []
        ops.cond(x > 0, [TensorType(DType.float32, [])], lambda: inside.append(x * 3) or inside[-1], lambda: x)
        g.output(inside[0] + 1)
    assert escaping_uses(g._module) == [EscapingUse("stablehlo.multiply", "stablehlo.if", "stablehlo.add")]


def test_control_flow_jax_wrote_has_no_escaping_uses() -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    from latticecast.passes.readiness import escaping_uses

    def f(p: jax.Array, x: jax.Array) -> jax.Array:
        y = jax.lax.cond(p, lambda v: v * 3, lambda v: v, x)
        return jax.lax.fori_loop(0, 3, lambda i, v: v + y, y)

    text = jax.jit(f).lower(jnp.bool_(True), jnp.ones(3, jnp.float32)).as_text()
    module = parse_leniently(text)
    assert module is not None and escaping_uses(module) == []
