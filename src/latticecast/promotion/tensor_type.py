"""``TensorType``: a tensor's dtype, shape and device, as MAX's ``max.graph.TensorType`` spells it.

``TensorType(dtype, shape, device)``: ``shape`` holds sizes and symbolic dimensions
(``["batch", 10]``, see :mod:`latticecast.promotion.dims`); ``device`` is a
:class:`~latticecast.promotion.device_ref.DeviceRef` (or MAX's, or a name).

MAX requires ``device``; latticecast defaults it to ``DeviceRef.CPU()``. A MAX program
always passes it and means the same thing here, while a ``TensorType`` also describes
host arrays -- the runtime reports a compiled model's inputs and outputs with it, and
those are NumPy arrays -- and every latticecast program written before devices existed
says ``TensorType(dtype, shape)``. The CPU is MAX's default device too (MAX's
``InferenceSession`` always includes it).

It sits below the graph builder and the runtime, in the promotion layer: a graph declares its
inputs with it, and a compiled model reports its inputs and outputs with it, so the two compare
equal and neither layer imports the other. It imports no MLIR: it converts (:meth:`TensorType.to_mlir`,
:meth:`TensorType.from_mlir`) through MLIR's layer (:mod:`latticecast.dialect_utils.graph_types`,
reached through :mod:`.mlir_bridge`), in the current context or latticecast's default one;
:attr:`TensorType.mlir` is the type's spelling as text (``?`` for a symbolic dimension, as StableHLO
writes a dynamic one).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from .device_ref import CPU, DeviceRef, DeviceRefLike
from .dims import MAX_DIM, Shape, ShapeLike, check_shape, is_static, static_size
from .dtypes import DType, DTypeLike
from ..errors import GraphError
from .mlir_bridge import conversions as _mlir

if TYPE_CHECKING:  # types only: this module imports no MLIR (nor JAX) at run time
    from jax.sharding import PartitionSpec
    from jaxlib.mlir import ir

__all__ = ["Type", "ChainType", "OpaqueType", "TensorType", "BufferType", "MAX_DIM", "check_shape", "as_tensor_type", "FilterLayout",
           "ConvInputLayout"]


class FilterLayout(enum.Enum):
    """The order of a convolution filter's axes (MAX's ``max.graph.type.FilterLayout``): ``RSCF`` (spatial
    axes, input channels, output channels: MAX's default), ``QRSCF`` (3-D), ``FCRS`` and ``FCQRS`` (output
    channels first), ``CFRS``. ``ops.conv2d(..., filter_layout=FilterLayout.FCRS)`` reads the filter in that
    order (the convolution's dimension numbers say it; the filter is not transposed), and a
    :class:`TensorType` may carry one (``_layout``, as MAX's does).

    Example:
        >>> from latticecast.promotion.tensor_type import FilterLayout
        >>> FilterLayout.FCRS.value, FilterLayout("RSCF")
        ('FCRS', <FilterLayout.RSCF: 'RSCF'>)
    """

    RSCF = "RSCF"
    QRSCF = "QRSCF"
    FCRS = "FCRS"
    FCQRS = "FCQRS"
    CFRS = "CFRS"


class ConvInputLayout(enum.Enum):
    """The order of a convolution input's axes (MAX's ``ConvInputLayout``): ``NHWC`` (channels last, MAX's
    default) or ``NCHW``.

    Example:
        >>> from latticecast.promotion.tensor_type import ConvInputLayout
        >>> ConvInputLayout.NCHW.value
        'NCHW'
    """

    NHWC = "NHWC"
    NCHW = "NCHW"


class Type:
    """The base of the types a graph's inputs have (MAX's ``max.graph.Type``): :class:`TensorType`
    and :class:`BufferType`. As MAX's, it is generic in its MLIR type, so ``Type[Any]`` annotates
    a list that holds both.

    Example:
        >>> from typing import Any
        >>> from latticecast.promotion.tensor_type import BufferType, TensorType, Type
        >>> types: list[Type[Any]] = [TensorType("float32", [2]), BufferType("uint8", [8])]
        >>> all(isinstance(t, Type) for t in types)
        True
    """

    def __class_getitem__(cls, item: Any) -> Any:  # Any: MAX's Type is generic in an MLIR type, any one
        return cls

    @staticmethod
    def from_mlir(t: ir.Type) -> "TensorType":
        """The graph type of an MLIR type latticecast wrote (:meth:`TensorType.from_mlir`)."""
        return TensorType.from_mlir(t)


@dataclass(frozen=True)
class ChainType(Type):
    """The type of a graph's chain (MAX's ``_ChainType``, ``!mo.chain``): here ``!stablehlo.token``.

    Example:
        >>> from latticecast.promotion.tensor_type import ChainType
        >>> ChainType() == ChainType(), str(ChainType().to_mlir())
        (True, '!stablehlo.token')
    """

    def to_mlir(self) -> ir.Type:
        """``!stablehlo.token`` in the current context (latticecast's default one if none is current)."""
        return _mlir().token_type()


@dataclass(frozen=True)
class OpaqueType(Type):
    """MAX's opaque type (``_OpaqueType``, ``!mo.opaque``): a named value only MAX's custom Mojo kernels read.

    It describes such a type (a name and its parameters) so MAX code that declares one builds; StableHLO has
    no opaque values, so a graph refuses it as an input, with that reason.

    Example:
        >>> from latticecast.promotion.tensor_type import OpaqueType
        >>> OpaqueType("kv_cache", {"layers": 2}).name
        'kv_cache'
    """

    name: str
    parameters: dict[str, object] = field(default_factory=dict, hash=False, compare=True)


@dataclass(unsafe_hash=True)
class TensorType(Type):
    """A tensor of ``dtype`` and ``shape`` on ``device``: ``TensorType(DType.int16, [4])``,
    ``TensorType(DType.float32, ["batch", 10], DeviceRef.CPU())``.

    ``sharding`` (keyword only) is a ``jax.sharding.PartitionSpec`` saying how a graph input is
    split over the graph's mesh (``Graph(..., mesh=...)``; checked there). It is a layout, not part
    of the type: it takes no part in equality, so a graph's declared types and those of the model
    compiled from it compare equal (the model reports layouts as ``Model.input_shardings``).

    ``_layout`` (keyword only, MAX's private field) is a convolution filter's :class:`FilterLayout`, or
    ``None``; unlike ``sharding`` it is part of the type, as in MAX (two types that differ in it differ).

    As MAX's, a ``TensorType`` can be changed (``t.dtype = DType.int32``; the new value is checked
    as the constructor checks it) and is hashable: do not change one that is a dict key.
    """

    dtype: DType
    shape: Shape = Shape()
    device: DeviceRef = CPU
    sharding: "PartitionSpec | None" = field(default=None, compare=False, repr=False)
    _layout: "FilterLayout | None" = field(default=None, repr=False)

    def __init__(self, dtype: DTypeLike, shape: ShapeLike = (), device: DeviceRefLike = None, *,
                 sharding: "PartitionSpec | None" = None, _layout: "FilterLayout | None" = None) -> None:
        object.__setattr__(self, "dtype", DType.parse(dtype))
        object.__setattr__(self, "shape", check_shape(shape, "TensorType shape"))
        object.__setattr__(self, "device", CPU if device is None else DeviceRef.parse(device))
        object.__setattr__(self, "sharding", sharding)
        object.__setattr__(self, "_layout", _layout)

    def __setattr__(self, name: str, value: object) -> None:
        if name == "dtype":
            value = DType.parse(value)
        elif name == "shape":
            value = check_shape(value, "TensorType shape")
        elif name == "device":
            value = CPU if value is None else DeviceRef.parse(value)
        elif name == "_layout" and value is not None and not isinstance(value, FilterLayout):
            raise GraphError(f"a TensorType's _layout is a FilterLayout or None, not {value!r}")
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

    def to_mlir(self) -> ir.RankedTensorType:
        """The type as an MLIR ranked tensor type in the current context (latticecast's default one if none is
        current), MAX's ``TensorType.to_mlir``: ``tensor<3x?xf32, {...}>`` whose encoding keeps what the MLIR
        shape cannot (the device, the names of symbolic dimensions, ``_layout``), so :meth:`from_mlir` gives
        back an equal type. Graphs do not use it (their IR types carry no encoding).

        Returns:
            An ``ir.RankedTensorType``.

        Example:
            >>> from latticecast import DType
            >>> from latticecast.promotion.tensor_type import FilterLayout, TensorType
            >>> t = TensorType(DType.float32, [3, "x"], "cpu", _layout=FilterLayout.RSCF)
            >>> str(t.to_mlir())
            'tensor<3x?xf32, {device = "cpu:0", layout = "RSCF", symbols = ["", "x"]}>'
            >>> TensorType.from_mlir(t.to_mlir()) == t
            True
        """
        return _mlir().tensor_type_to_mlir(self)

    @staticmethod
    def from_mlir(t: ir.Type) -> "TensorType":
        """The :class:`TensorType` of an MLIR ranked tensor type (MAX's ``TensorType.from_mlir``): the inverse of
        :meth:`to_mlir`; a type without its encoding is on the CPU, its dynamic dimensions unnamed ones
        refused.

        Args:
            t: An ``ir.RankedTensorType`` (or an ``ir.Type`` that is one).

        Returns:
            The type.

        Raises:
            GraphError: ``t`` is not a ranked tensor type, or has a dynamic dimension without a name.

        Example:
            >>> from latticecast import DType
            >>> from latticecast.promotion.tensor_type import TensorType
            >>> TensorType.from_mlir(TensorType(DType.int8, [2]).to_mlir())
            TensorType(dtype=DType.int8, shape=[Dim(2)], device=cpu:0)
        """
        return _mlir().tensor_type_from_mlir(t)

    def __str__(self) -> str:
        text = f"{self.dtype.name}[{', '.join(map(str, self.shape))}]"
        return text if self.device == CPU else f"{text} on {self.device}"


@dataclass(unsafe_hash=True)
class BufferType(Type):
    """A mutable buffer of ``dtype`` and ``shape`` on ``device`` (MAX's ``max.graph.BufferType``), as far
    as a latticecast graph has buffers: an input of this type is a :class:`~latticecast.graph.value.BufferValue`
    that names a device and takes no part in the computation. StableHLO values are immutable and its
    collectives synchronise themselves, so MAX's uses of buffers that latticecast supports are the
    signal buffers of its collectives (:class:`latticecast.max.nn.Signals`); such an input is not an
    argument of the compiled program (see docs/sharding.rst, "Multi-device graphs").

    Args:
        dtype: The element type.
        shape: The sizes (symbolic dimensions allowed).
        device: The device (default the CPU).

    Example:
        >>> from latticecast.promotion.tensor_type import BufferType
        >>> BufferType("uint8", [16], "gpu:1")
        BufferType(dtype=DType.uint8, shape=[Dim(16)], device=gpu:1)
    """

    dtype: DType
    shape: Shape = Shape()
    device: DeviceRef = CPU

    def __init__(self, dtype: DTypeLike, shape: ShapeLike = (), device: DeviceRefLike = None) -> None:
        self.dtype = DType.parse(dtype)
        self.shape = check_shape(shape, "BufferType shape")
        self.device = CPU if device is None else DeviceRef.parse(device)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def as_tensor(self) -> TensorType:
        """The tensor type of the buffer's contents (MAX's ``BufferType.as_tensor``).

        Returns:
            A :class:`TensorType` of the same dtype, shape and device.

        Example:
            >>> from latticecast.promotion.tensor_type import BufferType
            >>> BufferType("int32", [4], "gpu:0").as_tensor()
            TensorType(dtype=DType.int32, shape=[Dim(4)], device=gpu:0)
        """
        return TensorType(self.dtype, self.shape, self.device)


def as_tensor_type(t: object) -> TensorType:
    """``t`` as a :class:`TensorType`: a graph's input type or a control-flow op's result type, given as
    a :class:`TensorType`, a ``(dtype, shape[, device])`` tuple, or MAX's ``TensorType``.

    Args:
        t: The type.

    Returns:
        A :class:`TensorType`.

    Raises:
        GraphError: ``t`` is not a tensor type.

    Example:
        >>> from latticecast.promotion.tensor_type import as_tensor_type
        >>> as_tensor_type(("int8", [2])).shape
        [Dim(2)]
    """
    if isinstance(t, TensorType):
        return t
    if isinstance(t, BufferType) or type(t).__name__ == "BufferType":
        raise GraphError(f"{t!r} is a buffer type, and a tensor type is needed here: use "
                         "TensorType(dtype, shape, device) (buffers are graph inputs only)")
    if isinstance(t, (tuple, list)):
        return TensorType(*t)
    if hasattr(t, "dtype") and hasattr(t, "shape"):  # MAX's TensorType (MAX is untyped here)
        return TensorType(getattr(t, "dtype"), getattr(t, "shape"), getattr(t, "device", None))
    raise GraphError(f"input type {t!r} is not a tensor type: use TensorType(dtype, shape, device) (latticecast "
                     "graphs take tensors only, not MAX's buffer or opaque types)")
