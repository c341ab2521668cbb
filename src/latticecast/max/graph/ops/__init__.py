"""MAX's ``max.graph.ops``: the ops (their homes: :mod:`latticecast.graph.ops`, one module per family), and
MAX's op submodules under their own names: ``random``, ``allreduce``, ``elementwise``, ``reduction``,
``complex``, ``irfft`` (the module; ``ops.irfft`` is the function, as in MAX) and ``distributed_ep``.

Example:
    >>> import numpy as np
    >>> from latticecast.max.graph import DeviceRef, Graph, TensorType, ops
    >>> from latticecast.max.dtype import DType
    >>> with Graph("g", input_types=[TensorType(DType.float32, [2], DeviceRef.CPU())]) as g:
    ...     g.output(ops.relu(g.inputs[0]))
    >>> g.compile()(np.array([-1, 2], np.float32))[0].tolist()
    [0.0, 2.0]
"""

import importlib

from ....device_ref import DeviceRef
from ....graph.ops import *  # noqa: F401,F403
from ....graph.ops import __all__ as _ops
from ....graph.ops.resize import InterpolationMode
from ....graph.value import TensorValueLike
from ....tensor_type import TensorType
from ...dtype import DType
from ..graph import Graph
from ..value import TensorValue
from .. import dtype_promotion

# MAX's op submodules, imported for certain: `from . import random` would take the star import's names instead
for _name in ("allreduce", "complex", "distributed_ep", "elementwise", "irfft", "random", "reducescatter", "reduction"):
    globals()[_name] = importlib.import_module(f"{__name__}.{_name}")
from ....graph.ops.signal import irfft  # noqa: E402  # ops.irfft is the function, as in MAX (the module is loaded)

__all__ = [*_ops, "DType", "DeviceRef", "Graph", "InterpolationMode", "TensorType", "TensorValue", "TensorValueLike",
           "allreduce", "complex", "distributed_ep", "dtype_promotion", "elementwise", "random", "reducescatter", "reduction"]
