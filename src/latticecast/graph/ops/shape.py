"""Shape ops, as MAX names them: ``reshape``, ``broadcast_to``, ``transpose`` (two axes), ``permute``,
``flatten``, ``squeeze``, ``unsqueeze``, ``concat``, ``stack``, ``rebind``, ``transfer_to``.

They move data and never promote: weakness is kept. Shapes may hold symbolic
dimensions (``"batch"``): a result shape that needs one is built when the graph runs
(``dynamic_reshape``, ``dynamic_broadcast_in_dim``), and a result that would need an
*algebraic* dimension (MAX's ``batch * 2``) is refused with what to write instead.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence, TypeAlias

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.device_ref import DeviceRef, DeviceRefLike
from ...promotion.dims import Dim, DimensionError, StaticDim, SymbolicDim, as_dim, check_shape, is_static, solve_for, static_size, symbols
from ...promotion.dtypes import DType
from ...errors import AxisError, GraphError
from ..value import TensorValueLike, Value
from .dynamic import dim_value, shape_value
from .external import check_same_device
from .operands import Literal, broadcast, graph_of, operand, unary_operand

if TYPE_CHECKING:
    from ...promotion.dims import AlgebraicDim, ShapeLike

Dimension: TypeAlias = "StaticDim | SymbolicDim | AlgebraicDim"
"""A checked dimension (what :func:`~latticecast.dims.as_dim` gives): a size, a name, or an algebraic
dimension; dimension arithmetic (``+ - * //``) on one gives another."""

__all__ = ["reshape", "broadcast_to", "transpose", "permute", "flatten", "squeeze", "unsqueeze", "concat",
           "stack", "rebind", "transfer_to", "shape_to_tensor", "normalize_axis", "format_shape"]


def format_shape(shape: Iterable[object]) -> str:
    """``[batch, 10]``: a shape as error messages show it."""
    return "[" + ", ".join(map(str, shape)) + "]"


def normalize_axis(axis: object, rank: int, what: str, *, max_says: str | None = None) -> int:
    """``axis`` in ``[-rank, rank)`` as a non-negative index; an :class:`AxisError` (an ``IndexError``, as
    in MAX) when it is out of range, a :class:`GraphError` when it is not an integer.

    ``max_says`` is MAX's own wording of the range error for the op (``"Axis out of range"``), which the
    message then carries before latticecast's: the range and rank."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        index = getattr(axis, "__index__", None)  # NumPy integers
        if index is None:
            raise GraphError(f"{what}: axis {axis!r} is not an integer")
        axis = int(index())
    if not -rank <= axis < rank:
        said = f"{max_says}: " if max_says else ""
        raise AxisError(f"{what}: {said}axis {axis} is out of range for a value of rank {rank} "
                         f"(expected {-rank} to {rank - 1})" if rank else
                         f"{what}: {said}axis {axis} is out of range for a value of rank 0 (it has no axes)")
    normalized: int = axis % rank
    return normalized


def _move(v: Value, name: str, shape: Sequence[int | Dim], operands: Sequence[ir.Value[ir.Type]] = (),
          attributes: Mapping[str, ir.Attribute] | None = None) -> Value:
    """Data movement ``name`` of ``v`` to ``shape``: same dtype, same weakness."""
    g = v.graph
    op = g._add_op(name, [g.tc.tensor(v.storage, shape)], [v.ir, *operands], attributes, weak=v.is_weak)
    return Value(g, op.result, v.ptype, tuple(shape), storage=v.storage)


def _product(dims: Iterable[int | Dim]) -> Dimension:
    """The number of elements of ``dims``: a size, or an algebraic dimension when some are symbolic."""
    out: Dimension = StaticDim(1)
    for d in dims:
        out = out * d
    return out


def _sum(dims: Iterable[int | Dim]) -> Dimension:
    """The sum of ``dims``: a size, or an algebraic dimension when some are symbolic."""
    out: Dimension = StaticDim(0)
    for d in dims:
        out = out + d
    return out


def _reshaped(v: Value, new: Sequence[int | Dim]) -> Value:
    if new == v.shape:
        return v
    if is_static(new):
        return _move(v, "stablehlo.reshape", new)
    return _move(v, "stablehlo.dynamic_reshape", new, [shape_value(v.graph, new)])


def reshape(x: TensorValueLike, shape: ShapeLike) -> Value:
    """The same elements in a new shape (``stablehlo.reshape``).

    One dimension may be -1 (inferred from the others). Symbolic dimensions must appear on
    both sides, by name (``[batch, 10]`` to ``[batch, 2, 5]``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        shape: The new shape: a sequence of sizes and symbolic dimensions, at most one -1.

    Returns:
        A value of ``x``'s dtype (and weakness) with shape ``shape``.

    Raises:
        GraphError: The sizes do not match, there is more than one -1, or the symbolic
            dimensions differ (say they agree with :func:`rebind` first).

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("reshape", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.reshape(x, [3, -1])
        >>> y.shape
        [Dim(3), Dim(2)]
    """
    v = unary_operand(x, "reshape")
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
        raise GraphError(f"reshape needs a sequence of dimensions such as [3, 2], not {shape!r}")
    raw = list(shape)
    dims: list[int | Dimension] = [-1 if (isinstance(d, int) and d == -1) else as_dim(d, f"reshape to {raw}") for d in raw]
    if dims.count(-1) > 1:
        raise GraphError(f"reshape to {raw}: at most one dimension can be -1")
    size = _product(v.shape)
    known = _product(d for d in dims if not (isinstance(d, int) and d == -1))
    what = f"cannot reshape {format_shape(v.shape)} to {format_shape(raw)}"
    if -1 in dims:
        if any(isinstance(d, int) and d == 0 for d in dims):
            raise GraphError(f"reshape(): cannot infer -1 dimension when another dimension is 0 ({what}); give "
                             "every dimension")
        inferred = size // known if known != 0 else None
        if inferred is None or inferred * known != size:
            raise GraphError(f"{what}: {size} elements do not divide into parts of {known}")
        dims[dims.index(-1)] = inferred
    elif known != size:
        new_shape = "[" + ", ".join(repr(Dim(d)) for d in dims) + "]"
        raise GraphError(
            f"Failed to create op 'ReshapeOp':\nInputs:\n    input = TensorValue(dtype={v.storage.name}, "
            f"shape={v.shape!r}, device={v.device})\n    new_shape = {new_shape}\n\nDiagnostics:\n    "
            f"[reshape] input and output number of elements must match ({what}: {size} vs {known} elements). "
            "If you are confident this is correct, consider a rebind to assert that the reshape is valid "
            "(x.rebind([...]) checks the sizes when the graph runs)")
    return _reshaped(v, tuple(dims))


def broadcast_to(x: TensorValueLike, shape: ShapeLike, out_dims: Iterable[object] | None = None) -> Value:
    """``x`` broadcast to ``shape`` by NumPy's rules (a symbolic dimension only against itself and 1).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        shape: The target shape: a sequence of sizes and symbolic dimensions.
        out_dims: MAX's form for a shape computed in the graph; not supported (must be ``None``).

    Returns:
        A value of ``x``'s dtype (and weakness) with shape ``shape``.

    Raises:
        GraphError: ``x``'s shape does not broadcast to ``shape``, or the shape is a graph value.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("broadcast_to", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.broadcast_to(x, [4, 2, 3])
        >>> y.shape
        [Dim(4), Dim(2), Dim(3)]
    """
    v = unary_operand(x, "broadcast_to")
    if isinstance(shape, Value) or out_dims is not None:
        raise GraphError("broadcast_to takes its shape as a list of dimensions; a shape computed in the graph "
                         "(a tensor value, with out_dims=) is MAX's and not supported: pass e.g. ['batch', 10]")
    target = check_shape(shape, "broadcast_to shape")
    if len(target) < v.rank:
        raise GraphError(f"[broadcast_to] input ranks must less than or equal to the output rank: cannot broadcast "
                         f"shape {format_shape(v.shape)} to {format_shape(target)}, which has fewer axes")
    for i, d in enumerate(v.shape):
        j = i + len(target) - v.rank
        if d != target[j] and not (d == 1 and isinstance(d, int)):
            raise GraphError(f"[broadcast_to] input dimension at index {i} ({d}) must be either 1 or equal to "
                             f"corresponding output dimension at index {j} ({target[j]}): cannot broadcast shape "
                             f"{format_shape(v.shape)} to {format_shape(target)} (a symbolic dimension broadcasts "
                             "only to itself; rebind it first if they are equal when the graph runs)")
    return broadcast(v, target)


def permute(x: TensorValueLike, dims: Sequence[int]) -> Value:
    """The axes of ``x`` in the order ``dims`` (``stablehlo.transpose``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        dims: A permutation of all of ``x``'s axes (negative axes count from the end).

    Returns:
        A value of ``x``'s dtype (and weakness), its axes reordered: ``permute(x, [1, 0])`` of a
        ``[2, 3]`` value is ``[3, 2]``.

    Raises:
        GraphError: ``dims`` is not a permutation of ``x``'s axes.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("permute", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.permute(x, [1, 0])
        >>> y.shape
        [Dim(3), Dim(2)]
    """
    v = unary_operand(x, "permute")
    if isinstance(dims, (str, bytes)) or not isinstance(dims, Iterable):
        raise GraphError(f"permute needs a list of axes such as [1, 0], not {dims!r}")
    order = list(dims)
    if len(order) != v.rank:
        raise GraphError(f"permute: {order} orders {len(order)} axes, but the value has rank {v.rank}; list "
                         "every axis once")
    perm = [normalize_axis(a, v.rank, "permute") for a in order]
    if len(set(perm)) != len(perm):
        raise GraphError(f"permute: {order} repeats an axis; list every axis once")
    if perm == list(range(v.rank)):
        return v
    with v.graph.context:
        attrs = {"permutation": ir.DenseI64ArrayAttr.get(perm)}
    return _move(v, "stablehlo.transpose", [v.shape[p] for p in perm], attributes=attrs)


def transpose(x: TensorValueLike, axis_1: int, axis_2: int) -> Value:
    """``x`` with two axes swapped (MAX's meaning; ``x.T`` swaps the last two).

    For a full permutation, use :func:`permute`.

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis_1: One axis (negative counts from the end).
        axis_2: The other axis.

    Returns:
        A value of ``x``'s dtype (and weakness), with the two axes swapped.

    Raises:
        GraphError: An axis is out of range.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("transpose", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.transpose(x, 0, 1)
        >>> y.shape
        [Dim(3), Dim(2)]
    """
    v = unary_operand(x, "transpose")
    r = max(v.rank, 1)  # as in MAX, a scalar takes the axes of a rank-1 value and stays as it is
    a, b = (normalize_axis(axis, r, "transpose", max_says=f"Axis {name} out of range (expected to be in range of "
                                                           f"[{-r}, {r - 1}], but got {axis})")
            for name, axis in (("axis_1", axis_1), ("axis_2", axis_2)))
    if v.rank == 0:
        return v
    perm = list(range(v.rank))
    perm[a], perm[b] = perm[b], perm[a]
    return permute(v, perm)


def flatten(x: TensorValueLike, start_dim: int = 0, end_dim: int = -1) -> Value:
    """Axes ``start_dim`` to ``end_dim`` (inclusive) merged into one; a scalar becomes ``[1]``.

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        start_dim: The first axis to merge; default 0.
        end_dim: The last axis to merge; default -1.

    Returns:
        A value of ``x``'s dtype (and weakness), with the axes merged.

    Raises:
        GraphError: An axis is out of range, ``start_dim`` comes after ``end_dim``, or the merged
            axes include a symbolic dimension besides others.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("flatten", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.flatten(x)
        >>> y.shape
        [Dim(6)]
    """
    v = unary_operand(x, "flatten")
    if v.rank == 0:
        return _reshaped(v, (1,))
    start = normalize_axis(start_dim, v.rank, "flatten")
    end = normalize_axis(end_dim, v.rank, "flatten")
    if start > end:
        raise GraphError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim}")
    merged = v.shape[start:end + 1]
    size = _product(merged)  # algebraic when one is symbolic (MAX's batch * 3)
    return _reshaped(v, v.shape[:start] + (size,) + v.shape[end + 1:])


def squeeze(x: TensorValueLike, axis: int) -> Value:
    """``x`` without ``axis``, which must have size 1.

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The axis to remove (negative counts from the end).

    Returns:
        A value of ``x``'s dtype (and weakness), one rank lower.

    Raises:
        GraphError: ``axis`` is out of range or its size is not 1.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("squeeze", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.squeeze(ops.unsqueeze(x, 1), 1)
        >>> y.shape
        [Dim(2), Dim(3)]
    """
    v = unary_operand(x, "squeeze")
    a = normalize_axis(axis, v.rank, "squeeze")
    if not (isinstance(v.shape[a], int) and v.shape[a] == 1):
        raise GraphError(f"squeeze: axis {axis} has size {v.shape[a]}, not 1 (shape {format_shape(v.shape)})")
    return _reshaped(v, v.shape[:a] + v.shape[a + 1:])


def unsqueeze(x: TensorValueLike, axis: int) -> Value:
    """``x`` with a new axis of size 1 at ``axis`` (``-1`` appends one).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: Where the new axis goes, in ``[-rank - 1, rank]``.

    Returns:
        A value of ``x``'s dtype (and weakness), one rank higher.

    Raises:
        GraphError: ``axis`` is out of range.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("unsqueeze", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.unsqueeze(x, -1)
        >>> y.shape
        [Dim(2), Dim(3), Dim(1)]
    """
    v = unary_operand(x, "unsqueeze")
    a = normalize_axis(axis, v.rank + 1, "unsqueeze")
    return _reshaped(v, v.shape[:a] + (1,) + v.shape[a:])


def _tensors(values: Iterable[TensorValueLike], what: str, max_empty: str = "",
             max_dtypes: str = "") -> list[Value]:
    """The values of a ``concat`` or ``stack`` as graph values of one dtype; ``max_empty`` and
    ``max_dtypes`` are MAX's wording of the two errors for the op, which the messages carry first."""
    if isinstance(values, (Value, str, bytes)) or not isinstance(values, Iterable):
        raise GraphError(f"{what} takes a list of values, such as {what}([x, y])")
    given = list(values)
    if not given:
        raise GraphError(f"{max_empty}: " * bool(max_empty) + f"{what} needs at least one value")
    g = graph_of(*given)
    out = []
    for x in given:
        v = operand(x, g)
        if isinstance(v, Literal):
            raise GraphError(f"{what} takes tensors, not the Python scalar {x!r}; make it one with "
                             "ops.constant(value, dtype)")
        out.append(v)
    dtypes = {v.storage for v in out}
    if len(dtypes) > 1:
        raise GraphError(f"{max_dtypes}: " * bool(max_dtypes) + f"{what} does not promote (as in MAX): its values have dtypes "
                         f"{', '.join(sorted(d.name for d in dtypes))}; cast them to one dtype first")
    return out


def concat(original_vals: Iterable[TensorValueLike], axis: int = 0) -> Value:
    """The values joined along ``axis`` (``stablehlo.concatenate``); it does not promote (as in MAX).

    Args:
        original_vals: The values: graph values or NumPy arrays of one dtype and rank (at least 1),
            with equal sizes on every other axis.
        axis: The axis to join along; default 0.

    Returns:
        A value of their dtype whose ``axis`` is the sum of theirs.

    Raises:
        GraphError: No values, a Python scalar among them, dtypes or ranks that differ, sizes
            that differ on another axis, or symbolic sizes on ``axis``.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("concat", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.concat([x, x], axis=1)
        >>> y.shape
        [Dim(2), Dim(6)]
    """
    vals = _tensors(original_vals, "concat")
    rank = vals[0].rank
    if rank == 0 or any(v.rank != rank for v in vals):
        raise GraphError(f"concat needs values of one rank, at least 1; got shapes "
                         f"{', '.join(format_shape(v.shape) for v in vals)}")
    a = normalize_axis(axis, rank, "concat")
    for v in vals:
        if v.shape[:a] + v.shape[a + 1:] != vals[0].shape[:a] + vals[0].shape[a + 1:]:
            raise GraphError(f"concat along axis {axis}: shapes {', '.join(format_shape(v.shape) for v in vals)} "
                             "differ on another axis")
    joined = [v.shape[a] for v in vals]
    check_same_device(vals[0].graph, **{str(i): v for i, v in enumerate(vals)})
    if len(vals) == 1:
        return vals[0]
    shape = vals[0].shape[:a] + (_sum(joined),) + vals[0].shape[a + 1:]  # algebraic if one is symbolic, as MAX
    g = vals[0].graph
    with g.context:
        attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), a)}
    weak = all(v.is_weak for v in vals)
    op = g._add_op("stablehlo.concatenate", [g.tc.tensor(vals[0].storage, shape)], [v.ir for v in vals], attrs,
                   weak=weak)
    return Value(g, op.result, vals[0].ptype if weak else vals[0].storage, shape, storage=vals[0].storage)


def stack(values: Iterable[TensorValueLike], axis: int = 0) -> Value:
    """The values stacked along a new axis ``axis``; it does not promote (as in MAX).

    Args:
        values: The values: graph values or NumPy arrays of one dtype and one shape.
        axis: Where the new axis goes; default 0.

    Returns:
        A value of their dtype with a new axis of size ``len(values)``.

    Raises:
        GraphError: No values, or dtypes or shapes that differ.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("stack", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.stack([x, x, x])
        >>> y.shape
        [Dim(3), Dim(2), Dim(3)]
    """
    given = list(values) if isinstance(values, Iterable) and not isinstance(values, (Value, str, bytes)) else values
    ranks = {x.rank if isinstance(x, Value) else np.ndim(x) for x in given} if isinstance(given, list) else set()
    if len(ranks) > 1:
        raise GraphError("All inputs to stack must be the same rank: stack needs values of one shape; got ranks "
                         f"{', '.join(map(str, sorted(ranks)))}")
    vals = _tensors(given, "stack", max_empty="Expected at least one value to stack",
                    max_dtypes="All inputs to stack must have the same dtype")
    if any(v.shape != vals[0].shape for v in vals):
        raise GraphError(f"stack needs values of one shape; got {', '.join(format_shape(v.shape) for v in vals)}")
    r = vals[0].rank + 1
    a = normalize_axis(axis, r, "stack", max_says=f"Axis out of range (expected to be in range of [{-r}, {r - 1}], "
                       f"but got {axis})")
    return concat([unsqueeze(v, a) for v in vals], a)


def rebind(x: TensorValueLike, shape: ShapeLike, message: str = "") -> Value:
    """``x`` with the shape ``shape``, asserted when the graph runs.

    Where ``x`` has a symbolic dimension and ``shape`` a size or another name (or the other way
    round), the sizes must agree when the graph runs; the runtime reports ``message`` (or a
    message of its own) if they do not. A name no input has is defined here.

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        shape: The shape ``x`` is asserted to have, of ``x``'s rank.
        message: The error message when the sizes disagree at run time.

    Returns:
        ``x`` with shape ``shape`` (``x`` itself when the shapes are equal).

    Raises:
        GraphError: The ranks differ, or two static sizes differ.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("rebind", input_types=[TensorType(DType.float32, ["batch", 3])]) as g:
        ...     y = ops.rebind(g.inputs[0], [4, 3])
        ...     g.output(y)
        >>> y.shape
        [Dim(4), Dim(3)]
        >>> g.compile()(np.ones((5, 3), np.float32))
        Traceback (most recent call last):
          ...
        latticecast.runtime.runtime_errors.InputShapeError: ... axis 0 has size 5, not 4...
    """
    v = unary_operand(x, "rebind")
    new = check_shape(shape, "rebind shape")
    if len(new) != v.rank:
        raise GraphError(f"rebind of {format_shape(v.shape)} to {format_shape(new)}: the ranks differ; rebind "
                         "changes what the dimensions are called, not how many there are (use reshape)")
    if new == v.shape:
        return v
    g = v.graph
    i64 = g.tc.tensor(DType.int64, ())
    for axis, (have, want) in enumerate(zip(v.shape, new)):
        if have == want:
            continue
        if isinstance(have, int) and isinstance(want, int):
            raise GraphError(f"rebind of {format_shape(v.shape)} to {format_shape(new)}: axis {axis} has size "
                             f"{have}, not {want}")
        with g.context:
            attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis)}
        size = g._add_op("stablehlo.get_dimension_size", [g.tc.tensor(DType.int32, ())], [v.ir], attrs).result
        size = g._add_op("stablehlo.convert", [i64], [size]).result
        if want.__class__ is SymbolicDim and not g.knows_dim(want):
            g.name_dim(want, size)  # a new name: its size is this dimension's
            continue
        unknown = [p for p in Dim(want).parameters if not g.knows_dim(p)]
        if unknown:
            solved = solve_for(want, unknown[0]) if len(unknown) == 1 else None
            if solved is None:  # the expression as a whole has this size (its names have none alone)
                if not g.knows_dim(want):
                    g.name_dim(want, size)
                continue
            coef, rest = solved  # size == coef * name + rest, so name == (size - rest) // coef
            i64v = g.tc.tensor(DType.int64, ())
            left = g._add_op("stablehlo.subtract", [i64v], [size, dim_value(g, rest)]).result
            g.name_dim(unknown[0], g._add_op("stablehlo.divide", [i64v], [left, dim_value(g, StaticDim(coef))]).result)
        expected = dim_value(g, want)
        with g.context:
            eq = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get("EQ")}
        same = g._add_op("stablehlo.compare", [g.tc.tensor(DType.bool, ())], [size, expected], eq).result
        text = message or (f"rebind of {format_shape(v.shape)} to {format_shape(new)}: axis {axis} has size {{0}}, "
                           + ("not {1}" if isinstance(want, int) else f"not {want} (= {{1}})"))
        g.assert_when_run(same, [size, expected], text)
    return _move(v, "stablehlo.convert", new)


def transfer_to(x: TensorValueLike, device: DeviceRefLike) -> Value:
    """``x`` on ``device`` (MAX's ``ops.transfer_to``, ``x.to(device)``).

    The value itself when it is on ``device`` already; otherwise the value on ``device`` (see
    :meth:`Graph.place <latticecast.graph.graph.Graph.place>`): ops on it then run there, and
    the graph becomes a multi-device graph (docs/sharding.rst, "Multi-device graphs").

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        device: A :class:`~latticecast.DeviceRef` or a spelling such as ``"cpu"`` or ``"gpu:0"``.

    Returns:
        ``x`` on ``device``.

    Raises:
        GraphError: ``device`` is not a device.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("transfer_to", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     x = g.inputs[0]
        ...     y = ops.transfer_to(x, "cpu")
        ...     z = ops.transfer_to(x, "gpu:1")
        >>> y is x, z.device, g.devices
        (True, gpu:1, [cpu:0, gpu:1])
    """
    v = unary_operand(x, "transfer_to")
    return v.graph.place(v, DeviceRef.parse(device))


def shape_to_tensor(shape: ShapeLike) -> Value:
    """A shape as a rank-1 ``int64`` value (MAX's ``ops.shape_to_tensor``): its sizes, a symbolic
    dimension's read when the graph runs.

    Args:
        shape: A sequence of sizes and symbolic dimensions (such as ``x.shape``).

    Returns:
        An ``int64`` value of shape ``[len(shape)]`` in the current graph.

    Raises:
        GraphError: A dimension is neither a size nor a symbolic dimension, or there is no current graph.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("shape_to_tensor", input_types=[TensorType(DType.float32, ["batch", 3])]) as g:
        ...     g.output(ops.shape_to_tensor(g.inputs[0].shape))
        >>> g.compile()(np.zeros((5, 3), np.float32))[0].tolist()
        [5, 3]
    """
    dims = check_shape(shape, "shape_to_tensor")
    g = graph_of()
    return Value(g, shape_value(g, dims), DType.int64, (len(dims),))


def as_interleaved_complex(x: TensorValueLike) -> Value:
    """MAX's complex layout: the last axis's alternating (real, imag) pairs as a final axis of 2.

    Args:
        x: A value whose last dimension is static and even.

    Returns:
        ``x`` reshaped to ``[..., n // 2, 2]``.

    Raises:
        GraphError: The last dimension is symbolic (also a ``TypeError`` in MAX) or odd.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("c", input_types=[TensorType(DType.float32, [3, 8])]) as g:
        ...     g.output(ops.as_interleaved_complex(g.inputs[0]))
        >>> g.output_types[0].shape
        [Dim(3), Dim(4), Dim(2)]
    """
    v = unary_operand(x, "as_interleaved_complex")
    if v.rank == 0:
        raise GraphError("as_interleaved_complex needs a value with at least one axis (pairs of real, imag)")
    last = v.shape[-1]
    if not isinstance(last, int):
        raise TypeError(f"as_interleaved_complex: The last dimension must be static (it is {last}); rebind "
                        "it to a size")
    if int(last) % 2:
        raise GraphError(f"as_interleaved_complex: The last dimension must be divisible by 2 (it is {last}); pad or "
                         "slice it to an even size")
    return reshape(v, [*v.shape[:-1], int(last) // 2, 2])
