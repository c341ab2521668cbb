"""The one printer (``dialect_utils.printing.asm``) prints what jaxlib's ``get_asm`` prints, and the
collector the passes pause (``passes.base.collector_paused``) is restored however the pass ends."""

from __future__ import annotations

import gc

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import latticecast as lc
from latticecast.dialect_utils.printing import asm
from latticecast.passes.base import collector_paused

OPTIONS = [dict(), dict(generic=True), dict(debug_info=True), dict(debug_info=True, pretty_debug_info=True),
           dict(large_elements_limit=2), dict(local_scope=True)]


def _jaxlib_options(o: dict) -> dict:
    names = {"generic": "print_generic_op_form", "debug_info": "enable_debug_info",
             "pretty_debug_info": "pretty_debug_info", "local_scope": "use_local_scope",
             "large_elements_limit": "large_elements_limit", "assume_verified": "assume_verified"}
    return {names[k]: v for k, v in o.items()}


def _jax_module() -> str:
    def f(x, w):
        return jnp.tanh(x @ w + jnp.arange(4, dtype=jnp.float32)) * 0.5

    return jax.jit(f).lower(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32)).as_text(debug_info=True)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_asm_prints_what_get_asm_prints_on_ir_jax_wrote(options):
    module = lc.parse(_jax_module())
    expected = module.operation.get_asm(**_jaxlib_options(options))
    assert isinstance(expected, str)
    assert asm(module, **options) == expected
    assert asm(module.operation, **options) == expected


def test_asm_keeps_non_ascii_names_and_strings_as_mlir_escapes_them():
    module = lc.parse('func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {s = "héllo ✓ \\00"} '
                      '{ return %a : tensor<2xf32> loc("fïlé✓.py":3:4) } loc("ü":1:1)')
    text = asm(module, debug_info=True)
    assert text == module.operation.get_asm(enable_debug_info=True)
    assert '"h\\C3\\A9llo \\E2\\9C\\93 \\00"' in text and 'loc("f\\C3\\AFl\\C3\\A9\\E2\\9C\\93.py":3:4)' in text


def test_graph_mlir_and_opt_output_are_the_printer_s():
    from latticecast import DType, Graph, TensorType

    with Graph("g", input_types=[TensorType(DType.int16, [2]), TensorType(DType.float32, [2])]) as g:
        g.output(g.inputs[0] + g.inputs[1])
    assert g.mlir() == g.module.operation.get_asm(assume_verified=True)
    assert g.mlir(before_passes=True).count("stablehlo.convert") == 0 and g.mlir().count("stablehlo.convert") == 1


def test_collector_paused_restores_the_collector_on_an_error_and_keeps_a_caller_s_pause():
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with collector_paused():
            assert not gc.isenabled()
            raise RuntimeError("a pass failed")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the caller's pause stays
    finally:
        gc.enable()


def test_the_pass_runs_with_the_collector_paused_and_leaves_it_on(monkeypatch):
    from latticecast.passes import implicit_cast

    seen = []
    real = implicit_cast._Run.run

    def spy(self):
        seen.append(gc.isenabled())
        return real(self)

    monkeypatch.setattr(implicit_cast._Run, "run", spy)
    module = lc.parse('func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {\n'
                      '  %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>\n'
                      '  return %0 : tensor<2xf32>\n}')
    lc.passes.run_pipeline(module, "builtin.module(implicit-cast{policy=jax})")
    assert seen == [False] and gc.isenabled()
    assert "stablehlo.convert" in asm(module)
