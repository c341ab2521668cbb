"""MAX's ``max.dtype``: :class:`DType` (MAX 26.7's members, latticecast's dtype underneath) and :class:`finfo`.

Example:
    >>> from latticecast.max.dtype import DType, finfo
    >>> len(DType), finfo(DType.bfloat16).eps
    (21, 0.0078125)
"""

from . import dtype, dtype_extension
from .dtype import DType
from .dtype_extension import finfo

__all__ = ["DType", "dtype", "dtype_extension", "finfo"]
