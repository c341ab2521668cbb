"""Shape ops: ``reshape``, ``broadcast_to`` and ``transpose`` (data movement: weakness is kept)."""

from __future__ import annotations

from typing import Any, Sequence

from jaxlib.mlir import ir

from ...errors import GraphError
from ...tensor_type import check_shape
from ..value import TensorValueLike, Value
from .promotion import broadcast, element_count, unary_operand

__all__ = ["reshape", "broadcast_to", "transpose", "normalize_axis"]


def normalize_axis(axis: Any, rank: int, what: str) -> int:
    """``axis`` in ``[-rank, rank)`` as a non-negative index, or a :class:`GraphError`."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        try:
            axis = int(axis.__index__())  # NumPy integers
        except AttributeError:
            raise GraphError(f"{what}: axis {axis!r} is not an integer") from None
    if not -rank <= axis < rank:
        raise GraphError(f"{what}: axis {axis} is out of range for a value of rank {rank}")
    return axis % rank


def reshape(x: TensorValueLike, shape: Sequence[int]) -> Value:
    """A new shape with the same number of elements (one dimension may be -1)."""
    v = unary_operand(x, "reshape")
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
        raise GraphError(f"reshape needs a sequence of dimensions, not {shape!r}")
    dims = list(shape)
    if any(isinstance(d, bool) or not isinstance(d, int) for d in dims):
        raise GraphError(f"reshape to {dims}: dimensions must be integers")
    size = element_count(v.shape)
    if dims.count(-1) > 1:
        raise GraphError(f"reshape to {dims}: at most one dimension can be -1")
    if -1 in dims:
        known = element_count([d for d in dims if d != -1])
        if known == 0 or size % known:
            raise GraphError(f"cannot reshape {list(v.shape)} ({size} elements) to {dims}")
        dims[dims.index(-1)] = size // known
    new = check_shape(dims, "reshape to") if all(d >= 0 for d in dims) else None
    if new is None or element_count(new) != size:
        raise GraphError(f"cannot reshape {list(v.shape)} ({size} elements) to {dims}")
    if new == v.shape:
        return v
    g = v.graph
    op = g._add_op("stablehlo.reshape", [g.tc.tensor(v.storage, new)], [v.ir], weak=v.is_weak)
    return Value(g, op.result, v.ptype, new, storage=v.storage)


def broadcast_to(x: TensorValueLike, shape: Sequence[int]) -> Value:
    """``x`` broadcast to ``shape`` by NumPy's rules."""
    return broadcast(unary_operand(x, "broadcast_to"), check_shape(shape, "broadcast_to shape"))


def transpose(x: TensorValueLike, axes: Sequence[int] | None = None) -> Value:
    """The axes of ``x`` permuted (reversed when ``axes`` is ``None``), as ``numpy.transpose``."""
    v = unary_operand(x, "transpose")
    if axes is None:
        perm = list(range(v.rank))[::-1]
    elif isinstance(axes, (str, bytes)) or not isinstance(axes, Sequence):
        raise GraphError(f"transpose axes must be a sequence of axes such as (1, 0), not {axes!r}")
    else:
        perm = [normalize_axis(a, v.rank, "transpose") if v.rank else _no_axes(a) for a in axes]
    if sorted(perm) != list(range(v.rank)):
        raise GraphError(f"transpose axes {list(axes or [])} are not a permutation of {v.rank} axes")
    if perm == list(range(v.rank)):
        return v
    g = v.graph
    shape = [v.shape[p] for p in perm]
    with g.context:
        attrs = {"permutation": ir.DenseI64ArrayAttr.get(perm)}
    op = g._add_op("stablehlo.transpose", [g.tc.tensor(v.storage, shape)], [v.ir], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)


def _no_axes(axis: Any) -> int:
    raise GraphError(f"transpose axes [{axis}] are not a permutation of 0 axes (a scalar has none)")
