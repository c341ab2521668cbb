"""``TensorType``: a tensor's dtype, shape and device, as MAX's ``max.graph.TensorType`` spells it.

``TensorType(dtype, shape, device)``: ``shape`` holds sizes and symbolic dimensions
(``["batch", 10]``, see :mod:`latticecast.dims`); ``device`` is a
:class:`~latticecast.device_ref.DeviceRef` (or MAX's, or a name).

MAX requires ``device``; latticecast defaults it to ``DeviceRef.CPU()``. A MAX program
always passes it and means the same thing here, while a ``TensorType`` also describes
host arrays -- the runtime reports a compiled model's inputs and outputs with it, and
those are NumPy arrays -- and every latticecast program written before devices existed
says ``TensorType(dtype, shape)``. The CPU is MAX's default device too (MAX's
``InferenceSession`` always includes it).

It sits below the graph builder and the runtime: a graph declares its inputs with it,
and a compiled model reports its inputs and outputs with it, so the two compare equal
and neither layer imports the other. It imports nothing from MLIR; :attr:`TensorType.mlir`
is the type's spelling as text (``?`` for a symbolic dimension, as StableHLO writes a
dynamic one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from .device_ref import CPU, DeviceRef, DeviceRefLike
from .dims import MAX_DIM, Shape, check_shape, is_static, static_size
from .dtypes import DType, DTypeLike
from .errors import GraphError

__all__ = ["TensorType", "MAX_DIM", "check_shape", "as_tensor_type"]


@dataclass(unsafe_hash=True)
class TensorType:
    """A tensor of ``dtype`` and ``shape`` on ``device``: ``TensorType(DType.int16, [4])``,
    ``TensorType(DType.float32, ["batch", 10], DeviceRef.CPU())``.

    ``sharding`` (keyword only) is a ``jax.sharding.PartitionSpec`` saying how a graph input is
    split over the graph's mesh (``Graph(..., mesh=...)``; checked there). It is a layout, not part
    of the type: it takes no part in equality, so a graph's declared types and those of the model
    compiled from it compare equal (the model reports layouts as ``Model.input_shardings``).

    As MAX's, a ``TensorType`` can be changed (``t.dtype = DType.int32``; the new value is checked
    as the constructor checks it) and is hashable: do not change one that is a dict key.
    """

    dtype: DType
    shape: Shape = Shape()
    device: DeviceRef = CPU
    sharding: Any = field(default=None, compare=False, repr=False)

    def __init__(self, dtype: DTypeLike, shape: Iterable[Any] = (), device: DeviceRefLike = None, *,
                 sharding: Any = None) -> None:
        object.__setattr__(self, "dtype", DType.parse(dtype))
        object.__setattr__(self, "shape", check_shape(shape, "TensorType shape"))
        object.__setattr__(self, "device", CPU if device is None else DeviceRef.parse(device))
        object.__setattr__(self, "sharding", sharding)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "dtype":
            value = DType.parse(value)
        elif name == "shape":
            value = check_shape(value, "TensorType shape")
        elif name == "device":
            value = CPU if value is None else DeviceRef.parse(value)
        object.__setattr__(self, name, value)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        """Whether every dimension is a size (no symbolic dimension)."""
        return is_static(self.shape)

    @property
    def np_dtype(self) -> np.dtype:
        """The NumPy dtype that holds values of this type on the host."""
        return self.dtype.np_dtype

    def num_elements(self) -> int:
        """The number of elements (MAX's name); a symbolic shape has no number yet."""
        n = static_size(self.shape)
        if n is None:
            raise GraphError(f"{self} has symbolic dimensions: its number of elements is known only when the "
                             "graph is called")
        return n

    def cast(self, dtype: DTypeLike) -> "TensorType":
        """The same shape and device with another dtype (MAX's ``TensorType.cast``)."""
        return TensorType(dtype, self.shape, self.device)

    @property
    def mlir(self) -> str:
        """The MLIR spelling, ``tensor<4xi16>`` (``tensor<?x10xf32>`` for a symbolic dimension)."""
        return "tensor<" + "".join(f"{int(d) if isinstance(d, int) else '?'}x" for d in self.shape) + \
            self.dtype.mlir_name + ">"

    def __str__(self) -> str:
        text = f"{self.dtype.name}[{', '.join(map(str, self.shape))}]"
        return text if self.device == CPU else f"{text} on {self.device}"


def as_tensor_type(t: Any) -> TensorType:
    """``t`` as a :class:`TensorType`: a graph's input type or a control-flow op's result type, given as
    a :class:`TensorType`, a ``(dtype, shape[, device])`` tuple, or MAX's ``TensorType``.

    Args:
        t: The type.

    Returns:
        A :class:`TensorType`.

    Raises:
        GraphError: ``t`` is not a tensor type.

    Example:
        >>> from latticecast.tensor_type import as_tensor_type
        >>> as_tensor_type(("int8", [2])).shape
        (2,)
    """
    if isinstance(t, TensorType):
        return t
    if isinstance(t, (tuple, list)):
        return TensorType(*t)
    if hasattr(t, "dtype") and hasattr(t, "shape"):
        return TensorType(t.dtype, t.shape, getattr(t, "device", None))
    raise GraphError(f"input type {t!r} is not a tensor type: use TensorType(dtype, shape, device) (latticecast "
                     "graphs take tensors only, not MAX's buffer or opaque types)")
