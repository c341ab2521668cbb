"""MAX's ``max.graph.value``: the values a graph computes (their home: :mod:`latticecast.graph.value`).

Every graph value is a :class:`latticecast.Value`; :class:`TensorValue` is MAX's name for it (``isinstance``
holds for every value and weight) and MAX's constructor (``TensorValue(array)`` is a constant of the graph
being built).

Example:
    >>> import numpy as np
    >>> from latticecast.max.graph import Graph
    >>> from latticecast.max.graph.value import TensorValue
    >>> with Graph("g") as g:
    ...     v = TensorValue(np.arange(3, dtype=np.int32))
    ...     isinstance(v, TensorValue), v.dtype
    (True, DType.int32)
"""

from __future__ import annotations


from ...promotion.device_ref import DeviceRef
from ...promotion.dims import Dim, DimLike, Shape, ShapeLike
from ...graph import ops
from ...graph.ops.operands import as_value, graph_of
from ...graph.value import BufferValue, BufferValueLike, Numeric, StrongTensorValueLike, TensorValueLike, Value
from ...graph.weight import Weight
from ...promotion.tensor_type import BufferType, FilterLayout, TensorType, Type
from ...promotion.value_fit import Scalar
from ..dtype import DType

__all__ = ["BufferType", "BufferValue", "BufferValueLike", "Numeric", "StrongTensorValueLike", "DType", "DeviceRef", "Dim", "DimLike", "FilterLayout", "Scalar", "Shape",
           "ShapeLike", "TensorType", "TensorValue", "TensorValueLike", "Type", "Value", "ops"]


def _is_strong_tensor_value_like(obj: object) -> bool:
    """MAX's test of a value whose dtype is its own: a graph value (or weight), a ``Shape`` or a ``Dim``; not a
    Python number, and not a buffer or a type."""
    return isinstance(obj, (Value, Weight, Shape, Dim))


class _ValueType(type):
    """``isinstance(v, TensorValue)`` holds for every graph value (they are all tensors here) and, as in
    MAX, for every :class:`Weight`."""

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, (Value, Weight))

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, (Value, Weight))


class TensorValue(metaclass=_ValueType):
    """MAX's ``TensorValue``: ``TensorValue(x)`` is ``x`` as a value of its graph (a NumPy array becomes a
    constant of the current graph; a Python scalar is refused, as in MAX), and every graph value is an
    instance. The values themselves are :class:`latticecast.Value`."""

    def __new__(cls, value: TensorValueLike) -> Value:  # type: ignore[misc]  # MAX's constructor gives a graph value
        return as_value(value, graph_of(value))
