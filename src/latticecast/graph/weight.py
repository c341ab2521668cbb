"""``Weight``: a named tensor whose value is supplied when the graph is loaded, as MAX's ``max.graph.Weight``.

``Weight(name, dtype, shape, device)`` is made outside any graph. Using it in a graph (as an
operand, through a method, or with ``g.add_weight(w)``) adds it to the graph being built, once:
MAX emits an external constant (``mo.constant.external``) whose data the engine binds at load
time from ``weights_registry``. StableHLO has no external constants, so here a weight becomes an
argument of ``@main`` after the graph's inputs, in the order the weights were first used
(:attr:`Graph.weights <latticecast.Graph.weights>`). ``latticecast.max.engine`` binds the values
by name when it loads the graph, as MAX's engine does; ``g.compile()`` gives a model that takes
them after the inputs.

A weight's value is never known while the graph is built (MAX's neither), so a weight is never a
constant: the same compiled model runs with other weights. Its shape is static (the registry's
arrays have sizes) and its device is the graph's (latticecast compiles a graph for one device).

A ``quantization_encoding`` marks a ``uint8`` weight of packed GGUF blocks, as in MAX
(:mod:`latticecast.graph.weights` gives such weights; ``ops.dequantize`` unpacks them in the graph).
Refused, with the reason: a ``sharding_strategy`` (MAX slices a weight per
device in Python; here a graph over a mesh shards a value with ``ops.shard``). ``align`` is kept
and has nothing to decide: PJRT allocates and aligns the buffers it binds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

import numpy as np

from ..promotion.device_ref import CPU, DeviceRef, DeviceRefLike
from ..promotion.dims import DimLike, Shape, is_static
from ..promotion.dtypes import DType, DTypeLike
from ..errors import GraphError, NoCurrentGraphError
from ..promotion.tensor_type import TensorType
from .current import current_graph
from .quantization import QuantizationEncoding

if TYPE_CHECKING:
    from .value import Index, TensorValueLike, Value

__all__ = ["Weight"]


class Weight:
    """A tensor named ``name`` of ``dtype`` and ``shape`` on ``device``, whose value the engine supplies.

    Args:
        name: The weight's name: the key of its value in ``weights_registry``. Unique in a graph.
        dtype: Its element type (a :class:`~latticecast.DType`, MAX's, or a name).
        shape: Its sizes: integers only (a weight's value is an array with sizes).
        device: Where it lives: the graph's device (a :class:`~latticecast.DeviceRef`, MAX's, or a
            ``latticecast.max.driver`` device). The CPU when ``None``.
        quantization_encoding: A :class:`~latticecast.graph.quantization.QuantizationEncoding` for a ``uint8``
            weight of packed GGUF blocks (``ops.dequantize`` unpacks them), or ``None``.
        align: A byte alignment (a positive power of two), or ``None``; kept, with nothing to decide.
        sharding_strategy: Must be ``None``: shard a value over a graph's mesh with ``ops.shard``.

    Raises:
        GraphError: An empty name, a symbolic dimension, a bad ``align``, a quantization encoding that is
            not one, or a sharding strategy; the message says what to write instead.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, DeviceRef, Graph, TensorType
        >>> from latticecast.graph.weight import Weight
        >>> w = Weight("w", DType.float32, [2, 3], DeviceRef.CPU())
        >>> with Graph("project", input_types=[TensorType(DType.float32, [1, 2])]) as g:
        ...     g.output(g.inputs[0] @ w)
        >>> [(name, str(t)) for name, t in g.weights.items()]
        [('w', 'float32[2, 3]')]
        >>> g.compile()(np.ones((1, 2), np.float32), np.ones((2, 3), np.float32))
        [array([[2., 2., 2.]], dtype=float32)]
    """

    __array_priority__ = 1000

    if TYPE_CHECKING:  # the operators set after the class (OPERATORS), as the type checker sees them
        # (== and != too, which keep object's signature here)
        def __add__(self, other: TensorValueLike) -> Value: ...
        def __radd__(self, other: TensorValueLike) -> Value: ...
        def __sub__(self, other: TensorValueLike) -> Value: ...
        def __rsub__(self, other: TensorValueLike) -> Value: ...
        def __mul__(self, other: TensorValueLike) -> Value: ...
        def __rmul__(self, other: TensorValueLike) -> Value: ...
        def __truediv__(self, other: TensorValueLike) -> Value: ...
        def __rtruediv__(self, other: TensorValueLike) -> Value: ...
        def __floordiv__(self, other: TensorValueLike) -> Value: ...
        def __rfloordiv__(self, other: TensorValueLike) -> Value: ...
        def __mod__(self, other: TensorValueLike) -> Value: ...
        def __rmod__(self, other: TensorValueLike) -> Value: ...
        def __pow__(self, other: TensorValueLike) -> Value: ...
        def __rpow__(self, other: TensorValueLike) -> Value: ...
        def __matmul__(self, other: TensorValueLike) -> Value: ...
        def __rmatmul__(self, other: TensorValueLike) -> Value: ...
        def __lt__(self, other: TensorValueLike) -> Value: ...
        def __le__(self, other: TensorValueLike) -> Value: ...
        def __gt__(self, other: TensorValueLike) -> Value: ...
        def __ge__(self, other: TensorValueLike) -> Value: ...
        def __and__(self, other: TensorValueLike) -> Value: ...
        def __rand__(self, other: TensorValueLike) -> Value: ...
        def __or__(self, other: TensorValueLike) -> Value: ...
        def __ror__(self, other: TensorValueLike) -> Value: ...
        def __xor__(self, other: TensorValueLike) -> Value: ...
        def __rxor__(self, other: TensorValueLike) -> Value: ...
        def __lshift__(self, other: TensorValueLike) -> Value: ...
        def __rlshift__(self, other: TensorValueLike) -> Value: ...
        def __rshift__(self, other: TensorValueLike) -> Value: ...
        def __rrshift__(self, other: TensorValueLike) -> Value: ...
        def __invert__(self) -> Value: ...
        def __neg__(self) -> Value: ...
        def __pos__(self) -> Value: ...
        def __abs__(self) -> Value: ...
        def __round__(self) -> Value: ...
        def __getitem__(self, index: Index) -> Value: ...

    def __init__(self, name: str, dtype: DTypeLike, shape: Iterable[DimLike], device: DeviceRefLike = None,
                 quantization_encoding: QuantizationEncoding | None = None, align: int | None = None,
                 sharding_strategy: object = None, **max_private: object) -> None:
        if not isinstance(name, str) or not name:
            raise GraphError(f"a weight's name must be a non-empty string (its key in weights_registry), "
                             f"not {name!r}")
        if quantization_encoding is not None:
            if not isinstance(quantization_encoding, QuantizationEncoding):
                raise GraphError(f"weight {name!r}: quantization_encoding={quantization_encoding!r} must be a "
                                 "QuantizationEncoding (max.graph.quantization), or None")
        if sharding_strategy is not None:
            raise GraphError(f"weight {name!r}: sharding_strategy= is refused: MAX keeps one weight per device, and "
                             "latticecast compiles a graph for one device; call the strategy for the piece a device "
                             "holds (strategy(weight, i), a value of the graph), or shard over a mesh "
                             "(Graph(..., mesh=...) and ops.shard(value, PartitionSpec(...))). Leave "
                             "sharding_strategy out")
        if align is not None and (isinstance(align, bool) or not isinstance(align, int) or align <= 0
                                  or align & (align - 1)):
            raise GraphError(f"weight {name!r}: align={align!r} must be a positive power of two (bytes), or None")
        unknown = sorted(set(max_private) - {"_placeholder", "_has_alias"})
        if unknown:
            raise GraphError(f"Weight({name!r}, ...): unexpected argument(s) {', '.join(unknown)}; a Weight takes "
                             "name, dtype, shape, device, quantization_encoding, align, sharding_strategy")
        tensor_type = TensorType(dtype, shape, CPU if device is None else device)
        if not is_static(tensor_type.shape):
            raise GraphError(f"weight {name!r} has shape {tensor_type.shape}: a weight's shape is static "
                             "(its value is an array with sizes); give every dimension as an integer")
        self.name = name
        self.type = tensor_type
        self.quantization_encoding = quantization_encoding
        self.align = align

    @property
    def dtype(self) -> DType:
        return self.type.dtype

    @property
    def shape(self) -> Shape:
        """Its sizes, a :class:`~latticecast.promotion.dims.Shape` (all static: checked)."""
        return Shape(self.type.shape)

    @property
    def device(self) -> DeviceRef:
        return self.type.device

    @property
    def rank(self) -> int:
        return self.type.rank

    @property
    def sharding_strategy(self) -> None:
        """Always ``None`` (a sharding strategy is refused; see the module)."""
        return None

    def value(self) -> "Value":
        """The weight as a value of the graph being built (``Graph.current``), added to it on first use.

        Raises:
            NoCurrentGraphError: No graph is being built here (MAX raises ``ValueError``: a
                ``NoCurrentGraphError`` is a ``GraphError``, which is one).
        """
        try:
            graph = current_graph()
        except NoCurrentGraphError as e:
            raise NoCurrentGraphError(f"Cannot operate on a `max.graph.Weight` when there is no parent graph: "
                                      f"weight {self.name!r} becomes a value of the graph being built; {e}") from None
        return graph.add_weight(self)

    def __repr__(self) -> str:
        return f"Weight({self.name}, {self.dtype!r}, {self.shape}, {self.device})"

    def __getattr__(self, attr: str) -> Any:  # Any: whatever the value's attribute is (w.T, w.reshape)
        # the value's methods (w.T, w.transpose(0, 1), w.reshape(...), w.cast(...)) on the current graph's value;
        # private and special names are not forwarded (copy, pickle and hasattr probes stay plain)
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(self.value(), attr)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:  # NumPy's protocol
        value = self.value()
        inputs = tuple(value if x is self else x for x in inputs)
        return value.__array_ufunc__(ufunc, method, *inputs, **kwargs)

    def __bool__(self) -> bool:
        raise GraphError(f"weight {self.name!r} has no truth value (its value is known only when the graph runs)")


def _forward(name: str) -> "Callable[..., Value]":
    def method(self: Weight, *args: object) -> "Value":
        result: Value = getattr(self.value(), name)(*args)
        return result
    method.__name__ = name
    method.__doc__ = f"The value's ``{name}`` (see :class:`~latticecast.Value`)."
    return method


OPERATORS = tuple(f"__{op}__" for op in (
    "add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv", "rfloordiv", "mod", "rmod",
    "pow", "rpow", "matmul", "rmatmul", "eq", "ne", "lt", "le", "gt", "ge", "and", "rand", "or", "ror", "xor",
    "rxor", "lshift", "rlshift", "rshift", "rrshift", "invert", "neg", "pos", "abs", "round", "getitem"))
"""The operators a weight takes as its value does (Python looks them up on the class, not through
``__getattr__``)."""

for _name in OPERATORS:
    setattr(Weight, _name, _forward(_name))  # set after the class: Weight stays hashable by identity
