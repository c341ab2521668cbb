"""MAX's ``max.graph.ops.elementwise`` (its home: :mod:`latticecast.graph.ops.elementwise`).

Example:
    >>> from latticecast.max.graph.ops import elementwise
    >>> elementwise.max.__name__
    'max'
"""

from ....graph.ops.elementwise import *  # noqa: F401,F403
from ....graph.ops.elementwise import __all__ as _names
from ....promotion.device_ref import DeviceRef
from ....graph.ops import assert_same_device, custom, gelu, logsoftmax, max, min, relu, silu, softmax  # noqa: A004
from ....graph.value import TensorValueLike
from ....promotion.tensor_type import TensorType
from ...dtype import DType
from .. import dtype_promotion
from ..graph import Graph
from ..value import TensorValue

__all__ = [*_names, "DType", "DeviceRef", "Graph", "TensorType", "TensorValue", "TensorValueLike",
           "assert_same_device", "custom", "dtype_promotion", "gelu", "logsoftmax", "max", "min", "relu", "silu",
           "softmax"]
