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

import numpy as np

from ....promotion.device_ref import DeviceRef, DeviceRefLike
from ....promotion.dtypes import DTypeLike
from ....promotion.dtypes import DType as _DType
from ....errors import GraphError, GraphTypeError
from ....graph.ops import *  # noqa: F401,F403
from ....graph.ops import __all__ as _ops
from ....graph.ops import ConstantValue, constant as _constant
from ....graph.value import Value
from ....graph.ops.resize import InterpolationMode
from ....graph.value import TensorValueLike
from ....promotion.tensor_type import TensorType
from ...dtype import DType
from ..graph import Graph
from ..value import TensorValue
from .. import dtype_promotion

# MAX's op submodules, imported for certain: `from . import random` would take the star import's names instead
for _name in ("allreduce", "complex", "distributed_ep", "elementwise", "irfft", "random", "reducescatter", "reduction"):
    globals()[_name] = importlib.import_module(f"{__name__}.{_name}")
from ....graph.ops.signal import irfft  # noqa: E402  # ops.irfft is the function, as in MAX (the module is loaded)


def constant(value: ConstantValue, dtype: DTypeLike | None = None,  # type: ignore[no-redef]  # MAX's, over the star import
             device: DeviceRefLike = None) -> Value:
    """MAX's ``ops.constant``, with MAX's refusals: :func:`latticecast.ops.constant` after MAX's checks.

    A Python number or (nested) list needs both ``dtype`` and ``device`` (MAX's ``TypeError``); an array keeps
    its own dtype, and a ``dtype`` that differs is MAX's ``ValueError``; a sub-byte dtype is MAX's ``TypeError``.
    (``latticecast.ops.constant`` takes the policy's defaults where MAX refuses.)

    Args:
        value: A NumPy array (or a DLPack array such as a ``Buffer``), or a Python number or nested list.
        dtype: The constant's dtype: required for a Python value; for an array, its own dtype or ``None``.
        device: Where it lives: required for a Python value; for an array, default the graph's device.

    Returns:
        The constant, a graph value.

    Raises:
        GraphTypeError: A Python value without ``dtype`` or ``device``, or a sub-byte ``dtype`` (a
            ``TypeError``, as MAX's).
        GraphError: An array of another dtype than ``dtype`` (a ``ValueError``, as MAX's), or values that do
            not fit ``dtype``.

    Example:
        >>> import numpy as np
        >>> from latticecast.max.graph import DeviceRef, Graph, ops
        >>> from latticecast.max.dtype import DType
        >>> with Graph("c"):
        ...     ops.constant([[1, 2], [3, 4]], DType.int8, DeviceRef.CPU()).shape
        ...     ops.constant([1, 2], DType.int8)
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphTypeError: Literal constants must explicitly set a dtype and device. ...
    """
    parsed = None if dtype is None else _DType.parse(dtype)
    if parsed is not None and parsed.size_in_bits < 8:
        raise GraphTypeError(f"Cannot create a constant of type '{parsed.name}' since it is a sub-byte type.")
    array = isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "__dlpack__")
    if not array:
        if parsed is None or device is None:
            raise GraphTypeError("Literal constants must explicitly set a dtype and device. (latticecast: MAX reads a "
                                 "Python value only in a dtype and on a device you name: "
                                 "ops.constant(value, DType.float32, DeviceRef.CPU()))")
    else:
        own = _DType.from_numpy(np.asarray(value).dtype)
        if parsed is not None and parsed != own:
            raise GraphError(f"DType must match input dtype: dtype={parsed!r} != value.dtype={own!r} (latticecast: "
                             f"an array keeps its dtype; convert it first, value.astype(...), or leave dtype out)")
    return _constant(value, parsed, device)

__all__ = [*_ops, "DType", "DeviceRef", "Graph", "InterpolationMode", "TensorType", "TensorValue", "TensorValueLike",
           "allreduce", "complex", "distributed_ep", "dtype_promotion", "elementwise", "random", "reducescatter", "reduction"]
