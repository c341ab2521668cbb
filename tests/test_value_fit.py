"""latticecast.promotion.value_fit, the one home of "does this value fit" and "can this conversion lose magnitude",
on the low-precision dtypes: float8's missing infinities, float4's saturation, e8m0's missing zero."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from latticecast import DType, policy
from latticecast.promotion.value_fit import array_problem, magnitude_loss, candidates, scalar_problem

D = DType


@pytest.mark.parametrize("source, target, fragment", [
    (D.int16, D.float8_e4m3fn, "i16 values up to 3.28e+04 exceed f8E4M3FN's largest finite value 448 (they become "
                               "NaN: it has no infinities)"),
    (D.float32, D.float4_e2m1fn, "f32 values up to 3.4e+38 exceed f4E2M1FN's largest finite value 6 (they saturate "
                                 "to +-6)"),
    (D.int64, D.float8_e5m2, "exceed f8E5M2's largest finite value 57344 (they become inf)"),
    (D.int8, D.float8_e8m0fnu, "f8E8M0FNU has no zero and no negative values"),
    (D.int8, D.int4, "i8 values in [-128, 127] do not fit i4 [-8, 7]"),
    (D.uint4, D.int4, "ui4 values in [0, 15] do not fit i4 [-8, 7]"),
    (D.int1, D.int8, None), (D.float8_e4m3fn, D.float16, None), (D.int8, D.float8_e5m2, None),
    (D.float4_e2m1fn, D.float8_e4m3fn, None), (D.uint2, D.int4, None), (D.float8_e8m0fnu, D.float32, None),
    (D.float8_e8m0fnu, D.bfloat16, None), (D.float8_e5m2, D.float8_e4m3fn, "exceed f8E4M3FN's largest"),
])
def test_magnitude_loss(source, target, fragment):
    why = magnitude_loss(source, target)
    if fragment is None:
        assert why is None
    else:
        assert why is not None and fragment in why


def test_magnitude_loss_agrees_with_ml_dtypes_on_the_extremes():
    """Where magnitude_loss reports a loss, ml_dtypes turns an extreme value of the source into
    something else (inf, NaN, a saturated value); where it reports none, both extremes stay finite
    with their sign (they may round)."""
    low = [d for d in DType if d.is_low_precision and d.is_float()]
    checked = 0
    for s in low:
        for t in low + [D.float16, D.bfloat16, D.float32]:
            extremes = np.array([s.min_value, s.max_value], np.float64)
            with np.errstate(all="ignore"):
                back = extremes.astype(t.np_dtype).astype(np.float64)
            if magnitude_loss(s, t) is None:
                assert np.isfinite(back).all() and (np.sign(back) == np.sign(extremes)).all(), (s, t, back)
            else:
                assert not np.array_equal(back, extremes), (s, t, back)
            checked += 1
    assert checked == 11 * 14


@pytest.mark.parametrize("value, target, fragment", [
    (1000, D.float8_e4m3fn, "1000 out of range for float8_e4m3fn (largest finite 448)"),
    (448, D.float8_e4m3fn, None), (-448.0, D.float8_e4m3fn, None),
    (7.0, D.float4_e2m1fn, "out of range for float4_e2m1fn (largest finite 6)"),
    (float("inf"), D.float8_e4m3fn, "no infinities (it would become NaN)"),
    (float("inf"), D.float4_e2m1fn, "no infinities (it would become 6)"),
    (float("inf"), D.float8_e5m2, None), (float("nan"), D.float8_e4m3fn, None),
    (float("nan"), D.float4_e2m1fn, "it has no NaN"),
    (0, D.float8_e8m0fnu, "0 is not a value of float8_e8m0fnu: it has no zero and no negative values"),
    (-1.0, D.float8_e8m0fnu, "no zero and no negative values"), (1e-50, D.float8_e8m0fnu, "no zero"),
    (2.0 ** 100, D.float8_e8m0fnu, None), (0.25, D.float8_e8m0fnu, None),
    (8, D.int4, "8 out of range for int4 [-8, 7]"), (-8, D.int4, None), (4, D.uint2, "out of range for uint2"),
    (-1, D.int1, None), (1, D.int1, "1 out of range for int1 [-1, 0]"),
])
def test_scalar_problem(value, target, fragment):
    problem = scalar_problem(value, target)
    if fragment is None:
        assert problem is None
    else:
        assert problem is not None and fragment in problem


def test_numpy_overflow_to_inf_only_where_the_dtype_has_infinities():
    """NumPy gives inf for float16 + 1e10 (accepted under policy numpy), but NaN for float8_e4m3fn
    and 6 for float4_e2m1fn, which no policy accepts silently."""
    np_policy = policy("numpy")
    assert np_policy.literals.problem(1e10, D.float16) is None
    assert np_policy.literals.problem(1e10, D.float8_e5m2) is None
    assert "out of range" in np_policy.literals.problem(1e10, D.float8_e4m3fn)
    assert "out of range" in np_policy.literals.problem(100, D.float4_e2m1fn)
    assert "no zero" in np_policy.literals.problem(0, D.float8_e8m0fnu)


def test_arrays_of_ml_dtypes_are_checked_by_their_values():
    f8 = np.array([1.0, -2.0, 448.0], np.float32).astype(ml_dtypes.float8_e4m3fn)
    assert array_problem(f8, D.float16) is None
    assert "out of range for float4_e2m1fn" in array_problem(f8, D.float4_e2m1fn)
    assert "no zero" in array_problem(f8, D.float8_e8m0fnu)
    i4 = np.array([-8, 7], ml_dtypes.int4)
    assert array_problem(i4, D.int8) is None and "out of range for uint4" in array_problem(i4, D.uint4)
    assert candidates(i4) == [-8, 7]
    assert array_problem(np.zeros(2, ml_dtypes.float8_e8m0fnu), D.float32) is None  # its bit pattern 0 is 2**-127
    assert math.isclose(candidates(np.zeros(2, ml_dtypes.float8_e8m0fnu))[0], 2.0 ** -127)
