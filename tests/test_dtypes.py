"""DType: kinds, widths, host and MLIR spellings, and DType.parse over every seed's names."""

import ml_dtypes
import numpy as np
import pytest

from latticecast import DType, Kind, UnknownDTypeError, weak
from latticecast.promotion.weak import Weak, parse_ptype, ptype_name


@pytest.mark.parametrize("name, expected", [
    ("int16", DType.int16), ("i16", DType.int16), ("s2", DType.int16), ("si16", DType.int16),
    ("u4", DType.uint4), ("ui16", DType.uint16), ("u16", DType.uint16), ("bf", DType.bfloat16),
    ("bf16", DType.bfloat16), ("f2", DType.float16), ("c8", DType.complex128), ("c4", DType.complex64),
    ("tf32", DType.tensor_float32), ("tensor_float32", DType.tensor_float32),
    ("tensor_float_32", DType.tensor_float32), ("index", DType.index), ("address", DType.address),
    ("b1", DType.bool), ("pred", DType.bool), ("f32", DType.float32), ("complex<f64>", DType.complex128),
    ("DType.int8", DType.int8), ("i1", DType.bool), ("i8", DType.int8), ("u8", DType.uint8),
    ("i4", DType.int4), ("i2", DType.int2), ("u2", DType.uint2), ("u1", DType.uint1), ("ui4", DType.uint4),
    ("si4", DType.int4), ("int1", DType.int1), ("f8E4M3FN", DType.float8_e4m3fn), ("f8e5m2", DType.float8_e5m2),
    ("f4E2M1FN", DType.float4_e2m1fn), ("float6_e3m2fn", DType.float6_e3m2fn),
    ("f8E8M0FNU", DType.float8_e8m0fnu), ("f8E4M3B11FNUZ", DType.float8_e4m3b11fnuz),
    # JAX's byte codes that no bit code shadows mean the same in both notations
    ("s2", DType.int16), ("s4", DType.int32), ("f2", DType.float16), ("f4", DType.float32), ("f8", DType.float64),
])
def test_parse_accepts_every_seed_spelling(name, expected):
    assert DType.parse(name) is expected


@pytest.mark.parametrize("name, bits, bytes_", [
    ("i1", DType.bool, DType.int8), ("i2", DType.int2, DType.int16), ("i4", DType.int4, DType.int32),
    ("i8", DType.int8, DType.int64), ("u1", DType.uint1, DType.uint8), ("u2", DType.uint2, DType.uint16),
    ("u4", DType.uint4, DType.uint32), ("u8", DType.uint8, DType.uint64)])
def test_the_ambiguous_codes_follow_the_notation(name, bits, bytes_):
    """Bit counts by default (MLIR's i4 is int4), byte counts for JAX's and the Array API's tables."""
    assert DType.parse(name) is bits
    assert DType.parse(name, notation="bytes") is bytes_


def test_only_eight_codes_depend_on_the_notation():
    from latticecast.promotion.dtypes import _BITS_NAMES, _BYTES_NAMES
    differ = {n for n in _BITS_NAMES.keys() & _BYTES_NAMES.keys() if _BITS_NAMES[n] is not _BYTES_NAMES[n]}
    assert differ == {"i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"}


def test_mlir_strings_always_mean_the_mlir_type():
    assert DType.from_mlir("i4") is DType.int4 and DType.from_mlir("ui4") is DType.uint4
    assert DType.from_mlir("i1") is DType.bool and DType.from_mlir("ui1") is DType.uint1
    assert DType.from_mlir("si4") is DType.int4 and DType.from_mlir("f8E4M3FN") is DType.float8_e4m3fn
    with pytest.raises(UnknownDTypeError):
        DType.from_mlir("int1")


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
    if dtype.in_stablehlo:
        assert DType.from_mlir(dtype.mlir_name) is dtype
        assert DType.parse(dtype.mlir_name) is dtype
    assert DType.parse(dtype.short) is dtype
    assert DType.parse(dtype.info.bytes_code, notation="bytes") is dtype
    if dtype.has_exact_host_dtype:
        assert DType.parse(dtype.np_dtype) is dtype


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
    assert DType.complex64.is_complex and DType.complex64.is_inexact and not DType.complex64.is_float()
    assert DType.bool.is_bool and not DType.bool.is_integral()


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


LOW_FLOATS = [DType.float8_e3m4, DType.float8_e4m3, DType.float8_e8m0fnu, DType.float8_e4m3b11fnuz,
              DType.float8_e4m3fn, DType.float8_e4m3fnuz, DType.float8_e5m2, DType.float8_e5m2fnuz,
              DType.float6_e2m3fn, DType.float6_e3m2fn, DType.float4_e2m1fn]
NARROW_INTS = [DType.int1, DType.int2, DType.int4, DType.uint1, DType.uint2, DType.uint4]


@pytest.mark.parametrize("dtype", LOW_FLOATS, ids=str)
def test_low_precision_floats_read_their_facts_from_ml_dtypes(dtype):
    host = getattr(ml_dtypes, dtype.name)
    finfo = ml_dtypes.finfo(host)
    assert dtype.np_dtype == np.dtype(host) and dtype.is_float() and dtype.host_spelling == f"ml_dtypes.{dtype.name}"
    assert dtype.bitwidth == finfo.bits and dtype.mantissa_bits == finfo.nmant and dtype.exponent_bits == finfo.nexp
    assert dtype.max_value == float(finfo.max) and dtype.min_value == float(finfo.min)
    assert dtype.info.smallest_subnormal == float(finfo.smallest_subnormal)
    with np.errstate(over="ignore", invalid="ignore"):
        overflowed = float(np.array(10.0 * float(finfo.max)).astype(host))
    expected = {"inf": np.inf, "max": float(finfo.max)}.get(dtype.overflow)
    assert np.isnan(overflowed) if expected is None else overflowed == expected
    assert dtype.has_inf == np.isinf(float(np.array(np.inf).astype(host)))
    assert dtype.has_nan == (dtype.name.startswith("float8"))  # float6/float4 have no NaN


def test_low_precision_facts_the_report_measured():
    assert DType.float8_e4m3fn.max_value == 448 and DType.float8_e4m3fn.overflow == "nan"
    assert DType.float8_e5m2.max_value == 57344 and DType.float8_e5m2.has_inf
    assert DType.float4_e2m1fn.max_value == 6 and DType.float4_e2m1fn.overflow == "max"
    assert DType.float6_e2m3fn.bitwidth == 6 and DType.float4_e2m1fn.bitwidth == 4
    e8m0 = DType.float8_e8m0fnu
    assert not e8m0.has_zero and e8m0.min_value == 2.0 ** -127 and e8m0.max_value == 2.0 ** 127
    assert all(d.has_zero for d in DType if d is not e8m0)


@pytest.mark.parametrize("dtype", NARROW_INTS, ids=str)
def test_narrow_ints_read_their_range_from_iinfo(dtype):
    iinfo = ml_dtypes.iinfo(getattr(ml_dtypes, dtype.name))
    assert (dtype.min_value, dtype.max_value, dtype.bitwidth) == (iinfo.min, iinfo.max, iinfo.bits)
    assert dtype.is_integral() and dtype.is_signed == dtype.name.startswith("int")


def test_mlir_spellings_of_the_new_types():
    spell = {d: d.mlir_name for d in LOW_FLOATS + NARROW_INTS if d.in_stablehlo}
    assert spell[DType.float8_e4m3fn] == "f8E4M3FN" and spell[DType.float4_e2m1fn] == "f4E2M1FN"
    assert spell[DType.float8_e4m3b11fnuz] == "f8E4M3B11FNUZ" and spell[DType.float6_e2m3fn] == "f6E2M3FN"
    assert spell[DType.int4] == "i4" and spell[DType.uint4] == "ui4" and spell[DType.int2] == "i2"


@pytest.mark.parametrize("dtype", [DType.int1, DType.uint1], ids=str)
def test_one_bit_integers_have_no_stablehlo_type(dtype):
    from latticecast.promotion.dtypes import NoStableHLOTypeError

    assert not dtype.in_stablehlo
    with pytest.raises(NoStableHLOTypeError) as e:
        dtype.mlir_name
    assert dtype.name in str(e.value) and "StableHLO" in str(e.value) and "cast" in str(e.value)
    assert [d for d in DType if not d.in_stablehlo] == [DType.int1, DType.uint1]
