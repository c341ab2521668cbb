"""MAX's ``max.graph.ops.distributed_ep``: expert-parallel dispatch and combine (their home:
:mod:`latticecast.graph.ops.experts`, which checks MAX's operands and refuses: raw device addresses and atomics
have no StableHLO form).

Example:
    >>> from latticecast.max.graph.ops import distributed_ep
    >>> distributed_ep.combine.__name__
    'combine'
"""

from ....graph.ops.experts import (combine, dispatch_bf16, dispatch_block_scaled_nv,
                                   dispatch_block_scaled_nv_dyn_global_scales, dispatch_fp8, dispatch_mxfp4)
from ....graph.value import BufferValue, Value
from ....promotion.tensor_type import TensorType
from ..graph import Graph
from ..value import TensorValue

__all__ = ["BufferValue", "Graph", "TensorType", "TensorValue", "Value", "combine", "dispatch_bf16",
           "dispatch_block_scaled_nv", "dispatch_block_scaled_nv_dyn_global_scales", "dispatch_fp8", "dispatch_mxfp4"]
