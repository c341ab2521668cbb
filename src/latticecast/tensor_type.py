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
and neither layer imports the other. It imports MLIR only to convert (:meth:`TensorType.to_mlir`,
:meth:`TensorType.from_mlir`); :attr:`TensorType.mlir` is the type's spelling as text (``?`` for a
symbolic dimension, as StableHLO writes a dynamic one).
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

    def to_mlir(self) -> Any:
        """The type as an MLIR ``RankedTensorType``: sizes as static dimensions, names and expressions as
        ``?`` (as latticecast's graphs write them), and an encoding that keeps what the tensor type
        cannot: ``{device = "cpu:0", dims = [...]}``, each dimension's :meth:`Dim.to_mlir` attribute.
        :meth:`from_mlir` reads it back. It is built in the current MLIR context (or latticecast's default).

        Returns:
            The ``ir.RankedTensorType``.

        Example:
            >>> t = TensorType(DType.float32, [3, "x"])
            >>> t.to_mlir()
            RankedTensorType(tensor<3x?xf32, {device = "cpu:0", dims = [3, @x]}>)
            >>> TensorType.from_mlir(t.to_mlir()) == t
            True
        """
        from jaxlib.mlir import ir
        from .dims import Dim, _context
        with _context(), ir.Location.unknown():
            element = ir.Type.parse(self.dtype.mlir_name)
            encoding = ir.DictAttr.get({"device": ir.StringAttr.get(str(self.device)),
                                        "dims": ir.ArrayAttr.get([Dim(d).to_mlir() for d in self.shape])})
            sizes = [int(d) if isinstance(d, int) else ir.ShapedType.get_dynamic_size() for d in self.shape]
            return ir.RankedTensorType.get(sizes, element, encoding)

    @staticmethod
    def from_mlir(t: Any) -> "TensorType":
        """The :class:`TensorType` an MLIR ranked tensor type describes: one from :meth:`to_mlir`, or one
        as latticecast's graphs write it (no encoding: the CPU, and every dimension static).

        Args:
            t: an ``ir.RankedTensorType`` (or an ``ir.Type`` that is one).

        Returns:
            The :class:`TensorType`.

        Raises:
            TypeError: ``t`` is not a ranked tensor type.
            GraphError: ``t`` has a dynamic dimension but no encoding naming it.

        Example:
            >>> from jaxlib.mlir import ir
            >>> from latticecast.dialect_utils.context import default_context
            >>> with default_context():
            ...     TensorType.from_mlir(ir.RankedTensorType.parse("tensor<2x3xi8>"))
            TensorType(dtype=DType.int8, shape=[Dim(2), Dim(3)], device=cpu:0)
        """
        from jaxlib.mlir import ir
        from .dims import Dim
        try:
            ranked = ir.RankedTensorType(t)
        except (ValueError, TypeError):
            raise TypeError(f"TensorType.from_mlir takes a ranked tensor type (tensor<2x3xf32>), not {t}") from None
        element = str(ranked.element_type)
        dtype = next((d for d in DType if not d.stablehlo_gap and d.mlir_name == element), None)
        if dtype is None:
            raise GraphError(f"{t}: latticecast has no dtype of element type {element}")
        encoding = ranked.encoding
        if encoding is None:
            if not ranked.has_static_shape:
                raise GraphError(f"{t} has dynamic dimensions and no encoding naming them; give TensorType.to_mlir()'s "
                                 "type, or a static one")
            return TensorType(dtype, list(ranked.shape))
        info = ir.DictAttr(encoding)
        dims = [Dim.from_mlir(d) for d in ir.ArrayAttr(info["dims"])]
        return TensorType(dtype, dims, ir.StringAttr(info["device"]).value)

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
        [Dim(2)]
    """
    if isinstance(t, TensorType):
        return t
    if isinstance(t, (tuple, list)):
        return TensorType(*t)
    if hasattr(t, "dtype") and hasattr(t, "shape"):
        return TensorType(t.dtype, t.shape, getattr(t, "device", None))
    raise GraphError(f"input type {t!r} is not a tensor type: use TensorType(dtype, shape, device) (latticecast "
                     "graphs take tensors only, not MAX's buffer or opaque types)")
