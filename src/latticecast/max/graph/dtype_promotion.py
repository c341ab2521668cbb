"""MAX's ``max.graph.dtype_promotion`` under its own module name: the helpers live in
:mod:`latticecast.graph.dtype_promotion` (the graph layer, where ``ops.random`` uses them too).

Example:
    >>> from latticecast.max.dtype import DType
    >>> from latticecast.max.graph import DeviceRef, Graph, dtype_promotion
    >>> with Graph("g"):
    ...     dtype_promotion._promote_to_strong(3, DType.int8, DeviceRef.CPU()).dtype
    DType.int8
"""

from __future__ import annotations

from ...graph.dtype_promotion import (_DTYPE_MIN_AND_MAX_FULL_PRECISION, _promote_to_strong, _promote_weak_dtypes,
                                     _restrict_to_strong_dtypes, is_strong)

__all__ = ["_DTYPE_MIN_AND_MAX_FULL_PRECISION", "_promote_to_strong", "_promote_weak_dtypes",
           "_restrict_to_strong_dtypes", "is_strong"]
