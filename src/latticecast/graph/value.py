"""``Value``: a tensor value of a graph, MAX's ``TensorValue``, with Python's operators.

Its methods have MAX's names, signatures and meanings: ``x.transpose(0, 1)`` swaps two
axes (``x.T`` the last two; ``x.permute(dims)`` permutes all), ``x.max()``, ``x.min()``,
``x.mean()``, ``x.argmax()``, ``x.var()`` and ``x.stdev()`` reduce one axis (default -1)
and keep it with size 1, ``x[0]`` and ``x[:, 1:3]`` index as MAX does (see
:mod:`.ops.indexing`), ``x.to(device)``, ``x.rebind(shape)``. A value is not iterable
and has no truth value (MAX's ``bool(x)`` is always true, a silent trap in ``if x:``).
latticecast's own: ``x.sum(axis=-1)`` (``ops.sum``; MAX has no such method), ``x.astype``,
``abs(x)``, and ``& | ^ ~ << >>`` on integers (bitwise; MAX's are logical, bool only).

Every operator and method is a call into :mod:`latticecast.graph.ops` (the cycle
``value <-> ops`` is deliberate, as in MAX: values have methods, ops take values).
NumPy is told to defer to these operators: ``np.float64(1.5) + x`` reaches
:meth:`Value.__array_ufunc__`, so a NumPy scalar on either side promotes the same way, as a
strongly typed value. Under a policy that makes NumPy values weak (MAX 26.7's), NumPy's
operator runs first in MAX, element by element, and the values reach the op as the Python
scalars NumPy's object loop makes of them (see
:func:`~latticecast.graph.ops.operands.numpy_operator_operand`).
"""

from __future__ import annotations

import functools
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Sequence, Union

import numpy as np
from jaxlib.mlir import ir

from ..promotion.device_ref import DeviceRef, DeviceRefLike
from ..promotion.dims import Dim, DimLike, Shape, SymbolicDim, shape_of
from ..promotion.dtypes import DType, DTypeLike
from ..promotion.tensor_type import BufferType, ChainType, TensorType
from ..promotion.weak import PType, Weak

if TYPE_CHECKING:
    from .graph import Graph
    from .weight import Weight

__all__ = ["Value", "BufferValue", "TensorValueLike", "Index"]

TensorValueLike = Union["Value", "Weight", bool, int, float, complex, np.ndarray, np.generic,
                        Sequence[Any]]  # Any: a nested list of any depth, read by NumPy
"""What an op takes as an operand: a :class:`Value` (or a :class:`~latticecast.graph.weight.Weight`: its
value in the graph being built), a Python scalar (weakly typed), or a NumPy
array, NumPy scalar or nested list (a strongly typed constant; a NumPy value is weak in ops that
promote under a policy that says so, ``policy.numpy_values.weak``: MAX 26.7's)."""
StrongTensorValueLike = Union["Value", np.ndarray]
"""What an op takes as a strongly typed operand (MAX's ``StrongTensorValueLike``): a value or an array, whose
dtype is its own (a Python scalar is weak: the other operand's dtype decides)."""
Numeric = Union[int, float, np.integer, np.floating, np.ndarray]
"""MAX's ``Numeric``: a number or an array of numbers."""
BufferValueLike = Union["BufferValue"]
"""MAX's ``BufferValueLike``: what a buffer operand may be (a :class:`BufferValue`)."""
IndexItem = Union[int, np.integer, slice, EllipsisType, None, "Value", tuple[slice, DimLike]]
"""One index of ``x[...]``: an integer, a slice, ``...``, ``None`` (a new axis), an index value, or MAX's
``(slice, out_dim)`` (see :mod:`latticecast.graph.ops.indexing`)."""
Index = Union[IndexItem, tuple[IndexItem, ...], Sequence[int]]
"""What ``x[...]`` takes: one index, or a tuple of them."""


class Value:
    """A tensor in a graph. ``dtype`` is the type it is stored as; ``ptype`` adds whether it is
    weakly typed (a Python scalar, or computed only from them), which decides how it promotes."""

    __slots__ = ("graph", "ir", "ptype", "_shape", "storage")
    __array_priority__ = 1000

    def __init__(self, graph: "Graph", value: ir.Value[ir.Type], ptype: PType, shape: "Sequence[int | Dim]",
                 storage: DType | None = None) -> None:
        self.graph = graph
        self.ir = value
        self.ptype = ptype
        self._shape: Shape = shape if shape.__class__ is Shape else shape_of(shape)
        self.storage: DType = storage if storage is not None else (
            ptype if ptype.__class__ is DType else graph.policy.materialize(ptype))

    # -- facts ------------------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        """The value's shape: a fresh :class:`~latticecast.promotion.dims.Shape` (a list, as MAX's; changing it
        changes nothing else)."""
        out = list.__new__(Shape)
        list.extend(out, self._shape)
        return out

    @property
    def dtype(self) -> DType:
        return self.storage

    @property
    def is_weak(self) -> bool:
        return isinstance(self.ptype, Weak)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def device(self) -> DeviceRef:
        """The device the value lives on, as MAX places it (see :meth:`Graph.device_of
        <latticecast.graph.graph.Graph.device_of>`)."""
        return self.graph.value_device(self)

    @property
    def type(self) -> TensorType:
        return TensorType(self.storage, self.shape, self.graph.value_device(self))

    @property
    def tensor(self) -> "Value":
        """The value itself (MAX's ``graph.inputs[0].tensor``: every latticecast value is a tensor)."""
        return self

    @property
    def buffer(self) -> "BufferValue":
        """MAX's ``Value.buffer``: a tensor value is no buffer, so this raises (a ``BufferType`` input's
        :class:`BufferValue` is its own ``.buffer``).

        Raises:
            TypeError: Always: the value is a tensor.

        Example:
            >>> from latticecast import DType, Graph, TensorType
            >>> g = Graph("g", input_types=[TensorType(DType.float32, [2])])
            >>> g.inputs[0].buffer
            Traceback (most recent call last):
              ...
            TypeError: this graph input is a tensor (TensorType), not a buffer; use .tensor, or give the input a BufferType
        """
        raise TypeError("this graph input is a tensor (TensorType), not a buffer; use .tensor, or give the input "
                        "a BufferType")

    def __repr__(self) -> str:
        weak = " (weak)" if self.is_weak else ""
        return f"<Value {self.storage.name}[{', '.join(map(str, self.shape))}]{weak} of {self.graph.name!r}>"

    def __bool__(self) -> bool:
        raise TypeError("a graph value has no truth value while the graph is built; use "
                        "lc.ops.where(...) for data-dependent choices")

    __iter__ = None  # not iterable (as in MAX): x[i] indexes, and a loop over a value is a mistake

    def __contains__(self, item: object) -> bool:
        raise TypeError("'Value' object is not a container (as in MAX): `in` would compare every element while "
                        "the graph is built; compare in the graph instead "
                        "(ops.reduce_max((x == item).cast(DType.int8)))")

    __hash__ = object.__hash__  # == builds a comparison, so identity decides hashing

    # -- NumPy interoperation ---------------------------------------------------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any,
                        **kwargs: Any) -> Any:  # Any: NumPy's protocol (its operands, a Value or NotImplemented)
        """``np.add(x, 1)`` and ``np.float64(1.5) + x`` build graph ops (NumPy scalars and arrays
        are strongly typed constants); any other use of a ufunc is refused.

        Under a policy that makes NumPy values weak (MAX 26.7), an elementwise ufunc (no core
        signature: not ``matmul``) gets its NumPy operands as NumPy's object loop hands them to MAX,
        one Python scalar at a time (:func:`~latticecast.graph.ops.operands.numpy_operator_operand`):
        ``np.True_ + x`` is ``True + x`` there, and an array's elements are checked as Python scalars."""
        op = _ufuncs().get(ufunc.__name__)
        if method != "__call__" or kwargs or op is None:
            return NotImplemented
        if ufunc.signature is None and self.graph.policy.numpy_values.weak:
            inputs = tuple(_ops.operands.numpy_operator_operand(x, self.graph) for x in inputs)
        return op(*inputs)

    def __array__(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a graph value has no contents while the graph is built; compile the graph "
                        "(g.compile()) and call the model to get NumPy arrays")

    # -- methods ----------------------------------------------------------------------------

    def cast(self, dtype: DTypeLike) -> "Value":
        """An explicit conversion (``stablehlo.convert``); the result is strongly typed."""
        return _ops.cast(self, dtype)

    astype = cast

    def to(self, device: DeviceRefLike) -> "Value":
        """The value on ``device`` (MAX's ``ops.transfer_to``): itself when it is there already."""
        return _ops.transfer_to(self, device)

    def reshape(self, shape: Sequence[DimLike]) -> "Value":
        return _ops.reshape(self, shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> "Value":
        return _ops.flatten(self, start_dim, end_dim)

    def broadcast_to(self, shape: Sequence[DimLike]) -> "Value":
        return _ops.broadcast_to(self, shape)

    def rebind(self, shape: Sequence[DimLike], message: str = "") -> "Value":
        return _ops.rebind(self, shape, message)

    def transpose(self, dim_1: int, dim_2: int) -> "Value":
        """Two axes swapped (MAX's meaning, not NumPy's permutation: use :meth:`permute` for that)."""
        return _ops.transpose(self, dim_1, dim_2)

    def permute(self, dims: Sequence[int]) -> "Value":
        return _ops.permute(self, dims)

    @property
    def T(self) -> "Value":
        """The last two axes swapped (MAX's ``transpose(-1, -2)``; NumPy's ``.T`` reverses all axes)."""
        return _ops.transpose(self, -1, -2)

    def __getitem__(self, index: "Index") -> "Value":
        return _ops.indexing.getitem(self, index)

    def sum(self, axis: int = -1) -> "Value":
        """``ops.sum(x, axis)``: one axis, kept with size 1 (latticecast's method; MAX has only ``ops.sum``)."""
        return _ops.sum(self, axis)

    def max(self, axis: int = -1) -> "Value":
        return _ops.max(self, axis=axis)

    def min(self, axis: int = -1) -> "Value":
        return _ops.min(self, axis=axis)

    def mean(self, axis: int = -1) -> "Value":
        return _ops.mean(self, axis)

    def argmax(self, axis: int = -1) -> "Value":
        return _ops.argmax(self, axis)

    def argmin(self, axis: int = -1) -> "Value":
        return _ops.argmin(self, axis)

    def var(self, axis: int = -1) -> "Value":
        return _ops.reduction.var(self, axis)

    def stdev(self, axis: int = -1) -> "Value":
        return _ops.reduction.stdev(self, axis)

    # -- operators --------------------------------------------------------------------------

    def __add__(self, other: TensorValueLike) -> "Value":
        return _ops.add(self, other)

    def __radd__(self, other: TensorValueLike) -> "Value":
        return _ops.add(other, self)

    def __sub__(self, other: TensorValueLike) -> "Value":
        return _ops.subtract(self, other)

    def __rsub__(self, other: TensorValueLike) -> "Value":
        return _ops.subtract(other, self)

    def __mul__(self, other: TensorValueLike) -> "Value":
        return _ops.multiply(self, other)

    def __rmul__(self, other: TensorValueLike) -> "Value":
        return _ops.multiply(other, self)

    def __truediv__(self, other: TensorValueLike) -> "Value":
        return _ops.divide(self, other)

    def __rtruediv__(self, other: TensorValueLike) -> "Value":
        return _ops.divide(other, self)

    def __floordiv__(self, other: TensorValueLike) -> "Value":
        return _ops.floor_divide(self, other)

    def __rfloordiv__(self, other: TensorValueLike) -> "Value":
        return _ops.floor_divide(other, self)

    def __mod__(self, other: TensorValueLike) -> "Value":
        return _ops.mod(self, other)

    def __rmod__(self, other: TensorValueLike) -> "Value":
        return _ops.mod(other, self)

    def __pow__(self, other: TensorValueLike) -> "Value":
        return _ops.power(self, other)

    def __rpow__(self, other: TensorValueLike) -> "Value":
        return _ops.power(other, self)

    def __matmul__(self, other: TensorValueLike) -> "Value":
        return _ops.matmul(self, other)

    def __rmatmul__(self, other: TensorValueLike) -> "Value":
        return _ops.matmul(other, self)

    def __eq__(self, other: TensorValueLike) -> "Value":  # type: ignore[override]  # elementwise, as MAX's and NumPy's
        return _ops.equal(self, other)

    def __ne__(self, other: TensorValueLike) -> "Value":  # type: ignore[override]  # elementwise, as MAX's and NumPy's
        return _ops.not_equal(self, other)

    def __lt__(self, other: TensorValueLike) -> "Value":
        return _ops.less(self, other)

    def __le__(self, other: TensorValueLike) -> "Value":
        return _ops.less_equal(self, other)

    def __gt__(self, other: TensorValueLike) -> "Value":
        return _ops.greater(self, other)

    def __ge__(self, other: TensorValueLike) -> "Value":
        return _ops.greater_equal(self, other)

    def __and__(self, other: TensorValueLike) -> "Value":
        return _ops.bitwise_and(self, other)

    def __rand__(self, other: TensorValueLike) -> "Value":
        return _ops.bitwise_and(other, self)

    def __or__(self, other: TensorValueLike) -> "Value":
        return _ops.bitwise_or(self, other)

    def __ror__(self, other: TensorValueLike) -> "Value":
        return _ops.bitwise_or(other, self)

    def __xor__(self, other: TensorValueLike) -> "Value":
        return _ops.bitwise_xor(self, other)

    def __rxor__(self, other: TensorValueLike) -> "Value":
        return _ops.bitwise_xor(other, self)

    def __lshift__(self, other: TensorValueLike) -> "Value":
        return _ops.left_shift(self, other)

    def __rlshift__(self, other: TensorValueLike) -> "Value":
        return _ops.left_shift(other, self)

    def __rshift__(self, other: TensorValueLike) -> "Value":
        return _ops.right_shift(self, other)

    def __rrshift__(self, other: TensorValueLike) -> "Value":
        return _ops.right_shift(other, self)

    def __invert__(self) -> "Value":
        return _ops.invert(self)

    def __neg__(self) -> "Value":
        return _ops.negative(self)

    def __pos__(self) -> "Value":
        return self

    def __abs__(self) -> "Value":
        return _ops.abs(self)

    def __round__(self) -> "Value":
        """Half to even, as MAX's ``round(x)`` and NumPy's."""
        return _ops.round(self)


from . import ops as _ops  # noqa: E402  (ops imports this module; Value is defined by now)



@functools.cache
def _ufuncs() -> dict[str, Callable[..., Value]]:
    """The NumPy ufuncs a graph value answers, by name (built on first use: ``ops`` imports this module)."""
    o = _ops
    return {
        "add": o.add, "subtract": o.subtract, "multiply": o.multiply, "true_divide": o.divide,
        "divide": o.divide, "floor_divide": o.floor_divide, "remainder": o.mod, "power": o.power,
        "matmul": o.matmul, "equal": o.equal, "not_equal": o.not_equal, "less": o.less,
        "less_equal": o.less_equal, "greater": o.greater, "greater_equal": o.greater_equal,
        "bitwise_and": o.bitwise_and, "bitwise_or": o.bitwise_or, "bitwise_xor": o.bitwise_xor,
        "left_shift": o.left_shift, "right_shift": o.right_shift, "invert": o.invert,
        "negative": o.negative, "absolute": o.abs, "maximum": o.maximum, "minimum": o.minimum,
        "arctan2": o.atan2, "exp": o.exp, "log": o.log, "sqrt": o.sqrt, "tanh": o.tanh,
        "sin": o.sin, "cos": o.cos, "floor": o.floor, "ceil": o.ceil, "sign": o.sign,
    }


class ChainValue:
    """A graph's chain (MAX's ``_ChainValue``): the ``!stablehlo.token`` that orders its side effects, as
    :attr:`Graph.device_chains <latticecast.Graph.device_chains>` gives it. Two chains are equal when they
    are the same IR value.

    Args:
        graph: The graph.
        value: The token.

    Example:
        >>> from latticecast import DeviceRef, Graph
        >>> with Graph("g") as g:
        ...     c = g.device_chains[DeviceRef.CPU()]
        >>> c == g.device_chains["cpu"], c.type
        (True, ChainType())
    """

    __slots__ = ("graph", "ir")

    def __init__(self, graph: "Graph", value: ir.Value[ir.Type]) -> None:
        self.graph = graph
        self.ir = value

    @property
    def type(self) -> ChainType:
        """Its type, a :class:`~latticecast.promotion.tensor_type.ChainType`."""
        return ChainType()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChainValue) and other.ir == self.ir

    def __hash__(self) -> int:
        return hash(self.ir)

    def __repr__(self) -> str:
        return f"ChainValue({self.graph.name!r})"


class BufferValue:
    """A graph input of a :class:`~latticecast.promotion.tensor_type.BufferType` (MAX's ``BufferValue``): it names
    a device and is not part of the computation (StableHLO has no mutable buffers), so it has no IR
    value. Its use is as a collective's signal buffer (:class:`latticecast.max.nn.Signals`).

    Args:
        graph: The graph whose input it is.
        type: Its :class:`~latticecast.promotion.tensor_type.BufferType`.

    Example:
        >>> from latticecast import DType, Graph, TensorType
        >>> from latticecast.promotion.tensor_type import BufferType
        >>> g = Graph("g", input_types=[TensorType(DType.float32, [2]), BufferType(DType.uint8, [8], "gpu:0")])
        >>> b = g.inputs[1].buffer
        >>> b.device, b.shape, g.devices
        (gpu:0, [Dim(8)], [cpu:0, gpu:0])
    """

    __slots__ = ("graph", "type")

    def __init__(self, graph: "Graph", type: BufferType) -> None:
        self.graph = graph
        self.type = type

    @property
    def buffer(self) -> "BufferValue":
        """The value itself (MAX's ``graph.inputs[i].buffer``)."""
        return self

    @property
    def tensor(self) -> "Value":
        raise TypeError("this graph input is a buffer (BufferType), not a tensor; use .buffer, or give the "
                        "input a TensorType")

    @property
    def device(self) -> DeviceRef:
        return self.type.device

    @property
    def dtype(self) -> DType:
        return self.type.dtype

    @property
    def shape(self) -> Shape:
        return self.type.shape

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"<BufferValue {self.dtype.name}[{', '.join(map(str, self.shape))}] on {self.device} of {self.graph.name!r}>"
