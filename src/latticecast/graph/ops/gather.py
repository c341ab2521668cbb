"""Gathering and scattering by index: MAX's ``gather``, ``gather_nd``, ``scatter`` (and its ``_add``,
``_max``, ``_min``, ``_mul`` variants), ``scatter_nd`` (and the same four), and NumPy's ``take`` and
``take_along_axis``, as ``stablehlo.gather`` and ``stablehlo.scatter``.

Indices are any integer dtype (MAX's kernels take ``int32`` and ``int64``); a float or bool index
is an error. A negative index counts from the end of its axis, as in MAX's kernels and NumPy. An
index out of range after that is not an error when the graph runs: StableHLO clamps a gathered
window into the operand and drops a scattered update that falls outside it (JAX's defaults).

Gathering moves data and keeps the input's dtype and weakness. A scatter keeps the input's dtype:
updates of another dtype convert to it where the graph's policy promotes the two to the input's
dtype (``int32`` updates into ``float32`` under ``jax``, as ``x.at[i].set(u)`` does), and are refused
where it does not: under MAX's policies, which promote no two strong dtypes (MAX refuses such
updates when it builds the graph), and where the promotion would widen the result (``float64``
updates into ``float32``, which ``x.at[i].set`` would silently round).

==========================  =======================================================================
``gather(x, i, axis)``      ``x``'s shape with ``axis`` replaced by ``i``'s shape (MAX; ``np.take``)
``take(x, i, axis=None)``   NumPy's: ``axis=None`` gathers from the flattened ``x``
``take_along_axis``         NumPy's: ``i`` has ``x``'s rank and picks along ``axis`` per position
``gather_nd(x, i, b=0)``    MAX's: the last axis of ``i`` holds coordinates into ``x`` after ``b``
                            shared batch axes
``scatter*(x, u, i, axis)`` MAX's (ONNX's ScatterElements): ``u[p]`` goes to ``x`` at ``p`` with
                            ``p[axis]`` replaced by ``i[p]``; ``i`` has ``u``'s shape
``scatter_nd*(x, u, i)``    MAX's (ONNX's ScatterND): the last axis of ``i`` holds coordinates
``nonzero(x, out_dim)``     MAX's: the coordinates of the first ``out_dim`` nonzero elements, which
                            StableHLO needs as an integer (JAX's ``jnp.nonzero(x, size=...)``)
``masked_scatter``          MAX's: ``updates`` in order into the positions where ``mask`` holds
==========================  =======================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.dims import SymbolicDim, is_static, static_dims, static_size
from ...promotion.dtypes import DType
from ...errors import GraphError, PromotionError
from ...promotion.op_rules import STABLEHLO
from ..value import TensorValueLike, Value
from .dynamic import dim_value, iota, shape_value
from .elementwise import add, floor_divide, less, logical_not, not_equal, remainder
from .external import check_same_device
from .operands import convert, decide_operands, graph_of, unary_operand
from .reduction import _Body
from .selection import where
from .shape import _reshaped, broadcast_to, format_shape, normalize_axis
from .sorting import _first, _sorted

__all__ = ["gather", "gather_nd", "take", "take_along_axis", "scatter", "scatter_add", "scatter_max",
           "scatter_min", "scatter_mul", "scatter_nd", "scatter_nd_add", "scatter_nd_max", "scatter_nd_min",
           "scatter_nd_mul", "nonzero", "masked_scatter"]

if TYPE_CHECKING:
    from ...promotion.dims import Dim, DimLike

Dims = Sequence["int | Dim"]
"""A shape as the gathers read it: sizes and dimensions."""


# -- indices -------------------------------------------------------------------------------------


def _indices(x: TensorValueLike, what: str, *, scatter: bool = False) -> Value:
    """``x`` as an ``int64`` index value, or a :class:`GraphError` for a float or bool one. A scatter's
    indices must be ``int32`` or ``int64`` (MAX's scatters refuse other integers; its gathers take them)."""
    v = unary_operand(x, what)
    if scatter and v.storage not in (DType.int32, DType.int64) and not v.is_weak:
        raise GraphError(f"{what}: Invalid indices dtype: 'DType.{v.storage.name}'. Indices must be of type int32 "
                         "or int64. Cast them first (indices.cast(DType.int64))")
    if not v.storage.is_integral() or v.storage.is_bool:
        raise GraphError(f"{what}: indices must be integers (MAX takes int32 or int64), not "
                         f"{v.storage.name}; cast them first (indices.cast(DType.int64))")
    return v if v.storage is DType.int64 and not v.is_weak else convert(v, DType.int64)


def _wrapped(i: Value, size: "int | Dim") -> Value:
    """``i`` with a negative index counted from the end of an axis of ``size``."""
    g = i.graph
    n = g.constant(size, DType.int64) if isinstance(size, int) else Value(g, dim_value(g, size), DType.int64, ())
    return where(less(i, 0), add(i, n), i)


def _coordinates(indices: Value, axis: int, shape: Dims) -> Value:
    """For every position ``p`` of ``indices``: the coordinates of ``p`` with ``p[axis]`` replaced by
    ``indices[p]``, as ``int64[*indices.shape, rank]`` (what ``take_along_axis`` and ``scatter`` index)."""
    g = indices.graph
    rank = indices.rank
    column = indices.shape + (1,)
    parts = [_reshaped(_wrapped(indices, shape[axis]) if d == axis else iota(g, DType.int64, indices.shape, d),
                       column) for d in range(rank)]
    if rank == 1:
        return parts[0]
    with g.context:
        attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), rank)}
    op = g._add_op("stablehlo.concatenate", [g.tc.tensor(DType.int64, indices.shape + (rank,))],
                   [p.ir for p in parts], attrs)
    return Value(g, op.result, DType.int64, indices.shape + (rank,))


def _static_window(v: Value, sizes: Dims, what: str) -> list[int | Dim]:
    """The window sizes of a gather: sizes, or dimensions known when the graph runs (``dynamic_gather``)."""
    return list(sizes)


def _gather(v: Value, start: Value, out_shape: Dims, *, offset_dims: Sequence[int], collapsed: Sequence[int],
            batching: Sequence[int] = (), index_batching: Sequence[int] = (), index_map: Sequence[int],
            index_vector_dim: int, window: Dims) -> Value:
    g = v.graph
    with g.context:
        attrs: dict[str, ir.Attribute] = {"dimension_numbers": stablehlo.GatherDimensionNumbers.get(
                     offset_dims=list(offset_dims), collapsed_slice_dims=list(collapsed),
                     operand_batching_dims=list(batching), start_indices_batching_dims=list(index_batching),
                     start_index_map=list(index_map), index_vector_dim=index_vector_dim),
                 "indices_are_sorted": ir.BoolAttr.get(False)}
        if is_static(window):
            attrs["slice_sizes"] = ir.DenseI64ArrayAttr.get([int(n) for n in window])
    if is_static(window):
        op = g._add_op("stablehlo.gather", [g.tc.tensor(v.storage, out_shape)], [v.ir, start.ir], attrs,
                       weak=v.is_weak)
    else:  # a window taking a symbolic axis whole: its size is an operand, read when the graph runs
        op = g._add_op("stablehlo.dynamic_gather", [g.tc.tensor(v.storage, out_shape)],
                       [v.ir, start.ir, shape_value(g, window)], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, out_shape, storage=v.storage)


# -- gathers -------------------------------------------------------------------------------------


def gather(input: TensorValueLike, indices: TensorValueLike, axis: int) -> Value:
    """The slices of ``input`` along ``axis`` that ``indices`` pick (MAX's ``ops.gather``; NumPy's
    ``np.take`` with an axis).

    Args:
        input: The value to pick from: a graph :class:`~latticecast.Value` (or a NumPy array).
        indices: Integer indices into ``axis``, of any shape; negative ones count from the end.
        axis: The axis to pick along (negative counts from the end).

    Returns:
        A value of ``input``'s dtype whose shape is ``input``'s with ``axis`` replaced by
        ``indices``' shape.

    Raises:
        AxisError: ``axis`` is out of range (an ``IndexError``, as in MAX).
        GraphError: ``indices`` are not integers, or an axis other than ``axis`` is symbolic.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("gather", input_types=[TensorType(DType.float32, [3, 2])]) as g:
        ...     rows = ops.gather(g.inputs[0], np.array([2, 0]), axis=0)
        ...     g.output(rows)
        >>> g.compile()(np.array([[1, 2], [3, 4], [5, 6]], np.float32))[0].tolist()
        [[5.0, 6.0], [1.0, 2.0]]
    """
    v = unary_operand(input, "gather")
    i = _indices(indices, "gather")
    a = normalize_axis(axis, v.rank, "gather")
    check_same_device(v.graph, input=v, indices=i)
    window = _static_window(v, [1 if d == a else n for d, n in enumerate(v.shape)], "gather")
    out_shape = v.shape[:a] + i.shape + v.shape[a + 1:]
    offset_dims = list(range(a)) + list(range(a + i.rank, len(out_shape)))
    return _gather(v, _wrapped(i, v.shape[a]), out_shape, offset_dims=offset_dims, collapsed=[a], index_map=[a],
                   index_vector_dim=i.rank, window=window)


def take(x: TensorValueLike, indices: TensorValueLike, axis: int | None = None) -> Value:
    """NumPy's ``np.take``: :func:`gather`, and with ``axis=None`` from the flattened ``x``.

    An index out of range is clamped into the axis (StableHLO's gather; NumPy's default raises).

    Args:
        x: The value to pick from.
        indices: Integer indices, of any shape; negative ones count from the end.
        axis: The axis to pick along; ``None`` (the default): of ``x`` flattened.

    Returns:
        A value of ``x``'s dtype; its shape as for :func:`gather`, or ``indices``' shape.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``indices`` are not integers.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("take", input_types=[TensorType(DType.int32, [2, 2])]) as g:
        ...     g.output(ops.take(g.inputs[0], np.array([3, -4])))
        >>> g.compile()(np.array([[1, 2], [3, 4]], np.int32))[0].tolist()
        [4, 1]
    """
    if axis is None:
        v = unary_operand(x, "take")
        return gather(_reshaped(v, (_flat_size(v, "take"),)), indices, 0)
    return gather(x, indices, axis)


def _flat_size(v: Value, what: str) -> int:
    n = static_size(v.shape)
    if n is None:
        raise GraphError(f"{what}: flattening {format_shape(v.shape)} needs static sizes; give an axis")
    return n


def take_along_axis(arr: TensorValueLike, indices: TensorValueLike, axis: int) -> Value:
    """NumPy's ``np.take_along_axis``: ``result[p] = arr[p with p[axis] = indices[p]]``.

    ``indices`` has ``arr``'s rank and its shape except along ``axis`` (NumPy also broadcasts
    sizes of 1; latticecast requires the sizes). An index out of range is clamped.

    Args:
        arr: The value to pick from.
        indices: Integer indices of ``arr``'s rank; negative ones count from the end.
        axis: The axis to pick along.

    Returns:
        A value of ``arr``'s dtype and ``indices``' shape.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``indices`` are not integers or their shape does not fit ``arr``'s.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("take_along_axis", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     g.output(ops.take_along_axis(g.inputs[0], np.array([[2], [0]]), axis=1))
        >>> g.compile()(np.array([[1, 2, 3], [4, 5, 6]], np.float32))[0].tolist()
        [[3.0], [4.0]]
    """
    v = unary_operand(arr, "take_along_axis")
    i = _indices(indices, "take_along_axis")
    a = normalize_axis(axis, v.rank, "take_along_axis")
    _same_but_axis(v, i, a, "take_along_axis", "indices")
    coords = _coordinates(i, a, v.shape)
    return _gather(v, coords, i.shape, offset_dims=[], collapsed=list(range(v.rank)),
                   index_map=list(range(v.rank)), index_vector_dim=i.rank, window=[1] * v.rank)


def _same_but_axis(v: Value, other: Value, axis: int, what: str, name: str) -> None:
    if other.rank != v.rank or any(d != axis and n != m for d, (n, m) in enumerate(zip(v.shape, other.shape))):
        raise GraphError(f"{what}: {name} of shape {format_shape(other.shape)} must have the input's rank "
                         f"({v.rank}) and its sizes {format_shape(v.shape)} on every axis but {axis}")


def gather_nd(input: TensorValueLike, indices: TensorValueLike, batch_dims: int = 0) -> Value:
    """Slices of ``input`` at the coordinates in the last axis of ``indices`` (MAX's ``ops.gather_nd``).

    The first ``batch_dims`` axes of ``input`` and ``indices`` are shared (and must be equal); the
    last axis of ``indices``, of size ``k``, holds coordinates into the next ``k`` axes of
    ``input``, and the rest of ``input`` is taken whole.

    Args:
        input: The value to pick from.
        indices: Integer coordinates; negative ones count from the end.
        batch_dims: The number of leading axes shared by ``input`` and ``indices``.

    Returns:
        A value of ``input``'s dtype and shape ``indices.shape[:-1] + input.shape[batch_dims + k:]``.

    Raises:
        GraphError: ``indices`` are not integers, have rank 0, hold more coordinates than
            ``input`` has axes after the batch axes, or their batch axes differ from ``input``'s.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("gather_nd", input_types=[TensorType(DType.float32, [2, 2])]) as g:
        ...     g.output(ops.gather_nd(g.inputs[0], np.array([[1, 0], [0, 1]])))
        >>> g.compile()(np.array([[1, 2], [3, 4]], np.float32))[0].tolist()
        [3.0, 2.0]
    """
    v = unary_operand(input, "gather_nd")
    i = _indices(indices, "gather_nd")
    check_same_device(v.graph, input=v, indices=i)
    b, k = _nd_layout(v, i, batch_dims, "gather_nd")
    k = int(k)
    coords = _nd_wrapped(i, v.shape[b:b + k])
    out_shape = i.shape[:-1] + v.shape[b + k:]
    window = _static_window(v, [1] * (b + k) + list(v.shape[b + k:]), "gather_nd")
    return _gather(v, coords, out_shape, offset_dims=list(range(i.rank - 1, len(out_shape))),
                   collapsed=list(range(b, b + k)), batching=list(range(b)), index_batching=list(range(b)),
                   index_map=list(range(b, b + k)), index_vector_dim=i.rank - 1, window=window)


def _nd_layout(v: Value, i: Value, batch_dims: int, what: str) -> tuple[int, int]:
    """``(batch_dims, k)`` for the coordinates of ``i`` into ``v``, checked."""
    if isinstance(batch_dims, bool) or not isinstance(batch_dims, int) or batch_dims < 0:
        raise GraphError(f"{what}: batch_dims must be a non-negative integer, not {batch_dims!r}")
    if i.rank == 0:
        raise GraphError(f"{what}: indices must have at least one axis (the last holds the coordinates)")
    k = i.shape[-1]
    if not isinstance(k, int):
        raise GraphError(f"{what}: the last axis of indices {format_shape(i.shape)} holds the coordinates "
                         "and must have a static size")
    assert isinstance(k, int)
    b = batch_dims
    if b >= i.rank or b + k > v.rank:
        raise GraphError(f"{what}: indices of shape {format_shape(i.shape)} with batch_dims={b} give {k} "
                         f"coordinates after {b} batch axes, but the input has rank {v.rank} (shape "
                         f"{format_shape(v.shape)}); the last axis of indices must be at most "
                         f"{v.rank - b} and batch_dims below the rank of indices")
    if i.shape[:b] != v.shape[:b]:
        raise GraphError(f"{what}: the {b} batch axes of indices {format_shape(i.shape)} and input "
                         f"{format_shape(v.shape)} differ")
    return b, k


def _nd_wrapped(i: Value, sizes: Dims) -> Value:
    """Coordinates ``i[..., j]`` with negative ones counted from the end of axis ``sizes[j]``."""
    static = static_dims(sizes)
    if static is None:
        return i
    g = i.graph
    n = g.constant(list(static), DType.int64)
    return where(less(i, 0), add(i, n), i)


# -- scatters ------------------------------------------------------------------------------------

_COMBINE = {"": None, "add": "stablehlo.add", "max": "stablehlo.maximum", "min": "stablehlo.minimum",
            "mul": "stablehlo.multiply"}


def _scatter(v: Value, coords: Value, u: Value, combine: str, *, window_dims: Sequence[int],
             inserted: Sequence[int], index_map: Sequence[int], index_vector_dim: int) -> Value:
    g = v.graph
    with g.context:
        attrs: dict[str, ir.Attribute] = {"scatter_dimension_numbers": stablehlo.ScatterDimensionNumbers.get(
                     update_window_dims=list(window_dims), inserted_window_dims=list(inserted),
                     input_batching_dims=[], scatter_indices_batching_dims=[],
                     scattered_dims_to_operand_dims=list(index_map), index_vector_dim=index_vector_dim),
                 "indices_are_sorted": ir.BoolAttr.get(False), "unique_indices": ir.BoolAttr.get(False)}
    weak = v.is_weak and u.is_weak
    op = g._add_op("stablehlo.scatter", [g.tc.tensor(v.storage, v.shape)], [v.ir, coords.ir, u.ir], attrs,
                   regions=1, weak=weak)
    scalar = g.tc.tensor(v.storage, ())
    block = ir.Block.create_at_start(op.regions[0], [scalar, scalar], [g.loc, g.loc])
    body = _Body(g, block)
    old, new = block.arguments
    name = _COMBINE[combine]
    body.done(new if name is None else body.emit(name, scalar, old, new))
    return Value(g, op.result, v.ptype if weak else v.storage, v.shape, storage=v.storage)


def _scatter_operands(input: TensorValueLike, updates: TensorValueLike, what: str,
                      nd: bool = False) -> tuple[Value, Value]:
    """The input and the updates, in the input's dtype. Python scalars convert to the input's dtype.
    Graph values of another dtype convert only where the graph's policy says a scatter converts its
    updates (``policy.op_types.scatter_converts_updates``: JAX's ``x.at[i].set(u)``) and promotes the
    two to the input's dtype; MAX's policies refuse them (MAX: the dtypes must match), as they refuse
    ``float64`` updates into ``float32`` everywhere (that would lose precision)."""
    g = graph_of(input, updates)
    v = unary_operand(input, what)
    u = unary_operand(updates, what)
    if u.storage is not v.storage:
        fix = f"convert them first (updates.cast(DType.{v.storage.name}))"
        if not u.is_weak and not g.policy.op_types.scatter_converts_updates():
            given = (f"The input dtype ({v.storage}) and updates dtype ({u.storage}) must match." if nd else
                     f"The input dtype 'DType.{v.storage.name}' and updates dtype 'DType.{u.storage.name}' must "
                     "match.")
            raise GraphError(f"{what}: {given} Policy {g.policy.name!r} does not convert a scatter's updates; "
                             f"{fix}")
        try:
            target = decide_operands(g, STABLEHLO["stablehlo.add"], what, [v, u]).target
        except PromotionError as e:
            raise GraphError(f"{what}: updates of dtype {u.storage.name} do not match the input's "
                             f"{v.storage.name}, and policy {g.policy.name!r} does not promote them ({e}); "
                             f"{fix}") from None
        if target is not v.storage:
            raise GraphError(f"{what}: updates of dtype {u.storage.name} into an input of {v.storage.name} would "
                             f"promote to {target.name} under policy {g.policy.name!r}, but a scatter keeps the "
                             f"input's dtype; {fix}")
        u = convert(u, v.storage)
    return v, u


def _elements(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, axis: int,
              combine: str) -> Value:
    what = "scatter" + (f"_{combine}" if combine else "")
    v, u = _scatter_operands(input, updates, what)
    i = _indices(indices, what, scatter=True)
    check_same_device(v.graph, input=v, updates=u, indices=i)
    a = normalize_axis(axis, v.rank, what, max_says=f"Invalid axis value {axis}. Axis must be in range "
                       f"[-{v.rank}, {v.rank - 1}]")
    if i.shape != u.shape:
        raise GraphError(f"{what}: indices of shape {format_shape(i.shape)} must have the shape of the updates "
                         f"{format_shape(u.shape)} (one index per update)")
    if u.rank != v.rank or any(d != a and (not isinstance(n, int) or not isinstance(m, int) or m > n)
                               and n != m for d, (n, m) in enumerate(zip(v.shape, u.shape))):
        raise GraphError(f"{what}: updates of shape {format_shape(u.shape)} must have the input's rank ({v.rank}) "
                         f"and at most its sizes {format_shape(v.shape)} on every axis but {a} (ONNX's "
                         "ScatterElements, as MAX)")
    coords = _coordinates(i, a, v.shape)
    return _scatter(v, coords, u, combine, window_dims=[], inserted=list(range(v.rank)),
                    index_map=list(range(v.rank)), index_vector_dim=i.rank)


def _nd(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, combine: str) -> Value:
    what = "scatter_nd" + (f"_{combine}" if combine else "")
    v, u = _scatter_operands(input, updates, what, nd=True)
    i = _indices(indices, what, scatter=True)
    check_same_device(v.graph, input=v, updates=u, indices=i)
    _, k = _nd_layout(v, i, 0, what)
    want = i.shape[:-1] + v.shape[k:]
    if u.shape != want:
        raise GraphError(f"{what}: updates of shape {format_shape(u.shape)} do not fit indices "
                         f"{format_shape(i.shape)} into an input of shape {format_shape(v.shape)}: they must have "
                         f"shape indices.shape[:-1] + input.shape[{k}:] = {format_shape(want)}")
    coords = _nd_wrapped(i, v.shape[:k])
    return _scatter(v, coords, u, combine, window_dims=list(range(i.rank - 1, u.rank)), inserted=list(range(k)),
                    index_map=list(range(k)), index_vector_dim=i.rank - 1)


_SCATTER_DOC = """{summary} (MAX's ``ops.{name}``).

    ``result`` is ``input`` with ``updates[p]`` {verb} at position ``p`` with ``p[axis]`` replaced
    by ``indices[p]`` (ONNX's ScatterElements). {order}

    Args:
        input: The value to scatter into.
        updates: The values to scatter, of ``input``'s rank, and at most its sizes on the other axes
            (an update at position ``p`` goes to ``p`` there).
        indices: Integer indices into ``axis``, of ``updates``' shape; negative ones count from the end.
        axis: The axis the indices point along (negative counts from the end); default -1.

    Returns:
        A value of ``input``'s dtype and shape.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``updates`` has a dtype the policy does not promote to ``input``'s, the shapes
            do not fit, or ``indices`` are not integers.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("{name}", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     u = np.array([5, 7], np.float32)
        ...     g.output(ops.{name}(g.inputs[0], u, np.array([1, 1]), axis=0))
        >>> g.compile()(np.array([1, 2, 3, 4], np.float32))[0].tolist()
        {result}
"""

_SCATTER_ND_DOC = """{summary} (MAX's ``ops.{name}``).

    The last axis of ``indices``, of size ``k``, holds coordinates into the first ``k`` axes of
    ``input``; the updates for ``indices[p]`` (``input.shape[k:]`` each) are {verb} there (ONNX's
    ScatterND). {order}

    Args:
        input: The value to scatter into.
        updates: The values to scatter, of shape ``indices.shape[:-1] + input.shape[k:]``.
        indices: Integer coordinates; negative ones count from the end.

    Returns:
        A value of ``input``'s dtype and shape.

    Raises:
        GraphError: ``updates`` has a dtype the policy does not promote to ``input``'s, the shapes
            do not fit, or ``indices`` are not integers.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("{name}", input_types=[TensorType(DType.float32, [2, 2])]) as g:
        ...     u = np.array([5, 7], np.float32)
        ...     g.output(ops.{name}(g.inputs[0], u, np.array([[0, 1], [0, 1]])))
        >>> g.compile()(np.array([[1, 2], [3, 4]], np.float32))[0].tolist()
        {result_nd}
"""

_ORDER = {"": "Where several updates go to one position, which one lands is unspecified (as in MAX).",
          "add": "Updates to one position add up.", "max": "One position keeps the largest of it and its updates.",
          "min": "One position keeps the smallest of it and its updates.",
          "mul": "One position is multiplied by all of its updates."}
_VERB = {"": "written", "add": "added", "max": "combined by maximum", "min": "combined by minimum",
         "mul": "multiplied in"}
_SUMMARY = {"": "``input`` with ``updates`` written at ``indices`` along ``axis``",
            "add": "``input`` plus ``updates`` added at ``indices`` along ``axis``",
            "max": "``input`` with the maximum of it and ``updates`` at ``indices`` along ``axis``",
            "min": "``input`` with the minimum of it and ``updates`` at ``indices`` along ``axis``",
            "mul": "``input`` multiplied by ``updates`` at ``indices`` along ``axis``"}
_RESULT = {"": None, "add": "[1.0, 14.0, 3.0, 4.0]", "max": "[1.0, 7.0, 3.0, 4.0]", "min": "[1.0, 2.0, 3.0, 4.0]",
           "mul": "[1.0, 70.0, 3.0, 4.0]"}
_RESULT_ND = {"": None, "add": "[[1.0, 14.0], [3.0, 4.0]]", "max": "[[1.0, 7.0], [3.0, 4.0]]",
              "min": "[[1.0, 2.0], [3.0, 4.0]]", "mul": "[[1.0, 70.0], [3.0, 4.0]]"}


def scatter(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, axis: int = -1) -> Value:
    return _elements(input, updates, indices, axis, "")


def scatter_add(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, axis: int = -1) -> Value:
    return _elements(input, updates, indices, axis, "add")


def scatter_max(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, axis: int = -1) -> Value:
    return _elements(input, updates, indices, axis, "max")


def scatter_min(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, axis: int = -1) -> Value:
    return _elements(input, updates, indices, axis, "min")


def scatter_mul(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike, axis: int = -1) -> Value:
    return _elements(input, updates, indices, axis, "mul")


def scatter_nd(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike) -> Value:
    return _nd(input, updates, indices, "")


def scatter_nd_add(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike) -> Value:
    return _nd(input, updates, indices, "add")


def scatter_nd_max(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike) -> Value:
    return _nd(input, updates, indices, "max")


def scatter_nd_min(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike) -> Value:
    return _nd(input, updates, indices, "min")


def scatter_nd_mul(input: TensorValueLike, updates: TensorValueLike, indices: TensorValueLike) -> Value:
    return _nd(input, updates, indices, "mul")


def nonzero(x: TensorValueLike, out_dim: DimLike) -> Value:
    """The coordinates of the nonzero elements of ``x``, in row-major order (MAX's ``ops.nonzero``).

    Their number is known only when the graph runs, and StableHLO needs a result size when it
    builds the graph: ``out_dim`` gives it as an integer. Where ``x`` has fewer nonzero elements,
    the remaining rows are zeros; where it has more, the first ``out_dim`` are returned (JAX's
    ``jnp.nonzero(x, size=out_dim)``). MAX's symbolic ``out_dim`` (``"nnz"``) is refused.

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array), rank 1 or more.
        out_dim: The number of rows of the result, an integer from 0 to ``x``'s size.

    Returns:
        An ``int64`` value of shape ``[out_dim, rank]``.

    Raises:
        GraphError: ``x`` is a scalar or has symbolic axes, or ``out_dim`` is not such an integer.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("nonzero", input_types=[TensorType(DType.float32, [2, 2])]) as g:
        ...     g.output(ops.nonzero(g.inputs[0], 3))
        >>> g.compile()(np.array([[0, 1], [2, 0]], np.float32))[0].tolist()
        [[0, 1], [1, 0], [0, 0]]
    """
    v = unary_operand(x, "nonzero")
    return _nonzero(v, out_dim, "nonzero", fill_out_of_range=False)


def _nonzero(v: Value, out_dim: DimLike, what: str, *, fill_out_of_range: bool) -> Value:
    """``nonzero``; ``fill_out_of_range``: the rows past the count hold each axis's size (an index that
    a scatter drops) instead of 0."""
    if v.rank == 0:
        raise GraphError(f"{what}: Scalar inputs not supported: a scalar has no coordinates; give a value with at "
                         "least one axis")
    size = static_size(v.shape)
    if size is None:
        raise GraphError(f"{what}: {format_shape(v.shape)} has symbolic axes; rebind them to sizes first")
    if isinstance(out_dim, bool) or not isinstance(out_dim, (int, np.integer)) or not 0 <= out_dim <= size:
        raise GraphError(f"{what}: out_dim must be an integer from 0 to {size}, the number of results, not "
                         f"{out_dim!r}: StableHLO needs the size when it builds the graph (MAX's symbolic "
                         f"out_dim is a size known only when the graph runs)")
    g = v.graph
    flat = _reshaped(v, (size,))
    is_zero = logical_not(not_equal(flat, False if v.storage.is_bool else 0))
    zeros_last, positions = _sorted(is_zero, 0, descending=False)
    k = int(out_dim)
    past_count, positions = _first(zeros_last, 0, k), _first(positions, 0, k)
    columns, stride = [], size
    for n in v.shape:
        assert isinstance(n, int)  # static: checked above
        stride //= n
        coordinate = remainder(floor_divide(positions, stride), n) if n else positions
        fill = g.constant(n if fill_out_of_range else 0, DType.int64)
        columns.append(_reshaped(where(past_count, fill, coordinate), (k, 1)))
    if len(columns) == 1:
        return columns[0]
    with g.context:
        attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)}
    op = g._add_op("stablehlo.concatenate", [g.tc.tensor(DType.int64, (k, v.rank))], [c.ir for c in columns], attrs)
    return Value(g, op.result, DType.int64, (k, v.rank))


def masked_scatter(input: TensorValueLike, mask: TensorValueLike, updates: TensorValueLike, out_dim: DimLike) -> Value:
    """``input`` with the elements of ``updates``, in order, where ``mask`` holds (MAX's
    ``ops.masked_scatter``; PyTorch's ``Tensor.masked_scatter``).

    ``mask`` broadcasts to ``input``'s shape; ``out_dim``, an integer, is the number of elements
    written: the first ``out_dim`` positions where ``mask`` holds take ``updates``' first
    ``out_dim`` elements (row-major); where ``mask`` holds fewer times, the rest are not written.

    Args:
        input: The value to write into.
        mask: A bool value (or a NumPy array) that broadcasts to ``input``'s shape.
        updates: A value of ``input``'s dtype with ``out_dim`` elements.
        out_dim: The number of elements written, an integer (StableHLO needs it when it builds the graph).

    Returns:
        A value of ``input``'s dtype and shape.

    Raises:
        GraphError: ``updates`` has another dtype or not ``out_dim`` elements, ``mask`` is not bool or
            does not broadcast, or ``out_dim`` is not an integer in range.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("masked_scatter", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     x = g.inputs[0]
        ...     g.output(ops.masked_scatter(x, x > 1, np.array([10, 20], np.int32), 2))
        >>> g.compile()(np.array([1, 5, 0, 3], np.int32))[0].tolist()
        [1, 10, 0, 20]
    """
    v, u = _scatter_operands(input, updates, "masked_scatter")
    m = unary_operand(mask, "masked_scatter")
    if not m.storage.is_bool:
        raise GraphError(f"masked_scatter: the mask must be bool, not {m.storage.name}; compare it first (x > 0)")
    indices = _nonzero(broadcast_to(m, v.shape), out_dim, "masked_scatter", fill_out_of_range=True)
    n = static_size(u.shape)
    if n != out_dim:
        raise GraphError(f"masked_scatter: updates of shape {format_shape(u.shape)} must have out_dim={out_dim} "
                         "elements, one for each position written")
    return _nd(v, _reshaped(u, (int(out_dim),)), indices, "")


def _document() -> None:
    """One docstring per scatter, from one template (the examples use distinct indices where the
    order of writes is unspecified)."""
    for combine in _COMBINE:
        suffix = f"_{combine}" if combine else ""
        for fn, doc, results in ((globals()["scatter" + suffix], _SCATTER_DOC, _RESULT),
                                 (globals()["scatter_nd" + suffix], _SCATTER_ND_DOC, _RESULT_ND)):
            fields = dict(summary=_SUMMARY[combine], name=fn.__name__, verb=_VERB[combine], order=_ORDER[combine],
                          result=results[combine], result_nd=results[combine])
            text = doc.format(**fields)
            if results[combine] is None:  # plain scatter: two writes to one place have no defined winner
                text = text.replace("np.array([1, 1])", "np.array([1, 3])").replace(
                    "np.array([[0, 1], [0, 1]])", "np.array([[0, 1], [1, 0]])").replace(
                    "None", "[1.0, 5.0, 3.0, 7.0]" if doc is _SCATTER_DOC else "[[1.0, 5.0], [7.0, 4.0]]")
            fn.__doc__ = text


_document()
