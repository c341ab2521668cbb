"""``Value``: a tensor value of a graph, with NumPy's operators (MAX's ``TensorValue``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from jaxlib.mlir import ir

from ..dtypes import DType
from ..weak import PType, Weak
from .types import GraphError, TensorType

if TYPE_CHECKING:
    from .graph import Graph

__all__ = ["Value", "as_value"]


class Value:
    """A tensor in a graph. ``dtype`` is the type it is stored as; ``ptype`` adds whether it is
    weakly typed (a Python scalar, or computed only from them), which decides how it promotes."""

    __slots__ = ("graph", "ir", "ptype", "shape", "storage")

    def __init__(self, graph: "Graph", value: ir.Value, ptype: PType, shape: Sequence[int],
                 storage: DType | None = None) -> None:
        self.graph = graph
        self.ir = value
        self.ptype = ptype
        self.shape: tuple[int, ...] = tuple(shape)
        self.storage: DType = storage if storage is not None else (
            ptype if isinstance(ptype, DType) else graph.policy.materialize(ptype))

    # -- facts ------------------------------------------------------------------------------

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
    def type(self) -> TensorType:
        return TensorType(self.storage, self.shape)

    def __repr__(self) -> str:
        weak = " (weak)" if self.is_weak else ""
        return f"<Value {self.storage.name}[{', '.join(map(str, self.shape))}]{weak} of {self.graph.name!r}>"

    def __bool__(self) -> bool:
        raise TypeError("a graph value has no truth value while the graph is built; use "
                        "lc.ops.where(...) for data-dependent choices")

    __hash__ = object.__hash__  # == builds a comparison, so identity decides hashing

    # -- methods ----------------------------------------------------------------------------

    def cast(self, dtype: "DType | str") -> "Value":
        """An explicit conversion (``stablehlo.convert``); the result is strongly typed."""
        return _ops.cast(self, dtype)

    astype = cast

    def reshape(self, *shape: Any) -> "Value":
        return _ops.reshape(self, shape[0] if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else shape)

    def broadcast_to(self, shape: Sequence[int]) -> "Value":
        return _ops.broadcast_to(self, shape)

    def transpose(self, *perm: int) -> "Value":
        return _ops.transpose(self, perm or None)

    @property
    def T(self) -> "Value":
        return _ops.transpose(self)

    def sum(self, axis: Any = None, keepdims: bool = False) -> "Value":
        return _ops.sum(self, axis, keepdims=keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> "Value":
        return _ops.max(self, axis, keepdims=keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> "Value":
        return _ops.min(self, axis, keepdims=keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> "Value":
        return _ops.mean(self, axis, keepdims=keepdims)

    # -- operators --------------------------------------------------------------------------

    def __add__(self, other: Any) -> "Value":
        return _ops.add(self, other)

    def __radd__(self, other: Any) -> "Value":
        return _ops.add(other, self)

    def __sub__(self, other: Any) -> "Value":
        return _ops.subtract(self, other)

    def __rsub__(self, other: Any) -> "Value":
        return _ops.subtract(other, self)

    def __mul__(self, other: Any) -> "Value":
        return _ops.multiply(self, other)

    def __rmul__(self, other: Any) -> "Value":
        return _ops.multiply(other, self)

    def __truediv__(self, other: Any) -> "Value":
        return _ops.divide(self, other)

    def __rtruediv__(self, other: Any) -> "Value":
        return _ops.divide(other, self)

    def __floordiv__(self, other: Any) -> "Value":
        return _ops.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> "Value":
        return _ops.floor_divide(other, self)

    def __mod__(self, other: Any) -> "Value":
        return _ops.mod(self, other)

    def __rmod__(self, other: Any) -> "Value":
        return _ops.mod(other, self)

    def __pow__(self, other: Any) -> "Value":
        return _ops.power(self, other)

    def __rpow__(self, other: Any) -> "Value":
        return _ops.power(other, self)

    def __matmul__(self, other: Any) -> "Value":
        return _ops.matmul(self, other)

    def __rmatmul__(self, other: Any) -> "Value":
        return _ops.matmul(other, self)

    def __eq__(self, other: Any) -> "Value":  # type: ignore[override]
        return _ops.equal(self, other)

    def __ne__(self, other: Any) -> "Value":  # type: ignore[override]
        return _ops.not_equal(self, other)

    def __lt__(self, other: Any) -> "Value":
        return _ops.less(self, other)

    def __le__(self, other: Any) -> "Value":
        return _ops.less_equal(self, other)

    def __gt__(self, other: Any) -> "Value":
        return _ops.greater(self, other)

    def __ge__(self, other: Any) -> "Value":
        return _ops.greater_equal(self, other)

    def __and__(self, other: Any) -> "Value":
        return _ops.bitwise_and(self, other)

    def __rand__(self, other: Any) -> "Value":
        return _ops.bitwise_and(other, self)

    def __or__(self, other: Any) -> "Value":
        return _ops.bitwise_or(self, other)

    def __ror__(self, other: Any) -> "Value":
        return _ops.bitwise_or(other, self)

    def __xor__(self, other: Any) -> "Value":
        return _ops.bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> "Value":
        return _ops.bitwise_xor(other, self)

    def __lshift__(self, other: Any) -> "Value":
        return _ops.left_shift(self, other)

    def __rlshift__(self, other: Any) -> "Value":
        return _ops.left_shift(other, self)

    def __rshift__(self, other: Any) -> "Value":
        return _ops.right_shift(self, other)

    def __rrshift__(self, other: Any) -> "Value":
        return _ops.right_shift(other, self)

    def __invert__(self) -> "Value":
        return _ops.invert(self)

    def __neg__(self) -> "Value":
        return _ops.negative(self)

    def __pos__(self) -> "Value":
        return self

    def __abs__(self) -> "Value":
        return _ops.abs(self)


from . import ops as _ops  # noqa: E402  (ops imports this module; Value is defined by now)


def as_value(x: Any, graph: "Graph", *, materialize: bool = False) -> Value:
    """``x`` as a value of ``graph``; a Python scalar becomes a weak constant (``materialize``)."""
    from .emit import Literal, emit_literal, operand  # emit imports this module
    v = operand(x, graph)
    if isinstance(v, Literal):
        if not materialize:
            raise GraphError(f"{x!r} is a Python scalar, not a graph value")
        return emit_literal(graph, v, graph.policy.materialize(v.ptype), ())
    return v
