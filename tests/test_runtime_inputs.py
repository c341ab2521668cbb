"""Argument checking of Model calls: count, shape, dtype, Python values and their ranges.

Every error is raised before anything reaches PJRT, names the input (index, and
name when the model has input names), what was expected and what was given.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from latticecast.runtime import (InputCountError, InputDTypeError, InputError, InputRangeError,
                                 InputShapeError, LatticecastRuntimeError, compile)

MIXED = """
func.func public @main(%x: tensor<4xi16>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.convert %x : (tensor<4xi16>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %y : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""

pytestmark = pytest.mark.usefixtures("fresh_cache")


@pytest.fixture(scope="module")
def named():
    return compile(MIXED, input_names=["x", "y"])


@pytest.fixture(scope="module")
def unnamed():
    return compile(MIXED)


def identity(mlir_type: str, shape: str = "3") -> str:
    t = f"tensor<{shape}x{mlir_type}>" if shape else f"tensor<{mlir_type}>"
    return f"func.func @main(%a: {t}) -> {t} {{ return %a : {t} }}"


X = np.arange(4, dtype=np.int16)
Y = np.ones(4, np.float32)


# -- count ------------------------------------------------------------------------------------


def test_too_few_and_too_many_inputs(named) -> None:
    with pytest.raises(InputCountError, match=r"@main takes 2 input\(s\) \(x: int16\[4\], y: float32\[4\]\), got 1") as e:
        named(X)
    assert e.value.expected == 2 and e.value.got == 1
    with pytest.raises(InputCountError, match="got 3"):
        named(X, Y, Y)


def test_keyword_errors(named, unnamed) -> None:
    with pytest.raises(InputCountError, match="unknown input name 'z'; the inputs are x, y"):
        named(X, z=Y)
    with pytest.raises(InputCountError, match=r"input 0 \('x'\) was given twice"):
        named(X, x=X)
    with pytest.raises(InputCountError, match=r"missing input\(s\) 1 \('y'\)"):
        named(x=X)
    with pytest.raises(InputCountError, match="need input names; compile with input_names"):
        unnamed(X, y=Y)


# -- shape and dtype of NumPy arrays ----------------------------------------------------------


def test_wrong_dtype_names_input_and_the_explicit_cast(named, unnamed) -> None:
    with pytest.raises(InputDTypeError) as e:
        named(X, Y.astype(np.float64))
    msg = str(e.value)
    assert "input 1 ('y'): expected float32[4], got a NumPy array of float64[4]" in msg
    assert "y.astype(np.float32)" in msg
    assert (e.value.index, e.value.name) == (1, "y")
    assert e.value.expected.shape == (4,) and e.value.got == "float64[4]"
    with pytest.raises(InputDTypeError, match=r"input 0: expected int16\[4\], got a NumPy array of int32\[4\].*x.astype\(np.int16\)"):
        unnamed(X.astype(np.int32), Y)


def test_wrong_dtype_is_a_type_error_and_a_runtime_error(unnamed) -> None:
    with pytest.raises(TypeError):
        unnamed(X, Y.astype(np.float16))
    with pytest.raises(LatticecastRuntimeError):
        unnamed(X, Y.astype(np.float16))


def test_no_silent_cast_even_when_lossless(unnamed) -> None:
    """int8 -> int16 would be exact; still an error: casts are the program's business."""
    with pytest.raises(InputDTypeError, match=r"int8\[4\]"):
        unnamed(X.astype(np.int8), Y)


def test_wrong_shape_names_both_shapes(named) -> None:
    with pytest.raises(InputShapeError, match=r"input 1 \('y'\): expected shape \[4\] \(float32\[4\]\), got shape \[2, 2\]") as e:
        named(X, Y.reshape(2, 2))
    assert isinstance(e.value, ValueError) and isinstance(e.value, InputError)


def test_wrong_dtype_and_shape_reports_both(named) -> None:
    with pytest.raises(InputDTypeError, match=r"got a NumPy array of float64\[3\].*astype\(np.float32\) and pass an array of shape \[4\]"):
        named(X, np.zeros(3))


def test_bfloat16_cast_spelling() -> None:
    model = compile(identity("bf16"))
    with pytest.raises(InputDTypeError, match=r"astype\(ml_dtypes.bfloat16\)"):
        model(np.zeros(3, np.float32))
    (out,) = model(np.zeros(3, ml_dtypes.bfloat16))
    assert out.dtype == ml_dtypes.bfloat16


def test_big_endian_arrays_are_accepted_unchanged() -> None:
    model = compile(identity("i32"))
    a = np.array([1, -2, 3], dtype=">i4")
    np.testing.assert_array_equal(model(a)[0], [1, -2, 3])


def test_numpy_scalars_follow_the_array_rule() -> None:
    model = compile(identity("f32", shape=""))
    assert model(np.float32(2.5))[0] == 2.5
    with pytest.raises(InputDTypeError, match=r"float64\[\].*astype\(np.float32\)"):
        model(np.float64(2.5))


def test_masked_arrays_and_other_objects_are_refused(unnamed) -> None:
    with pytest.raises(InputDTypeError, match="masked array"):
        unnamed(np.ma.masked_array(X, mask=[0, 1, 0, 0]), Y)
    with pytest.raises(InputDTypeError, match="got str"):
        unnamed("1234", Y)
    with pytest.raises(InputDTypeError, match="got NoneType"):
        unnamed(None, Y)
    with pytest.raises(InputDTypeError, match="got object"):
        unnamed(object(), Y)


def test_array_likes_are_read_with_asarray() -> None:
    import jax.numpy as jnp

    model = compile(identity("f32"))
    np.testing.assert_array_equal(model(jnp.array([1.0, 2.0, 3.0], jnp.float32))[0], [1, 2, 3])
    np.testing.assert_array_equal(model(memoryview(np.array([4, 5, 6], np.float32)))[0], [4, 5, 6])
    with pytest.raises(InputDTypeError, match="int32"):
        model(jnp.array([1, 2, 3], jnp.int32))


# -- Python values ----------------------------------------------------------------------------


def test_lists_and_scalars_take_the_expected_dtype(named) -> None:
    (out,) = named([1, 2, 3, 4], [0.5, 0.5, 0.5, 0.5])
    np.testing.assert_array_equal(out, [1.5, 2.5, 3.5, 4.5])
    (out,) = named((1, 2, 3, 4), [1, 2, 3, 4])  # ints for a float input: exact kinds up the ladder
    np.testing.assert_array_equal(out, [2, 4, 6, 8])
    scalar = compile(identity("i8", shape=""))
    (out,) = scalar(-128)
    assert out.dtype == np.int8 and out == -128


def test_out_of_range_integers_are_not_wrapped() -> None:
    model = compile(identity("ui8"))
    with pytest.raises(InputRangeError, match=r"input 0: 300 out of range for uint8 \[0, 255\]; latticecast does not wrap") as e:
        model([1, 2, 300])
    assert isinstance(e.value, OverflowError)
    assert (e.value.index, e.value.name, e.value.got) == (0, None, 300)
    assert "np.array(values).astype(np.uint8)" in str(e.value)
    with pytest.raises(InputRangeError, match=r"-1 out of range for uint8"):
        model([-1, 0, 1])
    np.testing.assert_array_equal(model([0, 128, 255])[0], [0, 128, 255])


def test_64_bit_integer_extremes() -> None:
    u64 = compile(identity("ui64"))
    top = 2**64 - 1
    np.testing.assert_array_equal(u64([0, 2**63, top])[0], np.array([0, 2**63, top], np.uint64))
    with pytest.raises(InputRangeError, match=str(2**64)):
        u64([0, 1, 2**64])
    with pytest.raises(InputRangeError, match=r"-1 out of range for uint64"):
        u64([-1, 2**63, 0])  # NumPy keeps this list as objects: checked one by one
    i64 = compile(identity("i64"))
    with pytest.raises(InputRangeError, match=str(2**63)):
        i64([2**63, 0, 0])
    np.testing.assert_array_equal(i64([-(2**63), 0, 2**63 - 1])[0],
                                  np.array([-(2**63), 0, 2**63 - 1], np.int64))


def test_floats_that_would_overflow_are_refused() -> None:
    f32 = compile(identity("f32"))
    with pytest.raises(InputRangeError, match=r"1e\+40 out of range for float32.*infinities"):
        f32([1.0, 1e40, 0.0])
    f16 = compile(identity("f16"))
    with pytest.raises(InputRangeError, match="70000 out of range for float16"):
        f16([1, 70000, 0])
    # inf and nan given as such are values, not overflow
    out = f16([float("inf"), float("nan"), 65504.0])[0]
    assert np.isinf(out[0]) and np.isnan(out[1]) and out[2] == 65504
    c64 = compile(identity("complex<f32>"))
    with pytest.raises(InputRangeError, match="out of range for complex64"):
        c64([1j, 1e39j, 0])
    np.testing.assert_array_equal(c64([1j, 2, 3.5])[0], np.array([1j, 2, 3.5], np.complex64))


def test_python_values_of_the_wrong_kind_are_refused() -> None:
    i16 = compile(identity("i16"))
    with pytest.raises(InputDTypeError, match=r"got Python floats; an int16 input takes Python ints"):
        i16([1.0, 2.5, 3.0])
    with pytest.raises(InputDTypeError, match="got Python bools"):
        i16([True, False, True])
    with pytest.raises(InputDTypeError, match="got values of NumPy kind"):
        i16(["a", "b", "c"])
    b = compile(identity("i1"))
    with pytest.raises(InputDTypeError, match="got Python ints; a bool input takes Python bools"):
        b([1, 0, 1])
    np.testing.assert_array_equal(b([True, False, True])[0], [True, False, True])
    f32 = compile(identity("f32"))
    with pytest.raises(InputDTypeError, match="got Python complex numbers"):
        f32([1j, 0, 0])


def test_python_value_shape_errors(named) -> None:
    with pytest.raises(InputShapeError, match=r"input 0 \('x'\): expected shape \[4\] \(int16\[4\]\), got a list of shape \[3\]"):
        named([1, 2, 3], Y)
    with pytest.raises(InputShapeError, match="got a Python scalar of shape \\[\\]; the runtime does not broadcast"):
        named(1, Y)
    with pytest.raises(InputShapeError, match="cannot read the nested list"):
        compile(identity("i32", shape="2x2"))([[1, 2], [3]])


def test_empty_list_for_an_empty_input() -> None:
    model = compile(identity("ui32", shape="0"))
    (out,) = model([])
    assert out.shape == (0,) and out.dtype == np.uint32
