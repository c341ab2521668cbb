"""MAX's ``max.graph.ops.random`` (its home: :mod:`latticecast.graph.ops.random`).

Example:
    >>> from latticecast.max.graph.ops.random import SeedType
    >>> SeedType("cpu").dtype
    DType.uint64
"""

from ....promotion.device_ref import DeviceRef
from ....graph.ops.random import SeedType, assert_scalar, gaussian, normal, set_seed, uniform
from ....graph.value import TensorValueLike
from ....promotion.tensor_type import TensorType
from ...dtype import DType
from .. import dtype_promotion
from ..graph import Graph
from ..value import TensorValue

__all__ = ["DType", "DeviceRef", "Graph", "SeedType", "TensorType", "TensorValue", "TensorValueLike",
           "assert_scalar", "dtype_promotion", "gaussian", "normal", "set_seed", "uniform"]
