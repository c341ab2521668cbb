"""MAX's ``max.dtype.dtype_extension``: :class:`finfo`, a float dtype's limits (ml_dtypes' and NumPy's figures).

Example:
    >>> from latticecast.max.dtype import DType, finfo
    >>> f = finfo(DType.float8_e4m3fn)
    >>> f.bits, f.max, f.min, f.eps, f.tiny
    (8, 448.0, -448.0, 0.125, 0.015625)
"""

from __future__ import annotations


import ml_dtypes

from ...promotion.dtypes import DType as _DType, DTypeLike

__all__ = ["finfo"]


class finfo:  # noqa: N801  # MAX's (and NumPy's) name
    """The limits of a float dtype, as MAX's ``finfo`` gives them: ``bits``, ``eps``, ``max``, ``min``,
    ``tiny`` (= ``smallest_normal``), ``resolution`` and ``dtype``.

    Args:
        dtype: A float dtype (MAX's or latticecast's :class:`~latticecast.DType`).

    Raises:
        TypeError: ``dtype`` is not a float dtype (MAX's message).

    Example:
        >>> from latticecast.max.dtype import DType, finfo
        >>> finfo(DType.float16).max, finfo(DType.bfloat16).bits
        (65504.0, 16)
    """

    bits: int
    eps: float
    max: float
    min: float
    tiny: float
    smallest_normal: float
    resolution: float
    dtype: _DType

    def __init__(self, dtype: DTypeLike) -> None:
        parsed = _DType.parse(dtype)
        if not parsed.is_float():
            raise TypeError(f"finfo only supports floating-point dtypes, got {parsed!r}")
        info = ml_dtypes.finfo(parsed.to_numpy())
        self.dtype = parsed
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = float(info.smallest_normal)
        self.smallest_normal = self.tiny
        self.resolution = float(info.resolution)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, eps={self.eps}, "
                f"tiny={self.tiny}, bits={self.bits}, dtype={self.dtype.name})")
