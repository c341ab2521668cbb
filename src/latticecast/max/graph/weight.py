"""MAX's ``max.graph.weight``: :class:`Weight` and the sharding strategies (their homes:
:mod:`latticecast.graph.weight` and :mod:`latticecast.graph.weight_sharding`).

Example:
    >>> from latticecast.max.graph.weight import Weight
    >>> from latticecast.max.dtype import DType
    >>> Weight("w", DType.float32, [2, 2]).name
    'w'
"""

from ...promotion.device_ref import DeviceRef
from ...promotion.dims import Shape, ShapeLike
from ...graph import ops
from ...graph.quantization import QuantizationEncoding
from ...graph.value import Value
from ...graph.weight import Weight
from ...graph.weight_sharding import (Segment, ShardingStrategy, axiswise_sharding_strategy, col_sharding_strategy,
                                      expert_parallel_sharding_strategy, gate_up_sharding_strategy,
                                      head_aware_col_sharding_strategy, replicate_sharding_strategy,
                                      row_sharding_strategy, segmented_sharding_strategy,
                                      stacked_qkv_sharding_strategy, tensor_parallel_sharding_strategy)
from ..dtype import DType
from . import graph
from .value import TensorValue

__all__ = ["DType", "DeviceRef", "QuantizationEncoding", "Segment", "Shape", "ShapeLike", "ShardingStrategy",
           "TensorValue", "Value", "Weight", "axiswise_sharding_strategy", "col_sharding_strategy",
           "expert_parallel_sharding_strategy", "gate_up_sharding_strategy", "graph",
           "head_aware_col_sharding_strategy", "ops", "replicate_sharding_strategy", "row_sharding_strategy",
           "segmented_sharding_strategy", "stacked_qkv_sharding_strategy", "tensor_parallel_sharding_strategy"]
