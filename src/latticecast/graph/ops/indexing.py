"""Indexing as MAX does it: ``x[0]``, ``x[:, 1:3]``, ``x[..., None]``, ``x[i]`` (``ops.slice_tensor``).

MAX's rules, which differ from NumPy's in three places that are errors rather than
other results:

- an integer index drops its axis and must be in range (``-n <= i < n``);
- a slice takes a positive step, and its bounds must lie in the axis (after counting
  negative ones from the end) with ``start <= stop``: MAX neither clamps ``x[:, 1:10]``
  of a size-3 axis nor returns an empty ``x[2:1]``;
- ``None`` inserts an axis of size 1, ``...`` stands for the axes not named, and a
  list is read as a tuple of indices (``x[[0, 1]]`` is ``x[0, 1]``, not NumPy's
  fancy indexing).

A rank-0 integer value indexes one axis when the graph runs (negative counts from
the end; StableHLO's ``dynamic_slice`` clamps an index out of range into it). On a
symbolic axis an integer index and ``:`` are supported; a partial slice of it would
have an algebraic size (MAX's ``batch - 1``) and is refused, as are MAX's negative
steps and its ``(slice, out_dim)`` form.
"""

from __future__ import annotations

from types import EllipsisType
from typing import TYPE_CHECKING, Any, Iterable, Sequence, SupportsIndex, TypeAlias, cast

from jaxlib.mlir import ir

from ...promotion.dims import StaticDim, SymbolicDim, is_dynamic, is_static
from ...promotion.dtypes import DType
from ...errors import GraphError
from ..value import Index, IndexItem, TensorValueLike, Value
from .dynamic import dim_value, vector_value
from .elementwise import add, less
from .operands import constant_value, convert, unary_operand
from .selection import where
from .shape import _reshaped, format_shape

if TYPE_CHECKING:
    from ...promotion.dims import Dim
    from ..graph import Graph

__all__ = ["slice_tensor", "getitem"]


Bound: TypeAlias = Any
"""A start or stop of an :class:`_Axis`: an ``int``, a dimension, or (a start) a rank-0 value. ``Any``
deliberately: the slicers choose their op by ``isinstance`` tests over all axes at once (``all(...)``),
which a type checker cannot carry to each axis."""



def getitem(x: Value, index: Index) -> Value:
    """``x[index]``: one index, or a tuple (or any other iterable but a value) of them."""
    if isinstance(index, Value) or not isinstance(index, Iterable) or isinstance(index, (str, bytes)):
        return slice_tensor(x, [cast(IndexItem, index)])  # a str or bytes: refused as an index there
    return slice_tensor(x, list(cast("Iterable[IndexItem]", index)))  # a tuple: one index per axis


class _Axis:
    """What one index does to one axis: ``start``/``stop``/``step`` (ints, or a ``tensor<i64>`` start
    for a value index), the size it keeps (``None``: the axis is dropped)."""

    __slots__ = ("start", "stop", "step", "size")

    def __init__(self, start: Bound, stop: Bound, step: int, size: "int | SymbolicDim | None") -> None:
        self.start, self.stop, self.step, self.size = start, stop, step, size


def slice_tensor(x: TensorValueLike, indices: Sequence[IndexItem]) -> Value:
    """The sub-tensor of ``x`` that ``indices`` select; ``x[...]`` calls it (MAX's ``ops.slice_tensor``).

    MAX's rules, which differ from NumPy's by being errors rather than other results: an
    integer index drops its axis and must be in range; a slice has a positive step and bounds
    inside the axis with ``start <= stop`` (no clamping, no empty result); ``None`` inserts an
    axis of size 1 and ``...`` stands for the axes not named. A rank-0 integer graph value
    indexes one axis when the graph runs.

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        indices: One entry per axis: an ``int``, a ``slice``, ``None``, ``...``, or a rank-0
            integer graph value.

    Returns:
        A value of ``x``'s dtype with the selected elements.

    Raises:
        GraphError: ``x`` has rank 0, there are more entries than axes or more than one ``...``,
            an index is out of range, or a slice is not supported (negative step, ``start >
            stop``, a partial slice of a symbolic axis).

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("slice", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.slice_tensor(x, [0, slice(1, 3)])     # x[0, 1:3]
        ...     z = x[..., None]
        >>> y.shape, z.shape
        ([Dim(2)], [Dim(2), Dim(3), Dim(1)])
    """
    v = unary_operand(x, "slice")
    if isinstance(indices, (str, bytes)) or not isinstance(indices, Iterable):
        raise GraphError(f"slice_tensor needs a sequence of indices, such as [0, slice(1, 3)], not {indices!r}")
    indices = list(indices)
    if v.rank == 0:
        raise GraphError("a rank-0 value has no axes to index")
    if sum(i is Ellipsis for i in indices) > 1:
        raise GraphError(f"index {_show(indices)} has more than one '...'")
    regular = [i for i in indices if i is not None and i is not Ellipsis]
    if len(regular) > v.rank:
        raise GraphError(f"index {_show(indices)} has {len(regular)} entries for a value of rank {v.rank} "
                         f"(shape {format_shape(v.shape)})")
    # by identity: == on a value index would build a comparison
    at = next((k for k, entry in enumerate(indices) if entry is Ellipsis), len(indices))
    full = indices[:at] + [slice(None)] * (v.rank - len(regular)) + indices[at + 1:]
    axes: list[_Axis] = []
    out: list["int | SymbolicDim"] = []  # the result shape, with the None axes
    for entry in full:
        if entry is None:
            out.append(1)
            continue
        axis = len(axes)
        a = _axis(v, axis, entry, indices)
        axes.append(a)
        if a.size is not None:
            out.append(a.size)
    sliced_shape = tuple(1 if a.size is None else a.size for a in axes)
    if any(isinstance(a.start, Value) for a in axes):
        sliced = _dynamic_index(v, axes, sliced_shape, indices)
    elif is_static(v.shape) and all(isinstance(a.start, int) and isinstance(a.stop, int) for a in axes):
        sliced = _static_slice(v, axes, sliced_shape)
    else:
        sliced = _symbolic_slice(v, axes, sliced_shape)
    return _reshaped(sliced, tuple(out))


def _show(indices: Sequence[object]) -> str:
    def one(i: object) -> str:
        if isinstance(i, slice):
            return ":".join("" if p is None else str(p) for p in (i.start, i.stop)) + \
                ("" if i.step is None else f":{i.step}")
        return "..." if i is Ellipsis else str(i)
    return "[" + ", ".join(one(i) for i in indices) + "]"


def _axis(v: Value, axis: int, entry: object, indices: Sequence[object]) -> _Axis:
    n = v.shape[axis]
    where = f"index {_show(indices)} of a value of shape {format_shape(v.shape)}"
    if isinstance(entry, Value):
        if entry.storage.is_inexact or entry.storage.is_bool or any(d != 1 for d in entry.shape):
            raise GraphError(f"{where}: a value used as an index must be one integer (rank 0), not "
                             f"{entry.storage.name}{format_shape(entry.shape)}")
        return _Axis(entry, None, 1, None)
    if isinstance(entry, (bool,)) or (not isinstance(entry, (int, slice)) and not hasattr(entry, "__index__")):
        if isinstance(entry, tuple):
            raise GraphError(f"{where}: MAX's (slice, out_dim) form is not supported; slice with a positive "
                             "step on a static axis")
        raise GraphError(f"{where}: {entry!r} is not an index: use integers, slices, None, ... or a rank-0 "
                         "integer value")
    if not isinstance(entry, slice):
        i = int(entry.__index__())
        if is_dynamic(n):  # counted from the end when negative, as MAX: n + i (checked when the graph runs)
            first = StaticDim(i) if i >= 0 else n + i
            return _Axis(first, first + 1, 1, None)
        if not -n <= i < n:
            raise GraphError(f"{where}: index {i} is out of range for axis {axis} of size {n}")
        i %= n
        return _Axis(i, i + 1, 1, None)
    step = 1 if entry.step is None else entry.step
    if isinstance(step, bool) or not isinstance(step, int) or step <= 0:
        raise GraphError(f"{where}: expected a positive integer step but got {step!r} (MAX slices with positive "
                         "steps only)")
    if is_dynamic(n) or is_dynamic(entry.start) or is_dynamic(entry.stop):
        # bounds as dimensions (negative: n + b), the size an algebraic dimension, as MAX
        ends: list[Bound] = []
        for name, b, default in (("start", entry.start, StaticDim(0)), ("stop", entry.stop, n)):
            if b is None or is_dynamic(b):
                ends.append(default if b is None else b)
                continue
            if isinstance(b, bool) or not hasattr(b, "__index__"):
                raise GraphError(f"{where}: slice {name} {b!r} must be an integer")
            b = int(b.__index__())
            ends.append(StaticDim(b) if b >= 0 else n + b)
        first, last = ends
        if isinstance(last - first, int) and last - first < 0:  # known now: the bounds decrease
            raise GraphError(f"{where}: start and stop should be increasing for positive step and decreasing for "
                             f"negative step, but got start {entry.start}, stop {entry.stop} for step {step} (MAX "
                             "refuses a decreasing slice rather than return an empty one)")
        return _Axis(first, last, step, (last - first + (step - 1)) // step)
    bounds = []
    for name, b, default in (("start", entry.start, 0), ("stop", entry.stop, n)):
        if b is None:
            b = default
        elif isinstance(b, bool) or not hasattr(b, "__index__"):
            raise GraphError(f"{where}: slice {name} {b!r} must be an integer")
        b = int(b.__index__())
        bounds.append(b + n if b < 0 else b)
    start, stop = bounds
    if not 0 <= start <= n or not 0 <= stop <= n:
        raise GraphError(f"{where}: slice bounds {entry.start}:{entry.stop} are out of range for axis {axis} of "
                         f"size {n} (MAX does not clamp them as Python does)")
    if start > stop:
        raise GraphError(f"{where}: start and stop should be increasing for positive step and decreasing for "
                         f"negative step, but got start {entry.start}, stop {entry.stop} for step {step} on axis "
                         f"{axis} (MAX refuses a decreasing slice rather than return an empty one)")
    return _Axis(start, stop, step, -(-(stop - start) // step))


def _static_slice(v: Value, axes: list[_Axis], shape: Sequence[int | Dim]) -> Value:
    if shape == v.shape:
        return v
    g = v.graph
    with g.context:
        attrs = {"start_indices": ir.DenseI64ArrayAttr.get([a.start for a in axes]),
                 "limit_indices": ir.DenseI64ArrayAttr.get([a.stop for a in axes]),
                 "strides": ir.DenseI64ArrayAttr.get([a.step for a in axes])}
    op = g._add_op("stablehlo.slice", [g.tc.tensor(v.storage, shape)], [v.ir], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)


def _symbolic_slice(v: Value, axes: list[_Axis], shape: Sequence[int | Dim]) -> Value:
    """``real_dynamic_slice``: bounds on symbolic axes are read when the graph runs."""
    if shape == v.shape:
        return v
    g = v.graph
    starts, stops = [], []
    for a in axes:
        starts.append(a.start if isinstance(a.start, int) else dim_value(g, a.start))
        stops.append(a.stop if isinstance(a.stop, int) else dim_value(g, a.stop))
    operands = [vector_value(g, starts), vector_value(g, stops), vector_value(g, [a.step for a in axes])]
    op = g._add_op("stablehlo.real_dynamic_slice", [g.tc.tensor(v.storage, shape)], [v.ir, *operands],
                   weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)


def _gathered_index(v: Value, axes: list[_Axis], shape: Sequence[int | Dim]) -> Value:
    """Value indexes where ``dynamic_slice`` cannot go (a symbolic axis, a step): the other axes sliced
    first, then each value-indexed axis gathered at its index (``gather`` counts a negative index from
    the end and clamps one out of range, as ``dynamic_slice`` does)."""
    from .gather import gather
    plain = [_Axis(StaticDim(0), n, 1, n) if isinstance(a.start, Value) else a for a, n in zip(axes, v.shape)]
    plain_shape = tuple(n if isinstance(a.start, Value) else s for a, n, s in zip(axes, v.shape, shape))
    if is_static(v.shape) and all(isinstance(a.start, int) and isinstance(a.stop, int) for a in plain):
        out = _static_slice(v, plain, plain_shape)
    else:
        out = _symbolic_slice(v, plain, plain_shape)
    for d, a in enumerate(axes):
        if isinstance(a.start, Value):
            out = gather(out, _reshaped(a.start, (1,)), d)
    return out


def _dynamic_index(v: Value, axes: list[_Axis], shape: Sequence[int | Dim],
                   indices: Sequence[object]) -> Value:
    """``dynamic_slice``: an index known when the graph runs (negative counts from the end; StableHLO
    clamps one out of range into the axis)."""
    if not is_static(v.shape) or any(a.step != 1 for a in axes):
        return _gathered_index(v, axes, shape)
    g = v.graph
    starts = []
    for n, a in zip(v.shape, axes):
        if isinstance(a.start, int):
            starts.append(constant_value(g, a.start, DType.int64))
            continue
        i = a.start if a.start.rank == 0 else _reshaped(a.start, ())
        i = convert(i, DType.int64) if i.storage is not DType.int64 or i.is_weak else i
        zero, size = constant_value(g, 0, DType.int64), constant_value(g, n, DType.int64)
        starts.append(where(less(i, zero), add(i, size), i))
    with g.context:
        attrs = {"slice_sizes": ir.DenseI64ArrayAttr.get([a.size if isinstance(a.size, int) else 1  # static: checked
                                                          for a in axes])}
    op = g._add_op("stablehlo.dynamic_slice", [g.tc.tensor(v.storage, shape)], [v.ir, *(s.ir for s in starts)],
                   attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)
