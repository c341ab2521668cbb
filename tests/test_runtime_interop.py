"""The runtime on what other tools write: custom calls, tokens, bytecode, portable artifacts,
dynamic shapes. (JAX's own modules: test_jax_corpus.py.)"""

from __future__ import annotations

import io

import jax
import numpy as np
import pytest

from latticecast.dialect_utils.diagnostics import MLIRParseError
from latticecast.dialect_utils.parsing import bytecode_producer, is_portable_artifact, parse_module
from latticecast.runtime import (InputShapeError, PolymorphicModel, UnsupportedModuleError, clear_cache, compile,
                                 custom_calls)


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_cache()
    yield


@pytest.mark.parametrize("api", [2, 4])
def test_an_unknown_custom_call_target_is_refused_listing_the_targets(api: int) -> None:
    text = f"""func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {{
      %0 = stablehlo.custom_call @not_a_real_target(%a) {{api_version = {api} : i32}} : (tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32> }}"""
    with pytest.raises(UnsupportedModuleError) as e:
        compile(text)
    message = str(e.value)
    assert message.startswith("<input> calls custom_call @not_a_real_target, which is not registered for cpu:0")
    assert "jax.ffi.register_ffi_target" in message and "lapack_spotrf_ffi" in message
    assert "python" not in message.split("Targets registered for cpu:")[1]  # callbacks are not offered


def test_a_token_in_main_is_refused_before_compiling() -> None:
    text = """func.func public @main(%t: !stablehlo.token, %a: tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>) {
      return %t, %a : !stablehlo.token, tensor<2xf32> }"""
    with pytest.raises(UnsupportedModuleError, match=r"threads a !stablehlo.token through @main \(input 0, output 0\)"):
        compile(text)


def test_a_host_callback_is_refused_before_compiling() -> None:
    text = """func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {
      stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {api_version = 4 : i32, has_side_effect = true} : (tensor<2xf32>) -> ()
      return %a : tensor<2xf32> }"""
    with pytest.raises(UnsupportedModuleError, match=r"calls back into Python \(custom_call @xla_ffi_python_cpu_callback\)"):
        compile(text)


def test_lapack_without_scipy_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from latticecast import jax_internals

    def no_scipy() -> None:
        raise ModuleNotFoundError("No module named 'scipy'")

    monkeypatch.setattr(jax_internals, "prepare_lapack", no_scipy)
    monkeypatch.setattr(custom_calls, "_lapack_ready", False)
    text = """func.func public @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {api_version = 4 : i32, backend_config = {uplo = 76 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
      return %0#0 : tensor<2x2xf32> }"""
    with pytest.raises(UnsupportedModuleError, match=r"calls jaxlib's LAPACK kernels \(custom_call @lapack_spotrf_ffi\).*pip install scipy"):
        compile(text)


def test_bytecode_producers() -> None:
    module = parse_module("func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> { return %x : tensor<2xi8> }")
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    assert bytecode_producer(buf.getvalue()).startswith("MLIR")
    assert not is_portable_artifact(buf.getvalue()) and bytecode_producer(b"module {}") is None
    assert bytecode_producer(b"ML\xefR\x02\x00StableHLO_v9.9.9\x00") == "StableHLO_v9.9.9"  # a 2-byte version
    assert is_portable_artifact(b"ML\xefR\x0dStableHLO_v1.15.0\x00")


def test_a_damaged_portable_artifact_is_one_located_error() -> None:
    from jaxlib.mlir.dialects import stablehlo

    module = parse_module("func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                          "  %0 = stablehlo.sine %x : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}")
    artifact = stablehlo.serialize_portable_artifact(module, "1.0.0")
    assert is_portable_artifact(artifact)
    np.testing.assert_allclose(compile(artifact)(np.array([0, 1], np.float32))[0], np.sin([0, 1]), rtol=1e-6)
    with pytest.raises(MLIRParseError) as e:
        parse_module(artifact[: len(artifact) // 2], source_name="model.vhlo")
    assert str(e.value).startswith("model.vhlo: error: cannot read the StableHLO portable artifact (written by "
                                   "StableHLO_v1.0.0")
    assert "\n" not in str(e.value)


DYNAMIC = """func.func public @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.add %a, %b : tensor<?xf32>
  return %0 : tensor<?xf32> }"""


def test_a_dynamic_module_is_refined_per_shape() -> None:
    model = compile(DYNAMIC, input_names=["a", "b"])
    assert isinstance(model, PolymorphicModel)
    assert repr(model) == "<PolymorphicModel main(a: float32[?], b: float32[?]) -> (float32[?])>"
    for n in (1, 4, 4, 0):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(model(x, b=x)[0], 2 * x)
    assert model.specializations == 3
    (arr,) = model(np.ones(2, np.float32), b=np.ones(2, np.float32), return_arrays=True)
    assert isinstance(arr, jax.Array) and np.asarray(arr).tolist() == [2.0, 2.0]
    with pytest.raises(InputShapeError) as e:
        model(np.zeros(2, np.float32), np.zeros(3, np.float32))
    assert str(e.value).startswith("the inputs (input 0 ('a'): float32[2]; input 1 ('b'): float32[3]) do not fit "
                                   "@main's dynamic shapes (float32[?], float32[?]): 'stablehlo.add' op")
    with pytest.raises(InputShapeError, match=r"input 1 \('b'\): expected float32\[\?\], got shape \[2, 2\]"):
        model(np.zeros(2, np.float32), np.zeros((2, 2), np.float32))
    with pytest.raises(TypeError, match=r"input 0 \('a'\): expected float32\[2\], got a NumPy array of int32\[2\]"):
        model(np.zeros(2, np.int32), np.zeros(2, np.float32))


def test_a_dimension_variable_input_is_bound_per_call() -> None:
    text = """func.func public @main(%n: tensor<i32> {jax.global_constant = "b"}, %x: tensor<?x2xf32>) -> tensor<?x2xf32> {
      %c = stablehlo.constant dense<2> : tensor<1xi32>
      %0 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
      %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %2 = stablehlo.convert %n : (tensor<i32>) -> tensor<f32>
      %3 = stablehlo.dynamic_broadcast_in_dim %2, %1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
      %4 = stablehlo.multiply %x, %3 : tensor<?x2xf32>
      return %4 : tensor<?x2xf32> }"""
    model = compile(text)
    assert str(model.input_types[0]) == "int32[] (the value of dimension variable 'b')"
    x = np.ones((3, 2), np.float32)
    np.testing.assert_array_equal(model(3, x)[0], 3 * x)
    with pytest.raises(InputShapeError, match=r"the inputs \(input 0 \(b\) = 4; input 1: float32\[3, 2\]\) do not fit"):
        model(4, x)
    with pytest.raises(InputShapeError, match="must be a size"):
        model(-1, x)
