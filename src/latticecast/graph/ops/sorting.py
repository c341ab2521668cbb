"""Sorting and running sums: MAX's ``top_k``, ``bottom_k``, ``argsort`` and ``cumsum``, and NumPy's
``sort`` and ``argsort`` (as ``argsort_along``), by ``stablehlo.sort`` and ``stablehlo.reduce_window``.

Sorts are stable: equal elements keep their order, so ``top_k`` of ``[0, 7, 7]`` gives indices
``[1, 2]`` and a descending ``argsort`` lists equal elements first to last (measured with MAX).
Floats sort in IEEE's total order: ``-nan < -inf < ... < -0.0 < 0.0 < ... < inf < nan``, so a NaN
is the largest element (``top_k`` picks it first, ``bottom_k`` last). Indices are ``int64``.

==============================  =====================================================================
``top_k(x, k, axis=-1)``        MAX's: the ``k`` largest along ``axis``, largest first, and their indices
``bottom_k(x, k, axis=-1)``     MAX's: the ``k`` smallest, smallest first
``argsort(x, ascending=True)``  MAX's: a rank-1 ``x`` only (NumPy's ``argsort(a, axis)`` would read its
                                axis as ``ascending``: it is ``argsort_along``)
``argsort_along(x, axis=-1)``   NumPy's ``np.argsort`` (and JAX's ``descending=`` keyword)
``sort(x, axis=-1)``            NumPy's ``np.sort`` (and JAX's ``descending=``; MAX has none)
``cumsum(x, axis=-1, ...)``     MAX's, with ``exclusive`` and ``reverse``; NumPy's ``np.cumsum(a, axis=None)``
                                flattens by default where MAX's takes the last axis: MAX's wins
==============================  =====================================================================

``cumsum`` accumulates in the policy's sum dtype (:meth:`Policy.sum_type`): MAX's keeps the dtype, as
``ops.sum`` does; ``jnp.cumsum`` widens small integers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...dialect_utils.types import dense_elements
from ...promotion.dims import SymbolicDim
from ...promotion.dtypes import DType
from ...errors import DomainError, GraphError
from ..value import TensorValueLike, Value
from .dynamic import iota
from .operands import constant_value, convert, unary_operand
from .reduction import _Body
from .shape import format_shape, normalize_axis

if TYPE_CHECKING:
    from ...promotion.dims import Dim

__all__ = ["top_k", "bottom_k", "argsort", "argsort_along", "sort", "cumsum"]


@overload
def _static_axis(v: Value, axis: object, what: str, max_says: str | None = None, *,
                 static: Literal[True] = True) -> tuple[int, int]: ...
@overload
def _static_axis(v: Value, axis: object, what: str, max_says: str | None = None, *,
                 static: bool) -> "tuple[int, int | Dim]": ...


def _static_axis(v: Value, axis: object, what: str, max_says: str | None = None, *,
                 static: bool = True) -> "tuple[int, int | Dim]":
    """``axis`` of ``v`` as an index, and its size, which must be static (unless ``static`` is false:
    ``stablehlo.sort`` sorts an axis whose size is known when the graph runs; ``max_says``: MAX's wording
    of an axis out of range)."""
    a = normalize_axis(axis, v.rank, what, max_says=max_says)
    n = v.shape[a]
    if static and not isinstance(n, int):
        raise GraphError(f"{what}: axis {axis} of {format_shape(v.shape)} is symbolic; StableHLO needs its size to "
                         "sort or scan it: rebind it to a size first (x.rebind([...]))")
    return a, n


def _sortable(x: TensorValueLike, what: str) -> Value:
    v = unary_operand(x, what)
    if v.rank == 0:
        raise GraphError(f"{what} needs a value with at least one axis, not a scalar")
    if v.storage.is_complex:
        raise DomainError(f"{what}: complex values have no order; sort their real part or magnitude instead")
    # a weak value (a broadcast Python scalar) is sorted as the dtype it is stored in: the sort's second
    # result, the int64 indices, must not be re-typed with it
    return convert(v, v.storage) if v.is_weak else v


def _sorted(v: Value, axis: int, descending: bool) -> tuple[Value, Value]:
    """``v`` sorted along ``axis`` (stably, floats in total order) and the ``int64`` indices of the order."""
    g = v.graph
    index = iota(g, DType.int64, v.shape, axis)
    vt, it = g.tc.tensor(v.storage, ()), g.tc.tensor(DType.int64, ())
    with g.context:
        attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis),
                 "is_stable": ir.BoolAttr.get(True)}
        compare: dict[str, ir.Attribute] = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get("GT" if descending else "LT")}
        if v.storage.is_inexact:
            compare["compare_type"] = stablehlo.ComparisonTypeAttr.get("TOTALORDER")
    op = g._add_op("stablehlo.sort", [g.tc.tensor(v.storage, v.shape), g.tc.tensor(DType.int64, v.shape)],
                   [v.ir, index.ir], attrs, regions=1, weak=v.is_weak)
    block = ir.Block.create_at_start(op.regions[0], [vt, vt, it, it], [g.loc] * 4)
    body = _Body(g, block)
    a, b = block.arguments[0], block.arguments[1]
    before = ir.Operation.create("stablehlo.compare", results=[body.bool], operands=[a, b], attributes=compare,
                                 loc=g.loc, ip=body.ip).result
    body.done(before)
    values = Value(g, op.results[0], v.ptype, v.shape, storage=v.storage)
    return values, Value(g, op.results[1], DType.int64, v.shape)


def _first(v: Value, axis: int, k: int) -> Value:
    """The first ``k`` elements of ``v`` along ``axis`` (``stablehlo.slice``)."""
    if v.shape[axis] == k:
        return v
    g = v.graph
    shape = tuple(k if d == axis else n for d, n in enumerate(v.shape))
    with g.context:
        attrs = {"start_indices": ir.DenseI64ArrayAttr.get([0] * v.rank),
                 "limit_indices": ir.DenseI64ArrayAttr.get(list(shape)),  # static
                 "strides": ir.DenseI64ArrayAttr.get([1] * v.rank)}
    op = g._add_op("stablehlo.slice", [g.tc.tensor(v.storage, shape)], [v.ir], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)


def _extreme_k(input: TensorValueLike, k: int, axis: int, largest: bool) -> tuple[Value, Value]:
    what = "top_k" if largest else "bottom_k"
    v = _sortable(input, what)
    a, n = _static_axis(v, axis, what, max_says=f"axis ({axis}) out of bounds")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise GraphError(f"{what}: k must be an integer, not {k!r}")
    if k > n:
        raise GraphError(f"{what}: k ({k}) cannot be larger than dimension size along axis {a}: k={k} is out of "
                         f"range for axis {axis} of size {n} (shape {format_shape(v.shape)}); k must be from 0 to {n}")
    if not 0 <= k <= n:
        raise GraphError(f"{what}: k={k} is out of range for axis {axis} of size {n} (shape "
                         f"{format_shape(v.shape)}); k must be from 0 to {n}")
    values, indices = _sorted(v, a, descending=largest)
    return _first(values, a, int(k)), _first(indices, a, int(k))


def top_k(input: TensorValueLike, k: int, axis: int = -1) -> tuple[Value, Value]:
    """The ``k`` largest elements along ``axis``, largest first, and their indices (MAX's ``ops.top_k``).

    Equal elements come in index order; a NaN counts as the largest.

    Args:
        input: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        k: How many to take, from 0 to the size of ``axis``.
        axis: The axis to pick along (negative counts from the end); default -1.

    Returns:
        ``(values, indices)``: ``input``'s dtype and ``int64``, both of ``input``'s shape with ``axis``
        of size ``k``.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``k`` is out of range, or ``axis`` is symbolic.
        DomainError: ``input`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("top_k", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(*ops.top_k(g.inputs[0], 2))
        >>> [r.tolist() for r in g.compile()(np.array([3, 1, 7, 5], np.float32))]
        [[7.0, 5.0], [2, 3]]
    """
    return _extreme_k(input, k, axis, largest=True)


def bottom_k(input: TensorValueLike, k: int, axis: int = -1) -> tuple[Value, Value]:
    """The ``k`` smallest elements along ``axis``, smallest first, and their indices (MAX's
    ``ops.bottom_k``).

    Equal elements come in index order; a NaN counts as the largest. MAX wraps an out-of-range
    ``axis`` around (``axis % rank``); latticecast refuses it.

    Args:
        input: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        k: How many to take, from 0 to the size of ``axis``.
        axis: The axis to pick along (negative counts from the end); default -1.

    Returns:
        ``(values, indices)``: ``input``'s dtype and ``int64``, both of ``input``'s shape with ``axis``
        of size ``k``.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``k`` is out of range, or ``axis`` is symbolic.
        DomainError: ``input`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("bottom_k", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(*ops.bottom_k(g.inputs[0], 3))
        >>> [r.tolist() for r in g.compile()(np.array([3, 1, 7, 1], np.int32))]
        [[1, 1, 3], [1, 3, 0]]
    """
    return _extreme_k(input, k, axis, largest=False)


def argsort(x: TensorValueLike, ascending: bool = True) -> Value:
    """The indices that sort a rank-1 ``x`` (MAX's ``ops.argsort``); stable.

    For another rank, or NumPy's ``argsort(a, axis)``, use :func:`argsort_along`.

    Args:
        x: A rank-1 value.
        ascending: Smallest first (the default), or largest first.

    Returns:
        An ``int64`` value of ``x``'s shape.

    Raises:
        GraphError: ``x`` does not have rank 1 (MAX's limit), or its axis is symbolic.
        DomainError: ``x`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("argsort", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.argsort(g.inputs[0]), ops.argsort(g.inputs[0], ascending=False))
        >>> [r.tolist() for r in g.compile()(np.array([3, 1, 1, 0], np.float32))]
        [[3, 1, 2, 0], [0, 1, 2, 3]]
    """
    v = _sortable(x, "argsort")
    if v.rank != 1:
        raise GraphError(f"argsort only implemented for input tensors of rank 1 (MAX's limit), not one of shape "
                         f"{format_shape(v.shape)}; "
                         "use ops.argsort_along(x, axis) for another rank")
    _static_axis(v, 0, "argsort", static=False)
    return _sorted(v, 0, descending=not ascending)[1]


def argsort_along(x: TensorValueLike, axis: int = -1, *, descending: bool = False) -> Value:
    """NumPy's ``np.argsort(a, axis)``: the indices that sort ``x`` along ``axis``; stable.

    Args:
        x: The value.
        axis: The axis to sort along (negative counts from the end); default -1.
        descending: Largest first (JAX's keyword); default smallest first.

    Returns:
        An ``int64`` value of ``x``'s shape.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``x`` is a scalar, or ``axis`` is symbolic.
        DomainError: ``x`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("argsort_along", input_types=[TensorType(DType.int8, [2, 2])]) as g:
        ...     g.output(ops.argsort_along(g.inputs[0], axis=0))
        >>> g.compile()(np.array([[3, 1], [2, 4]], np.int8))[0].tolist()
        [[1, 0], [0, 1]]
    """
    v = _sortable(x, "argsort_along")
    a, _ = _static_axis(v, axis, "argsort_along", static=False)
    return _sorted(v, a, descending)[1]


def sort(x: TensorValueLike, axis: int = -1, *, descending: bool = False) -> Value:
    """NumPy's ``np.sort``: ``x`` sorted along ``axis`` (floats in total order: NaN last).

    Args:
        x: The value.
        axis: The axis to sort along (negative counts from the end); default -1.
        descending: Largest first (JAX's keyword); default smallest first.

    Returns:
        A value of ``x``'s dtype (and weakness) and shape.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``x`` is a scalar, or ``axis`` is symbolic.
        DomainError: ``x`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("sort", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.sort(g.inputs[0]))
        >>> g.compile()(np.array([2, np.nan, -1, 0.5], np.float32))[0].tolist()
        [-1.0, 0.5, 2.0, nan]
    """
    v = _sortable(x, "sort")
    a, _ = _static_axis(v, axis, "sort", static=False)
    return _sorted(v, a, descending)[0]


def cumsum(x: TensorValueLike, axis: int = -1, exclusive: bool = False, reverse: bool = False) -> Value:
    """The running sum along ``axis`` (MAX's ``ops.cumsum``; ``stablehlo.reduce_window``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        axis: The axis to sum along (negative counts from the end); default -1.
        exclusive: Each element's sum leaves it out (the first is 0).
        reverse: Sum from the end of the axis towards its start.

    Returns:
        A value of ``x``'s shape, in the policy's sum dtype (MAX's: ``x``'s dtype).

    Raises:
        AxisError: ``axis`` is out of range (MAX raises a ``ValueError``; this error is both).
        GraphError: ``axis`` is symbolic, or the dtype has no zero.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("cumsum", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     x = g.inputs[0]
        ...     g.output(ops.cumsum(x), ops.cumsum(x, exclusive=True, reverse=True))
        >>> [r.tolist() for r in g.compile()(np.array([1, 2, 3, 4], np.float32))]
        [[1.0, 3.0, 6.0, 10.0], [9.0, 7.0, 4.0, 0.0]]
    """
    v = unary_operand(x, "cumsum")
    if v.rank == 0:
        raise GraphError("cumsum needs a value with at least one axis, not a scalar")
    a, n = _static_axis(v, axis, "cumsum", static=False)
    g = v.graph
    dtype = g.policy.op_types.sum(v.storage)
    if not dtype.has_zero:
        raise GraphError(f"cumsum of {dtype.name} has no starting value: the dtype has no zero; cast to a float "
                         "with zero first (x.cast(DType.float32))")
    if dtype is not v.storage or v.is_weak:
        v = convert(v, dtype)
    if not isinstance(n, int):
        return _masked_cumsum(v, a, n, exclusive, reverse)
    if reverse:
        v = _reversed(v, a)
    zero = constant_value(g, np.zeros((), dtype.np_dtype), dtype)
    if exclusive:  # shift right by one along the axis: a 0 in front, the last element dropped
        v = _shifted(v, a, zero)
    scalar = g.tc.tensor(dtype, ())
    with g.context:
        window = [n if d == a else 1 for d in range(v.rank)]
        padding = np.zeros((v.rank, 2), np.int64)
        padding[a, 0] = n - 1
        attrs = {"window_dimensions": ir.DenseI64ArrayAttr.get(window),
                 "padding": dense_elements(padding)}
    op = g._add_op("stablehlo.reduce_window", [g.tc.tensor(dtype, v.shape)], [v.ir, zero.ir], attrs, regions=1)
    block = ir.Block.create_at_start(op.regions[0], [scalar, scalar], [g.loc, g.loc])
    body = _Body(g, block)
    body.done(body.emit("stablehlo.add", scalar, *block.arguments))
    out = Value(g, op.result, dtype, v.shape)
    return _reversed(out, a) if reverse else out


def _masked_cumsum(v: Value, a: int, n: "int | Dim", exclusive: bool, reverse: bool) -> Value:
    """``cumsum`` along an axis whose size is known only when the graph runs (``reduce_window`` needs a
    static window): ``v`` contracted along ``a`` with the triangular mask ``m[j, i] = j <= i`` (``<``
    when exclusive, ``>=`` / ``>`` when reversed), built with ``dynamic_iota``."""
    g = v.graph
    square = (n, n)
    rows, cols = iota(g, DType.int64, square, 0), iota(g, DType.int64, square, 1)
    direction = {(False, False): "LE", (True, False): "LT", (False, True): "GE", (True, True): "GT"}
    attrs: dict[str, ir.Attribute]
    with g.context:
        attrs = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get(direction[exclusive, reverse])}
    keep = g._add_op("stablehlo.compare", [g.tc.tensor(DType.bool, square)], [rows.ir, cols.ir], attrs).result
    mask = g._add_op("stablehlo.convert", [g.tc.tensor(v.storage, square)], [keep]).result
    others = [d for d in range(v.rank) if d != a]
    summed_shape = tuple(v.shape[d] for d in others) + (n,)
    with g.context:
        attrs = {"dot_dimension_numbers": stablehlo.DotDimensionNumbers.get(
            lhs_batching_dimensions=[], rhs_batching_dimensions=[], lhs_contracting_dimensions=[a],
            rhs_contracting_dimensions=[0])}
    summed = g._add_op("stablehlo.dot_general", [g.tc.tensor(v.storage, summed_shape)], [v.ir, mask], attrs).result
    if a == v.rank - 1:
        return Value(g, summed, v.storage, v.shape)
    permutation = [d if d < a else v.rank - 1 if d == a else d - 1 for d in range(v.rank)]
    with g.context:
        attrs = {"permutation": ir.DenseI64ArrayAttr.get(permutation)}
    op = g._add_op("stablehlo.transpose", [g.tc.tensor(v.storage, v.shape)], [summed], attrs)
    return Value(g, op.result, v.storage, v.shape)


def _reversed(v: Value, axis: int) -> Value:
    g = v.graph
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get([axis])}
    op = g._add_op("stablehlo.reverse", [g.tc.tensor(v.storage, v.shape)], [v.ir], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, v.shape, storage=v.storage)


def _shifted(v: Value, axis: int, fill: Value) -> Value:
    """``v`` moved one place along ``axis``: ``fill`` first, the last element gone (``stablehlo.pad`` by
    1 in front and -1 behind)."""
    g = v.graph
    with g.context:
        attrs = {"edge_padding_low": ir.DenseI64ArrayAttr.get([1 if d == axis else 0 for d in range(v.rank)]),
                 "edge_padding_high": ir.DenseI64ArrayAttr.get([-1 if d == axis else 0 for d in range(v.rank)]),
                 "interior_padding": ir.DenseI64ArrayAttr.get([0] * v.rank)}
    op = g._add_op("stablehlo.pad", [g.tc.tensor(v.storage, v.shape)], [v.ir, fill.ir], attrs)
    return Value(g, op.result, v.storage, v.shape)
