"""latticecast.max.dtype_promotion (MAX's max.graph.dtype_promotion) and the driver Buffer's item access.

Expected outcomes were measured with MAX 26.7 (/work/venv-max)."""

from __future__ import annotations

import numpy as np
import pytest

from latticecast.max import DeviceRef, DType, Graph, ops
from latticecast.max import dtype_promotion as dp
from latticecast.max.driver import CPU, Buffer

CPU_REF = DeviceRef.CPU()


def test_python_numbers_take_the_strong_dtype_within_maxs_ranges() -> None:
    with Graph("g"):
        assert dp._promote_to_strong(2048, DType.float16, CPU_REF).dtype == DType.float16
        assert dp._promote_to_strong(1e300, DType.float16, CPU_REF).dtype == DType.float16  # MAX: inf, no check
        with pytest.raises(ValueError, match=r"Unsafe cast: Can't promote python int with value \(3\) to "
                                             r"dtype\(DType.bool\)"):
            dp._promote_to_strong(3, DType.bool, CPU_REF)
        with pytest.raises(ValueError, match=r"Unsafe cast: Can't promote python float to dtype\(DType.int8\)"):
            dp._promote_to_strong(2.5, DType.int8, CPU_REF)
        with pytest.raises(TypeError, match="sub-byte"):
            dp._promote_to_strong(1, DType.float4_e2m1fn, CPU_REF)
        with pytest.raises(TypeError, match="must be a TensorValueLike, not 'str'"):
            dp._promote_to_strong("s", DType.int8, CPU_REF)
    assert dp._DTYPE_MIN_AND_MAX_FULL_PRECISION[DType.float32] == (-(2 ** 24), 2 ** 24)


def test_arrays_and_buffers_are_checked_then_converted() -> None:
    with Graph("g"):
        result = dp._promote_to_strong(np.array([1, 2, 300]), DType.float32, CPU_REF)
        assert result.dtype == DType.float32 and list(result.shape) == [3]
        assert list(dp._promote_to_strong(np.array(2.0), DType.float4_e2m1fn, CPU_REF).shape) == []
        with pytest.raises(ValueError, match="Unsafe cast: Refusing to implicitly promote external array"):
            dp._promote_to_strong(np.array([1, 2, 300]), DType.uint8, CPU_REF)
        with pytest.raises(ValueError, match="Unsafe cast: Refusing to implicitly promote float array"):
            dp._promote_to_strong(np.array(2.0), DType.uint8, CPU_REF)
        buffer = Buffer(DType.int64, [], CPU())
        buffer[()] = -(2 ** 40)
        assert dp._promote_to_strong(buffer, DType.float64, CPU_REF).dtype == DType.float64
        with pytest.raises(ValueError, match="Unsafe cast"):
            dp._promote_to_strong(buffer, DType.float32, CPU_REF)


def test_weak_promotion_needs_one_max_object() -> None:
    with Graph("g"):
        x = ops.constant(1, DType.int8, CPU_REF)
        assert [v.dtype for v in dp._promote_weak_dtypes(3, x)] == [DType.int8, DType.int8]
        with pytest.raises(TypeError, match="Binary ops require at least one max object"):
            dp._promote_weak_dtypes(3, 4)
        assert dp._restrict_to_strong_dtypes(x) is x
        with pytest.raises(TypeError, match="Unary ops do not support non-max objects"):
            dp._restrict_to_strong_dtypes(np.array(3))


def test_buffer_items_keep_64_bit_dtypes() -> None:
    b = Buffer(DType.float64, [2], CPU())
    b[1] = 1e300
    assert b.dtype == DType.float64 and b[1].item() == 1e300
    i = Buffer(DType.int64, [], CPU())
    i[()] = 2 ** 62
    assert i.item() == 2 ** 62 and i[()].dtype == DType.int64
