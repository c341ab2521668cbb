"""The runtime layer: compile hand-written legal StableHLO with PJRT and run it.

Results are compared with NumPy computing the same thing. No test asserts on
time; the cache tests assert on counters (tests/test_runtime_cache.py).
"""

from __future__ import annotations

import gc

import ml_dtypes
import numpy as np
import pytest

from latticecast.promotion.dtypes import DType
from latticecast.runtime import (PJRT_DTYPES, CompileError, MLIRParseError, Model, TensorSpec,
                                 UnsupportedModuleError, clear_cache, compile)
from latticecast.runtime.runtime_errors import InputCountError, InputDTypeError
from latticecast.runtime.signature import platform_problem
from latticecast.runtime import execute as execute_mod

MIXED = """
module @mixed {
  func.func public @main(%x: tensor<4xi16>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %x : (tensor<4xi16>) -> tensor<4xf32>
    %1 = stablehlo.add %0, %y : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
"""

pytestmark = pytest.mark.usefixtures("fresh_cache")


def binary_module(mlir_type: str, op: str, shape: str = "3") -> str:
    t = f"tensor<{shape}x{mlir_type}>" if shape else f"tensor<{mlir_type}>"
    return f"""
module {{
  func.func public @main(%a: {t}, %b: {t}) -> {t} {{
    %0 = stablehlo.{op} %a, %b : {t}
    return %0 : {t}
  }}
}}
"""


# -- every dtype PJRT runs ----------------------------------------------------------------------

_OPS = {  # a binary op per dtype, and NumPy's version of it
    DType.bool: ("and", np.logical_and),
    DType.float8_e8m0fnu: ("multiply", np.multiply),  # powers of two, no zero: a product stays in range
}
_SAMPLES = {
    "bool": [[True, False, True], [True, True, False]],
    "signed": [[-3, 0, 7], [5, -2, 1]],
    "unsigned": [[3, 0, 7], [5, 2, 1]],
    "float": [[-1.5, 0.25, 3.0], [2.0, -0.5, 0.125]],
    "complex": [[1 + 2j, -0.5j, 3], [2 - 1j, 0.25, 1j]],
}
_LOW_SAMPLES = {  # values the narrow types hold, whose sums they hold too
    "signed": [[-1, 0, 1], [-1, 1, 0]],
    "unsigned": [[1, 0, 2], [2, 1, 1]],
    "float": [[-1.5, 0.5, 3.0], [2.0, -0.5, 1.0]],
}
CPU_DTYPES = sorted((d for d in PJRT_DTYPES if platform_problem(d, "cpu") is None), key=lambda d: d.name)


def _samples(dtype: DType) -> list:
    if dtype is DType.float8_e8m0fnu:
        return [[0.5, 2.0, 4.0], [2.0, 0.25, 8.0]]
    table = _LOW_SAMPLES if dtype.is_low_precision else _SAMPLES
    return table[dtype.kind.value]


@pytest.mark.parametrize("dtype", CPU_DTYPES, ids=lambda d: d.name)
def test_every_pjrt_dtype_runs_and_matches_numpy(dtype: DType) -> None:
    """Every dtype XLA:CPU runs goes in and out as its NumPy / ml_dtypes array, float8, float4,
    int2/uint2 and int4/uint4 included, and the arithmetic matches ml_dtypes' bit for bit."""
    op, ref = _OPS.get(dtype, ("add", np.add))
    model = compile(binary_module(dtype.mlir_name, op))
    a, b = (np.array(v).astype(dtype.np_dtype) for v in _samples(dtype))
    for _ in range(3):  # the first call and the dispatcher's cached calls
        (out,) = model(a, b)
        assert out.dtype == dtype.np_dtype
        expected = ref(a, b).astype(dtype.np_dtype)
        np.testing.assert_array_equal(out.view(np.uint8) if dtype.itemsize == 1 else out,
                                      expected.view(np.uint8) if dtype.itemsize == 1 else expected)
    assert model.input_types == (TensorSpec(dtype, (3,)), TensorSpec(dtype, (3,)))
    assert model.output_types == (TensorSpec(dtype, (3,)),)


def test_the_cpu_runs_every_low_precision_type_but_float6():
    low = {d for d in PJRT_DTYPES if d.is_low_precision}
    assert {d for d in low if platform_problem(d, "cpu")} == {DType.float6_e2m3fn, DType.float6_e3m2fn}
    assert len(low & set(CPU_DTYPES)) == 8 + 1 + 4  # every float8, float4, int2/uint2, int4/uint4


@pytest.mark.parametrize("dtype", [DType.float6_e2m3fn, DType.float6_e3m2fn], ids=str)
def test_float6_is_refused_before_xla_sees_it(dtype: DType) -> None:
    """XLA:CPU would fail with an INTERNAL error deep in LLVM; the runtime names the dtype and the
    platform first, whether float6 is an input or only an intermediate value."""
    with pytest.raises(UnsupportedModuleError) as e:
        compile(binary_module(dtype.mlir_name, "add"))
    msg = str(e.value)
    assert f"XLA:CPU cannot compile {dtype.name} ({dtype.mlir_name})" in msg and "cpu" in msg
    inside = f"""func.func public @main(%a: tensor<2xf32>) -> tensor<2xf32> {{
      %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2x{dtype.mlir_name}>
      %1 = stablehlo.convert %0 : (tensor<2x{dtype.mlir_name}>) -> tensor<2xf32>
      return %1 : tensor<2xf32> }}"""
    with pytest.raises(UnsupportedModuleError, match=f"XLA:CPU cannot compile {dtype.name}"):
        compile(inside)


def test_one_bit_integers_are_refused_by_the_runtime() -> None:
    """ui1 parses as MLIR but no StableHLO program can hold it: the runtime says why."""
    text = """func.func @main(%a: tensor<2xui1>) -> tensor<2xui1> {
      return %a : tensor<2xui1> }"""
    with pytest.raises(UnsupportedModuleError, match="uint1 has no StableHLO element type"):
        compile(text)
    # an ml_dtypes int1 array is not a bool array: the input check refuses it before PJRT
    model = compile(binary_module("i1", "and"))
    with pytest.raises(InputDTypeError, match=r"expected bool\[3\], got a NumPy array of int1\[3\]"):
        model(np.zeros(3, ml_dtypes.int1), np.zeros(3, bool))


def test_bfloat16_multiply_matches_ml_dtypes() -> None:
    model = compile(binary_module("bf16", "multiply", "2x2"))
    a = np.array([[1.5, -2.0], [3.25, 0.5]], dtype=ml_dtypes.bfloat16)
    b = np.array([[2.0, 0.75], [-1.0, 8.0]], dtype=ml_dtypes.bfloat16)
    (out,) = model(a, b)
    assert out.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(out.astype(np.float32), (a * b).astype(np.float32))


def test_complex128_multiply_matches_numpy() -> None:
    model = compile(binary_module("complex<f64>", "multiply"))
    a = np.array([1 + 2j, -3.5 + 0.5j, 1e200 + 0j])
    b = np.array([2 - 1j, 0.25j, 1e100 + 0j])
    (out,) = model(a, b)
    assert out.dtype == np.complex128
    np.testing.assert_allclose(out, a * b, rtol=1e-15)


def test_mixed_program_with_convert_matches_numpy() -> None:
    model = compile(MIXED, input_names=["x", "y"])
    x = np.array([1, -2, 300, 32767], dtype=np.int16)
    y = np.array([0.5, 0.25, -1.0, 1.0], dtype=np.float32)
    out = model(x, y)
    assert isinstance(out, list) and len(out) == 1
    np.testing.assert_array_equal(out[0], x.astype(np.float32) + y)


def test_multiple_outputs_are_a_list_one_array_each() -> None:
    text = """
    func.func @main(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>)
        -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<f64>) {
      %s = stablehlo.add %a, %b : tensor<2x3xi32>
      %p = stablehlo.multiply %a, %b : tensor<2x3xi32>
      %c = stablehlo.compare GT, %a, %b : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
      %k = stablehlo.constant dense<2.5> : tensor<f64>
      return %s, %p, %c, %k : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<f64>
    }
    """
    model = compile(text)
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.array([[5, 4, 3], [2, 1, 0]], dtype=np.int32)
    s, p, c, k = model(a, b)
    np.testing.assert_array_equal(s, a + b)
    np.testing.assert_array_equal(p, a * b)
    np.testing.assert_array_equal(c, a > b)
    assert k.shape == () and k.dtype == np.float64 and k == 2.5
    assert [t.dtype for t in model.output_types] == [DType.int32, DType.int32, DType.bool, DType.float64]


def test_no_inputs_and_rank_0_and_empty_tensors() -> None:
    const = compile("""func.func @main() -> tensor<2xui16> {
      %0 = stablehlo.constant dense<[7, 65535]> : tensor<2xui16>
      return %0 : tensor<2xui16> }""")
    (out,) = const()
    np.testing.assert_array_equal(out, np.array([7, 65535], np.uint16))

    scalar = compile(binary_module("f64", "subtract", shape=""))
    (out,) = scalar(np.float64(1.5), np.array(0.25))
    assert out.shape == () and out == 1.25

    empty = compile(binary_module("i8", "add", shape="0"))
    (out,) = empty(np.zeros(0, np.int8), np.zeros(0, np.int8))
    assert out.shape == (0,) and out.dtype == np.int8


def test_non_contiguous_and_fortran_inputs_give_numpy_results() -> None:
    model = compile(binary_module("f32", "add", shape="3x4"))
    big = np.arange(48, dtype=np.float32).reshape(6, 8)
    a = big[::2, ::2]  # strided view
    b = np.asfortranarray(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    assert not a.flags.c_contiguous and not b.flags.c_contiguous
    (out,) = model(a, b)
    np.testing.assert_array_equal(out, a + b)


def test_keyword_calls_by_input_name() -> None:
    model = compile(MIXED, input_names=["x", "y"])
    x = np.arange(4, dtype=np.int16)
    y = np.full(4, 0.5, np.float32)
    np.testing.assert_array_equal(model(y=y, x=x)[0], x + y)
    np.testing.assert_array_equal(model(x, y=y)[0], x + y)


def test_model_description() -> None:
    model = compile(MIXED, input_names=["x", "y"])
    assert isinstance(model, Model)
    assert model.input_types == (TensorSpec(DType.int16, (4,)), TensorSpec(DType.float32, (4,)))
    assert str(model.input_types[0]) == "int16[4]" and model.input_types[0].mlir == "tensor<4xi16>"
    assert model.output_types == (TensorSpec(DType.float32, (4,)),)
    assert model.device.platform == "cpu"
    assert model.input_names == ("x", "y")
    assert repr(model) == "<Model main(x: int16[4], y: float32[4]) -> (float32[4]) on cpu:0>"
    assert len(model.fingerprint) == 64


def test_input_names_must_match_the_signature() -> None:
    with pytest.raises(ValueError, match="1 name"):
        compile(MIXED, input_names=["x"])
    with pytest.raises(ValueError, match="distinct"):
        compile(MIXED, input_names=["x", "x"])
    with pytest.raises(TypeError, match="not a string"):
        compile(MIXED, input_names="xy")


# -- the module must be runnable --------------------------------------------------------------


def test_index_and_tf32_are_rejected_with_the_pass_that_lowers_them() -> None:
    text = """func.func @main(%a: tensor<2xindex>) -> tensor<2xindex> {
      return %a : tensor<2xindex> }"""
    with pytest.raises(UnsupportedModuleError, match=r"input 0 of @main.*index.*ui64") as e:
        compile(text)
    assert "implicit-cast" in str(e.value)
    text = """func.func @main(%a: tensor<2xtf32>) -> tensor<2xtf32> {
      return %a : tensor<2xtf32> }"""
    with pytest.raises(UnsupportedModuleError, match=r"input 0 of @main.*tf32.*f32"):
        compile(text)
    # Inside the body, StableHLO's verifier already refuses them: same hint.
    text = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
      %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xtf32>
      %1 = stablehlo.convert %0 : (tensor<2xtf32>) -> tensor<2xf32>
      return %1 : tensor<2xf32> }"""
    with pytest.raises(MLIRParseError, match=r"(?s)<input>:2:12: error: .*tf32.*hint: .*tf32\s+to f32"):
        compile(text)


def test_other_element_types_list_the_supported_ones() -> None:
    text = """func.func @main(%a: tensor<2xi3>) -> tensor<2xi3> {
      return %a : tensor<2xi3> }"""
    with pytest.raises(UnsupportedModuleError, match=r"i3.*Supported element types: .*bf16.*f8E4M3FN"):
        compile(text)


def test_missing_or_private_main_is_rejected() -> None:
    with pytest.raises(UnsupportedModuleError, match=r"no func.func @main \(it defines @f\)"):
        compile("""func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
          return %a : tensor<2xf32> }""")
    with pytest.raises(UnsupportedModuleError, match="private"):
        compile("""func.func private @main(%a: tensor<2xf32>) -> tensor<2xf32> {
          return %a : tensor<2xf32> }""")


def test_compile_rejects_other_objects() -> None:
    with pytest.raises(TypeError, match=r"ir.Module, MLIR text \(str or bytes\) or the path of a .mlir/.mlirbc"):
        compile(42)  # type: ignore[arg-type]


def test_compile_error_is_wrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """An XLA failure becomes a CompileError naming the device, not a JaxRuntimeError."""
    import jax.errors

    from latticecast.runtime import compiler
    from latticecast.runtime.source import parse_runnable_module

    def failing(*args, **kwargs):
        raise jax.errors.JaxRuntimeError("UNIMPLEMENTED: something XLA cannot do")

    class FakeClient:
        compile_and_load = staticmethod(failing)

    class FakeDevice:
        client = FakeClient()

    monkeypatch.setattr(compiler, "device_name", lambda d: "cpu:0")
    with pytest.raises(CompileError, match=r"XLA could not compile <input> for cpu:0: UNIMPLEMENTED"):
        compiler._xla_compile(parse_runnable_module(MIXED), [FakeDevice()], None, "<input>")


# -- ir.Module input ---------------------------------------------------------------------------


def test_compile_an_ir_module_from_any_context() -> None:
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.context import make_context

    with make_context():
        module = ir.Module.parse(MIXED)
    model = compile(module)
    x = np.array([1, 2, 3, 4], np.int16)
    y = np.ones(4, np.float32)
    np.testing.assert_array_equal(model(x, y)[0], x + y)


# -- aliasing: no input or output shares memory it should not ---------------------------------


def _aligned(n: int, dtype: np.dtype) -> np.ndarray:
    """A 4096-byte-aligned array: the kind PJRT's CPU client would use in place (zero-copy)."""
    itemsize = np.dtype(dtype).itemsize
    buf = np.zeros(n * itemsize + 4096, np.uint8)
    off = (-buf.ctypes.data) % 4096
    return buf[off:off + n * itemsize].view(dtype)


IDENTITY = """func.func @main(%a: tensor<65536xf32>) -> tensor<65536xf32> {
  return %a : tensor<65536xf32> }"""


def test_mutating_the_input_after_the_call_does_not_change_results() -> None:
    model = compile(IDENTITY)
    x = _aligned(65536, np.float32)
    x[:] = 1.0
    outs = [model(x)[0] for _ in range(3)]  # first call (cache miss) and dispatcher calls
    x[:] = 7.0
    for out in outs:
        assert np.all(out == 1.0)
        assert not np.shares_memory(out, x)


def test_a_call_that_returns_before_the_computation_ends_hands_pjrt_only_private_copies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``return_arrays=True`` the call returns while the computation may still run, so PJRT
    only ever sees private copies (or arrays converted from Python values): writing into the
    caller's array then cannot change the result."""
    model = compile(MIXED)
    seen: list[np.ndarray] = []
    original = model._run

    def spy(arrays):
        seen.extend(arrays)
        return original(arrays)

    monkeypatch.setattr(model, "_run", spy)
    x = _aligned(4, np.int16)
    y = _aligned(4, np.float32)
    xs = np.arange(8, dtype=np.int16)[::2]  # a strided view of another array
    model(x, y, return_arrays=True)
    model(xs, y, return_arrays=True)
    model([1, 2, 3, 4], y, return_arrays=True)
    assert len(seen) == 6
    for arr in seen:
        for caller in (x, y, xs):
            assert not np.shares_memory(arr, caller)
        assert arr.flags.c_contiguous


def test_numpy_out_calls_are_done_with_their_inputs_when_they_return() -> None:
    """A call with NumPy outputs hands exact arrays to jaxlib's dispatcher as they are (as jax.jit
    does) and returns after the computation has read them: writing into them afterwards changes
    nothing, and arguments that do not match exactly are checked and converted first."""
    model = compile(MIXED)
    x = _aligned(4, np.int16)
    x[:] = [1, 2, 3, 4]
    y = _aligned(4, np.float32)
    y[:] = 0.5
    (out,) = model(x, y)
    x[:] = 100
    np.testing.assert_array_equal(out, [1.5, 2.5, 3.5, 4.5])
    xs = np.arange(8, dtype=np.int16)[::2]
    np.testing.assert_array_equal(model(xs, y)[0], xs + 0.5)
    np.testing.assert_array_equal(model([1, 2, 3, 4], y)[0], [1.5, 2.5, 3.5, 4.5])
    with pytest.raises(InputDTypeError):
        model(x.astype(np.int32), y)
    with pytest.raises(InputCountError):
        model(x)


def test_private_copy_is_aligned_and_independent() -> None:
    for n in (3, 100_000):
        a = np.arange(n, dtype=np.float32)
        c = execute_mod.private_copy(a)
        assert c.flags.c_contiguous and not np.shares_memory(a, c)
        np.testing.assert_array_equal(a, c)
    big = execute_mod.private_copy(np.ones(100_000, np.float64))
    assert big.ctypes.data % 64 == 0


def test_outputs_survive_later_calls_and_the_model() -> None:
    """Outputs are views of result buffers: they must keep them alive, not see them reused."""
    model = compile(binary_module("i32", "add", shape="1024"))
    a = np.arange(1024, dtype=np.int32)
    first = model(a, a)[0]
    expected = first.copy()
    for k in range(20):
        model(a, np.full(1024, k, np.int32))
    del model
    clear_cache()
    gc.collect()
    np.testing.assert_array_equal(first, expected)


def test_outputs_are_read_only() -> None:
    model = compile(MIXED)
    (out,) = model(np.zeros(4, np.int16), np.zeros(4, np.float32))
    assert not out.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        out[0] = 1.0
    writable = out.copy()
    writable[0] = 1.0


# -- the two call paths -----------------------------------------------------------------------


def test_one_device_runs_through_jax_jit() -> None:
    """One device: the module is a jax.export.Exported compiled by jax.jit, dispatched by JAX in C++."""
    import jax

    model = compile(MIXED)
    assert model.dispatch == "jax.jit"
    assert isinstance(model._program.executable, jax.stages.Compiled)
    assert model.executable.hlo_modules()  # the PJRT executable behind it, for inspection
    x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
    for _ in range(5):
        np.testing.assert_array_equal(model(x, y)[0], x + y)


@pytest.mark.parametrize("mlir_type,np_type", [("i64", np.int64), ("ui64", np.uint64),
                                               ("f64", np.float64), ("complex<f64>", np.complex128)])
def test_64_bit_inputs_are_not_narrowed_by_the_dispatcher(mlir_type: str, np_type: type) -> None:
    """jax narrows 64-bit inputs to 32 bits unless x64 is on; the runtime must not, whatever x64 is."""
    import jax

    model = compile(binary_module(mlir_type, "add"))
    big = np.array([2**40, 3, 2**52], dtype=np_type) if np_type != np.complex128 else \
        np.array([1e300 + 1j, 2, 3], dtype=np_type)
    for x64 in (False, True, False):
        with jax.enable_x64(x64):
            for _ in range(3):
                np.testing.assert_array_equal(model(big, big)[0], big + big)
                np.testing.assert_array_equal(np.asarray(model(big, big, return_arrays=True)[0]), big + big)


CHLO_AND_SDY = """module {
  sdy.mesh @mesh = <["x"=1]>
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = sdy.sharding_constraint %a <@mesh, [{}]> : tensor<4xf32>
    %1 = chlo.erf %0 : tensor<4xf32> -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}"""


def test_chlo_and_shardy_ops_take_the_jax_jit_path_too() -> None:
    """jax.export's own serializer writes chlo ops (erf, gelu's) and Shardy's sdy ops, which
    StableHLO's public portable-artifact serializer refuses."""
    import math

    from latticecast import jax_internals

    model = compile(CHLO_AND_SDY)
    expected = np.array([math.erf(v) for v in (-1.0, 0.0, 0.5, 2.0)], np.float32)
    np.testing.assert_allclose(model(np.array([-1.0, 0.0, 0.5, 2.0], np.float32))[0], expected, rtol=1e-6)
    if jax_internals.PRIVATE_ALLOWED:
        assert model.dispatch == "jax.jit" and model.dispatch_reason is None
    else:  # public only: the client path runs it, and says why
        assert model.dispatch == "client" and "jax.export cannot wrap" in (model.dispatch_reason or "")


def test_a_32_bit_model_runs_whatever_the_x64_setting() -> None:
    import jax

    model = compile(MIXED)
    x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
    for x64 in (True, False, True):
        with jax.enable_x64(x64):
            np.testing.assert_array_equal(model(x, y)[0], x + y)
            np.testing.assert_array_equal(model(x.tolist(), y)[0], x + y)


def test_the_client_path_gives_the_same_results() -> None:
    """The client path (compile_and_load + execute_sharded), which partitioned modules and modules
    jax.export cannot wrap take, gives what the jax.jit path gives on one device."""
    from latticecast.jax_internals import compile_on
    from latticecast.runtime.partitioning import compile_options, read_partitioning
    from latticecast.runtime.sharded import ShardedCall
    from latticecast.runtime.source import parse_runnable_module

    model = compile(MIXED)
    module = parse_runnable_module(MIXED)
    devices = [model.device]
    executable = compile_on(devices, module, compile_options(devices))
    client = ShardedCall(executable, devices, model._program.signature, read_partitioning(module, "<input>"))
    x = np.array([5, 6, 7, 8], np.int16)
    y = np.array([0.5, 0.5, 0.5, 0.5], np.float32)
    np.testing.assert_array_equal(client([x.copy(), y.copy()])[0], model(x, y)[0])


def test_calls_work_under_jax_disable_jit() -> None:
    import jax

    model = compile(MIXED)
    x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
    model(x, y)
    with jax.disable_jit():
        np.testing.assert_array_equal(model(x, y)[0], x + y)


def test_calls_from_many_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    model = compile(MIXED)

    def work(k: int) -> bool:
        x = np.full(4, k, np.int16)
        y = np.arange(4, dtype=np.float32)
        return all(np.array_equal(model(x, y)[0], k + y) for _ in range(100))

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, range(8)))


def test_a_pjrt_failure_during_a_call_is_an_execution_error() -> None:
    """XLA failing while a model runs (out of memory, a device lost) is latticecast's ExecutionError,
    on the fast path and on the checked one alike, never a JaxRuntimeError escaping the call."""
    import jax.errors

    from latticecast.runtime.runtime_errors import ExecutionError

    model = compile(MIXED)

    def failing(*args):
        raise jax.errors.JaxRuntimeError("RESOURCE_EXHAUSTED: out of memory")

    model._direct = failing
    model._runner.call = failing
    x, y = np.arange(4, dtype=np.int16), np.ones(4, np.float32)
    with pytest.raises(ExecutionError, match=r"PJRT failed while running @main: RESOURCE_EXHAUSTED: out of memory"):
        model(x, y)
    with pytest.raises(ExecutionError, match=r"PJRT failed while running @main: RESOURCE_EXHAUSTED: out of memory"):
        model(x.tolist(), y)  # the checked path
