"""DType: kinds, widths, host and MLIR spellings, and DType.parse over every seed's names."""

import ml_dtypes
import numpy as np
import pytest

from latticecast import DType, Kind, UnknownDTypeError, weak
from latticecast.weak import Weak, parse_ptype, ptype_name


@pytest.mark.parametrize("name, expected", [
    ("int16", DType.int16), ("i16", DType.int16), ("s2", DType.int16), ("si16", DType.int16),
    ("u4", DType.uint32), ("ui16", DType.uint16), ("u16", DType.uint16), ("bf", DType.bfloat16),
    ("bf16", DType.bfloat16), ("f2", DType.float16), ("c8", DType.complex128), ("c4", DType.complex64),
    ("tf32", DType.tensor_float32), ("tensor_float32", DType.tensor_float32),
    ("tensor_float_32", DType.tensor_float32), ("index", DType.index), ("address", DType.address),
    ("b1", DType.bool), ("pred", DType.bool), ("f32", DType.float32), ("complex<f64>", DType.complex128),
    ("DType.int8", DType.int8), ("i1", DType.bool), ("i8", DType.int8), ("u8", DType.uint8),
])
def test_parse_accepts_every_seed_spelling(name, expected):
    assert DType.parse(name) is expected


@pytest.mark.parametrize("name, bits, bytes_", [("i1", DType.bool, DType.int8), ("i8", DType.int8, DType.int64),
                                                ("u8", DType.uint8, DType.uint64)])
def test_the_three_ambiguous_codes_follow_the_notation(name, bits, bytes_):
    assert DType.parse(name) is bits
    assert DType.parse(name, notation="bytes") is bytes_


def test_parse_rejects_unknown_names_listing_the_valid_ones():
    with pytest.raises(UnknownDTypeError) as e:
        DType.parse("int7")
    assert "int7" in str(e.value) and "tensor_float32" in str(e.value) and "bfloat16" in str(e.value)


def test_parse_rejects_a_bad_notation():
    with pytest.raises(ValueError, match="notation"):
        DType.parse("i8", notation="nibbles")


def test_parse_numpy_dtypes():
    assert DType.parse(np.int16) is DType.int16
    assert DType.parse(np.dtype("float64")) is DType.float64
    assert DType.parse(ml_dtypes.bfloat16) is DType.bfloat16
    with pytest.raises(UnknownDTypeError, match="no latticecast dtype"):
        DType.parse(np.dtype("datetime64[s]"))


@pytest.mark.parametrize("dtype", list(DType))
def test_spellings_round_trip(dtype):
    assert DType.parse(dtype.name) is dtype
    assert DType.from_mlir(dtype.mlir_name) is dtype
    assert DType.parse(dtype.short) is dtype
    assert DType.parse(dtype.info.bytes_code, notation="bytes") is dtype


def test_host_storage_of_the_mlir_only_dtypes():
    assert DType.index.np_dtype == np.uint64 and not DType.index.has_exact_host_dtype
    assert DType.address.np_dtype == np.uint64 and DType.address.mlir_name == "!latticecast.address"
    assert DType.tensor_float32.np_dtype == np.float32 and DType.tensor_float32.mantissa_bits == 10
    assert DType.bfloat16.np_dtype == ml_dtypes.bfloat16
    # a NumPy uint64 is a uint64, never an index
    assert DType.parse(np.uint64) is DType.uint64


def test_kinds_widths_and_limits():
    assert DType.uint64.kind is Kind.UNSIGNED and DType.index.kind is Kind.UNSIGNED
    assert DType.int8.min_value == -128 and DType.int8.max_value == 127
    assert DType.uint64.max_value == 2**64 - 1
    assert DType.float16.max_value == 65504.0
    assert DType.bool.bitwidth == 1 and DType.complex128.bitwidth == 128
    assert DType.complex64.is_complex and DType.complex64.is_inexact and not DType.complex64.is_float
    assert DType.bool.is_bool and not DType.bool.is_integral


def test_weak_types_parse_in_jax_and_anvil_spelling():
    assert parse_ptype("i*") == weak(DType.int64)
    assert parse_ptype("f*") == Weak(DType.float64)
    assert parse_ptype("c*") == Weak(DType.complex128)
    assert parse_ptype("i32?") == Weak(DType.int32)
    assert parse_ptype("weak int16") == Weak(DType.int16)
    assert ptype_name(Weak(DType.int32), "anvil") == "i32?"
    assert ptype_name(Weak(DType.float64)) == "f*"
    with pytest.raises(UnknownDTypeError, match="i\\* , f\\*|i\\*, f\\*"):
        parse_ptype("q*x")
