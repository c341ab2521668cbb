"""MAX's ``max.graph``: a MAX program's ``from max.graph import DeviceRef, Graph, TensorType, ops`` builds
here after ``max.`` becomes ``latticecast.max.``.

Each name lives in latticecast's own modules (the graph builder :mod:`latticecast.graph`, the types
:mod:`latticecast.promotion.tensor_type`, the dimensions :mod:`latticecast.promotion.dims`); this package and its modules
(``graph``, ``type``, ``value``, ``weight``, ``weights``, ``quantization``, ``dim``, ``shape``,
``dtype_promotion``, ``ops``) give them MAX's module names. :class:`Graph` here defaults to MAX's promotion
(``"max-python"``).

Example:
    >>> import numpy as np
    >>> from latticecast.max.dtype import DType
    >>> from latticecast.max.graph import DeviceRef, Graph, TensorType, ops
    >>> with Graph("add", input_types=[TensorType(DType.float32, [2], DeviceRef.CPU())] * 2) as g:
    ...     g.output(ops.add(*g.inputs))
    >>> g.compile()(np.ones(2, np.float32), np.ones(2, np.float32))[0].tolist()
    [2.0, 2.0]
"""

from ...promotion.device_ref import DeviceKind, DeviceRef
from ...promotion.dims import AlgebraicDim, Dim, DimLike, Shape, ShapeLike, StaticDim, SymbolicDim
from ...graph.value import BufferValue, BufferValueLike, TensorValueLike, Value
from ...graph.weight import Weight
from ...graph.weight_sharding import ShardingStrategy
from ...promotion.tensor_type import BufferType, Type
from ...promotion.tensor_type import ChainType as _ChainType
from ...promotion.tensor_type import OpaqueType as _OpaqueType
from ...graph.value import ChainValue as _ChainValue
from . import dim, dtype_promotion, graph, quantization, shape, type, value, weight  # noqa: A004  # MAX's names
from .graph import DevicePlacementPolicy, Graph, KernelLibrary
from .type import TensorType
from .value import TensorValue
from . import ops, weights  # noqa: E402  # after the names they use

__all__ = ["AlgebraicDim", "DevicePlacementPolicy", "BufferType", "BufferValue", "BufferValueLike", "DeviceKind", "DeviceRef", "Dim", "DimLike", "Graph",
           "KernelLibrary", "Shape", "ShapeLike", "ShardingStrategy", "StaticDim", "SymbolicDim", "TensorType",
           "TensorValue", "TensorValueLike", "Type", "Value", "Weight", "_ChainType", "_ChainValue", "_OpaqueType", "dim", "dtype_promotion",
           "graph", "ops", "quantization", "shape", "type", "value", "weight", "weights"]
