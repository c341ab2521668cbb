"""What NumPy and ``ml_dtypes`` say about each host dtype: width, range, precision, and what
converting an infinity or a NaN gives. The dtype table (:mod:`.dtypes`) is built from it.

The rows are measured, never written by hand: ``python tools/measure_dtype_facts.py --write``
rewrites them from the installed libraries (:data:`MEASURED_WITH` names their versions), and
``tests/test_dtype_facts.py`` compares every cell with the live libraries. They are data so that the
dtype table loads without ``ml_dtypes``, whose import and ``finfo`` calls were a fifth of a small
``latticecast-opt`` run's start-up; ``ml_dtypes`` loads when a host dtype itself is asked for
(:attr:`DTypeInfo.host <latticecast.promotion.dtypes.DTypeInfo.host>`).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["HostFacts", "FACTS", "MEASURED_WITH"]


class HostFacts(NamedTuple):
    """One host dtype's facts, as ``finfo``/``iinfo`` give them (the real part's, for complex).

    ``overflow`` is what converting an infinity gives (``"inf"``, ``"nan"`` for the float8 types
    without infinities, ``"max"`` for the ones that saturate; empty for integers and bool), and
    ``has_nan`` whether converting a NaN gives one.
    """

    bits: int
    itemsize: int
    mantissa_bits: int = 0
    exponent_bits: int = 0
    max_finite: float = 0.0
    min_finite: float = 0.0
    smallest_subnormal: float = 0.0
    overflow: str = ""
    has_nan: bool = False


# -- measured by tools/measure_dtype_facts.py; do not edit below --
MEASURED_WITH = {'numpy': '2.4.6', 'ml_dtypes': '0.6.0'}

FACTS: dict[str, HostFacts] = {
    'bool': HostFacts(bits=1, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=1, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'int8': HostFacts(bits=8, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=127, min_finite=-128, smallest_subnormal=0.0, overflow='', has_nan=False),
    'int16': HostFacts(bits=16, itemsize=2, mantissa_bits=0, exponent_bits=0, max_finite=32767, min_finite=-32768, smallest_subnormal=0.0, overflow='', has_nan=False),
    'int32': HostFacts(bits=32, itemsize=4, mantissa_bits=0, exponent_bits=0, max_finite=2147483647, min_finite=-2147483648, smallest_subnormal=0.0, overflow='', has_nan=False),
    'int64': HostFacts(bits=64, itemsize=8, mantissa_bits=0, exponent_bits=0, max_finite=9223372036854775807, min_finite=-9223372036854775808, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint8': HostFacts(bits=8, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=255, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint16': HostFacts(bits=16, itemsize=2, mantissa_bits=0, exponent_bits=0, max_finite=65535, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint32': HostFacts(bits=32, itemsize=4, mantissa_bits=0, exponent_bits=0, max_finite=4294967295, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint64': HostFacts(bits=64, itemsize=8, mantissa_bits=0, exponent_bits=0, max_finite=18446744073709551615, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'float16': HostFacts(bits=16, itemsize=2, mantissa_bits=10, exponent_bits=5, max_finite=65504.0, min_finite=-65504.0, smallest_subnormal=5.960464477539063e-08, overflow='inf', has_nan=True),
    'bfloat16': HostFacts(bits=16, itemsize=2, mantissa_bits=7, exponent_bits=8, max_finite=3.3895313892515355e+38, min_finite=-3.3895313892515355e+38, smallest_subnormal=9.183549615799121e-41, overflow='inf', has_nan=True),
    'float32': HostFacts(bits=32, itemsize=4, mantissa_bits=23, exponent_bits=8, max_finite=3.4028234663852886e+38, min_finite=-3.4028234663852886e+38, smallest_subnormal=1.401298464324817e-45, overflow='inf', has_nan=True),
    'float64': HostFacts(bits=64, itemsize=8, mantissa_bits=52, exponent_bits=11, max_finite=1.7976931348623157e+308, min_finite=-1.7976931348623157e+308, smallest_subnormal=5e-324, overflow='inf', has_nan=True),
    'complex64': HostFacts(bits=64, itemsize=8, mantissa_bits=23, exponent_bits=8, max_finite=3.4028234663852886e+38, min_finite=-3.4028234663852886e+38, smallest_subnormal=1.401298464324817e-45, overflow='inf', has_nan=True),
    'complex128': HostFacts(bits=128, itemsize=16, mantissa_bits=52, exponent_bits=11, max_finite=1.7976931348623157e+308, min_finite=-1.7976931348623157e+308, smallest_subnormal=5e-324, overflow='inf', has_nan=True),
    'float8_e3m4': HostFacts(bits=8, itemsize=1, mantissa_bits=4, exponent_bits=3, max_finite=15.5, min_finite=-15.5, smallest_subnormal=0.015625, overflow='inf', has_nan=True),
    'float8_e4m3': HostFacts(bits=8, itemsize=1, mantissa_bits=3, exponent_bits=4, max_finite=240.0, min_finite=-240.0, smallest_subnormal=0.001953125, overflow='inf', has_nan=True),
    'float8_e8m0fnu': HostFacts(bits=8, itemsize=1, mantissa_bits=0, exponent_bits=8, max_finite=1.7014118346046923e+38, min_finite=5.877471754111438e-39, smallest_subnormal=5.877471754111438e-39, overflow='nan', has_nan=True),
    'float8_e4m3b11fnuz': HostFacts(bits=8, itemsize=1, mantissa_bits=3, exponent_bits=4, max_finite=30.0, min_finite=-30.0, smallest_subnormal=0.0001220703125, overflow='nan', has_nan=True),
    'float8_e4m3fn': HostFacts(bits=8, itemsize=1, mantissa_bits=3, exponent_bits=4, max_finite=448.0, min_finite=-448.0, smallest_subnormal=0.001953125, overflow='nan', has_nan=True),
    'float8_e4m3fnuz': HostFacts(bits=8, itemsize=1, mantissa_bits=3, exponent_bits=4, max_finite=240.0, min_finite=-240.0, smallest_subnormal=0.0009765625, overflow='nan', has_nan=True),
    'float8_e5m2': HostFacts(bits=8, itemsize=1, mantissa_bits=2, exponent_bits=5, max_finite=57344.0, min_finite=-57344.0, smallest_subnormal=1.52587890625e-05, overflow='inf', has_nan=True),
    'float8_e5m2fnuz': HostFacts(bits=8, itemsize=1, mantissa_bits=2, exponent_bits=5, max_finite=57344.0, min_finite=-57344.0, smallest_subnormal=7.62939453125e-06, overflow='nan', has_nan=True),
    'float6_e2m3fn': HostFacts(bits=6, itemsize=1, mantissa_bits=3, exponent_bits=2, max_finite=7.5, min_finite=-7.5, smallest_subnormal=0.125, overflow='max', has_nan=False),
    'float6_e3m2fn': HostFacts(bits=6, itemsize=1, mantissa_bits=2, exponent_bits=3, max_finite=28.0, min_finite=-28.0, smallest_subnormal=0.0625, overflow='max', has_nan=False),
    'float4_e2m1fn': HostFacts(bits=4, itemsize=1, mantissa_bits=1, exponent_bits=2, max_finite=6.0, min_finite=-6.0, smallest_subnormal=0.5, overflow='max', has_nan=False),
    'int1': HostFacts(bits=1, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=0, min_finite=-1, smallest_subnormal=0.0, overflow='', has_nan=False),
    'int2': HostFacts(bits=2, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=1, min_finite=-2, smallest_subnormal=0.0, overflow='', has_nan=False),
    'int4': HostFacts(bits=4, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=7, min_finite=-8, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint1': HostFacts(bits=1, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=1, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint2': HostFacts(bits=2, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=3, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
    'uint4': HostFacts(bits=4, itemsize=1, mantissa_bits=0, exponent_bits=0, max_finite=15, min_finite=0, smallest_subnormal=0.0, overflow='', has_nan=False),
}
