"""MAX's ``max.graph.type``: the types of a graph's values (their home: :mod:`latticecast.promotion.tensor_type`).

Example:
    >>> from latticecast.max.graph.type import DeviceRef, TensorType
    >>> from latticecast.max.dtype import DType
    >>> TensorType(DType.float32, ["batch", 3], DeviceRef.CPU()).shape
    [Dim('batch'), Dim(3)]
"""

from ...promotion.device_ref import DeviceKind, DeviceRef
from ...promotion.dims import Shape, ShapeLike, SymbolicDim
from ...promotion.tensor_type import BufferType, ConvInputLayout, FilterLayout, TensorType, Type
from ...promotion.tensor_type import OpaqueType as _OpaqueType
from ..driver import CPU, Accelerator, Device
from ..dtype import DType

__all__ = ["Accelerator", "BufferType", "CPU", "ConvInputLayout", "DType", "Device", "DeviceKind", "DeviceRef",
           "FilterLayout", "Shape", "ShapeLike", "SymbolicDim", "TensorType", "Type", "_OpaqueType"]
