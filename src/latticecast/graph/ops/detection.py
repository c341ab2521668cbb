"""MAX's ``ops.non_maximum_suppression``: greedy non-maximum suppression in StableHLO.

For every (batch, class) pair the boxes whose score is above ``score_threshold`` are taken in
descending score order (a stable sort: equal scores keep box order), and a box is selected
unless it overlaps an already selected box by an IoU above ``iou_threshold``, until
``max_output_boxes_per_class`` are selected. The loop over the sorted boxes is one
``stablehlo.while`` for all pairs at once; the IoU of every pair of a batch's boxes is computed
up front (``batch * boxes**2`` values).

The number of selected boxes is known only when the graph runs, and StableHLO needs a result
size when it builds the graph: ``out_dim`` is that size, an integer, as for
:func:`~latticecast.ops.nonzero`. The rows are MAX's ``(batch_index, class_index, box_index)``,
pair by pair and in selection order; rows past the selection are ``-1``. MAX's symbolic
``out_dim`` (``"num_selected"``) is refused with that fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...promotion.dtypes import DType
from ...errors import GraphError
from ..value import TensorValueLike, Value
from .control_flow import fori_loop
from .dynamic import iota
from .elementwise import (add, bitwise_and, bitwise_not, bitwise_or, divide, equal, greater, less, maximum,
                          minimum, multiply, subtract)
from .gather import nonzero, take_along_axis
from .operands import broadcast, constant_value, convert, graph_of, operand
from .reduction import reduce_max, reduce_sum
from .selection import where
from .shape import format_shape, stack
from .sorting import argsort_along

if TYPE_CHECKING:
    from ...promotion.dims import DimLike
    from ..graph import Graph

__all__ = ["non_maximum_suppression"]


def non_maximum_suppression(boxes: TensorValueLike, scores: TensorValueLike,
                            max_output_boxes_per_class: TensorValueLike, iou_threshold: TensorValueLike,
                            score_threshold: TensorValueLike, out_dim: "DimLike" = "num_selected") -> Value:
    """The boxes greedy non-maximum suppression selects, per (batch, class) pair (MAX's
    ``ops.non_maximum_suppression``).

    Args:
        boxes: ``[batch, num_boxes, 4]`` floats, each box ``(y1, x1, y2, x2)`` (either corner first).
        scores: ``[batch, num_classes, num_boxes]`` scores, of ``boxes``' dtype.
        max_output_boxes_per_class: A scalar integer: at most this many boxes per pair.
        iou_threshold: A scalar: a box overlapping a selected one by more is suppressed.
        score_threshold: A scalar: boxes scoring at or below it are never selected.
        out_dim: The number of result rows, an integer (at most ``batch * num_classes *
            num_boxes`` are ever selected).

    Returns:
        An ``int64`` value of shape ``[out_dim, 3]``: ``(batch_index, class_index, box_index)`` per
        selected box, pair by pair in selection order, then rows of ``-1``.

    Raises:
        GraphError: The shapes or dtypes are not as above, a symbolic axis, or ``out_dim`` is not
            a non-negative integer.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("nms", input_types=[TensorType(DType.float32, [1, 3, 4]),
        ...                                TensorType(DType.float32, [1, 1, 3])]) as g:
        ...     boxes, scores = g.inputs
        ...     g.output(ops.non_maximum_suppression(boxes, scores, 2, 0.5, 0.0, out_dim=3))
        >>> boxes = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [2, 2, 3, 3]]], np.float32)
        >>> g.compile()(boxes, np.array([[[0.9, 0.8, 0.7]]], np.float32))[0].tolist()
        [[0, 0, 0], [0, 0, 2], [-1, -1, -1]]
    """
    g = graph_of(boxes, scores)
    b, s = _value(boxes, g, None, "boxes"), _value(scores, g, None, "scores")
    if b.rank != 3 or b.shape[2] != 4 or not b.dtype.is_float():
        raise GraphError(f"non_maximum_suppression: boxes must be floats of shape [batch, num_boxes, 4], not "
                         f"{b.dtype} {format_shape(b.shape)}")
    if s.rank != 3 or s.dtype != b.dtype:
        raise GraphError(f"non_maximum_suppression: scores must be {b.dtype} of shape [batch, num_classes, "
                         f"num_boxes], not {s.dtype} {format_shape(s.shape)}")
    batch, count, classes = b.shape[0], b.shape[1], s.shape[1]
    if not (isinstance(batch, int) and isinstance(count, int) and isinstance(classes, int)):
        raise GraphError(f"non_maximum_suppression: boxes {format_shape(b.shape)} and scores "
                         f"{format_shape(s.shape)} have symbolic axes; rebind them to sizes first")
    if s.shape[0] != batch or s.shape[2] != count:
        raise GraphError(f"non_maximum_suppression: scores {format_shape(s.shape)} must be [batch, num_classes, "
                         f"num_boxes] for boxes {format_shape(b.shape)}")
    most = batch * classes * count
    if isinstance(out_dim, bool) or not isinstance(out_dim, (int, np.integer)) or not 0 <= out_dim <= most:
        raise GraphError(f"non_maximum_suppression: out_dim must be an integer from 0 to {most}, the number of "
                         f"result rows, not {out_dim!r}: StableHLO needs the size when it builds the graph (MAX's "
                         f"symbolic out_dim is a size known only when the graph runs); rows past the selection "
                         f"are -1")
    limit = _value(max_output_boxes_per_class, g, DType.int64, "max_output_boxes_per_class")
    iou_limit = _value(iou_threshold, g, b.dtype, "iou_threshold")
    score_limit = _value(score_threshold, g, b.dtype, "score_threshold")

    iou = _pairwise_iou(b)                                            # [batch, boxes, boxes]
    order = argsort_along(s, -1, descending=True)                     # [batch, classes, boxes]
    ranked_valid = greater(take_along_axis(s, order, -1), broadcast(score_limit, s.shape))
    per_pair = (batch, classes, count, count)
    rows_ranked = take_along_axis(broadcast(_unsqueezed(iou, 1), per_pair), _expanded(order, 3, per_pair), 2)
    ranked_iou = take_along_axis(rows_ranked, _expanded(order, 2, per_pair), 3)  # [b, c, rank, rank]
    positions = iota(g, DType.int64, (batch, classes, count), 2)

    def step(i: Value, state: tuple[Value, Value]) -> tuple[Value, Value]:
        selected, taken = state
        here = equal(positions, broadcast(convert(i, DType.int64), positions.shape))
        row = reduce_sum(where(broadcast(_unsqueezed(here, 3), per_pair), ranked_iou,
                               broadcast(constant_value(g, 0, b.dtype), per_pair)), 2)   # [b, c, rank]
        overlaps = greater(row, broadcast(iou_limit, row.shape))
        suppressed = greater(reduce_max(convert(bitwise_and(selected, overlaps), DType.int32), -1),
                             broadcast(constant_value(g, 0, DType.int32), taken.shape))
        valid_here = greater(reduce_max(convert(bitwise_and(here, ranked_valid), DType.int32), -1),
                             broadcast(constant_value(g, 0, DType.int32), taken.shape))
        keep = bitwise_and(bitwise_and(valid_here, bitwise_not(suppressed)), less(taken, broadcast(limit, taken.shape)))
        selected = bitwise_or(selected, bitwise_and(here, broadcast(_unsqueezed(keep, 2), here.shape)))
        return selected, add(taken, convert(keep, DType.int64))

    nothing = broadcast(constant_value(g, False, DType.bool), (batch, classes, count))
    selected, taken = fori_loop(constant_value(g, 0, DType.int64), constant_value(g, count, DType.int64), step,
                                (nothing, broadcast(constant_value(g, 0, DType.int64), (batch, classes))))
    if out_dim == 0:
        return broadcast(constant_value(g, 0, DType.int64), (0, 3))
    found = nonzero(selected, int(out_dim))                            # [out_dim, 3]: batch, class, rank
    pair = add(multiply(_column(found, 0), constant_value(g, classes, DType.int64)), _column(found, 1))
    flat_order = _flat(order, batch * classes, count)
    orders = take_along_axis(flat_order, broadcast(_unsqueezed(pair, 1), (int(out_dim), count)), 0)
    box = take_along_axis(orders, _unsqueezed(_column(found, 2), 1), 1)
    rows = stack([_column(found, 0), _column(found, 1), _flat(box, int(out_dim), 1, squeeze=True)], 1)
    total = reduce_sum(_flat(convert(selected, DType.int64), most, 1, squeeze=True), 0)
    row_index = iota(g, DType.int64, (int(out_dim), 3), 0)
    return where(less(row_index, broadcast(total, (int(out_dim), 3))), rows,
                 broadcast(constant_value(g, -1, DType.int64), (int(out_dim), 3)))


def _value(x: TensorValueLike, g: "Graph", dtype: DType | None, what: str) -> Value:
    found = operand(x, g)
    v = found if isinstance(found, Value) else constant_value(g, np.asarray(found.value), dtype)
    if dtype is not None and v.rank != 0:
        raise GraphError(f"non_maximum_suppression: {what} must be a scalar, not of shape {format_shape(v.shape)}")
    return v if dtype is None or v.dtype == dtype else convert(v, dtype)


def _unsqueezed(v: Value, axis: int) -> Value:
    from .shape import unsqueeze

    return unsqueeze(v, axis)


def _expanded(order: Value, axis: int, shape: tuple[int, ...]) -> Value:
    return broadcast(_unsqueezed(order, axis), shape)


def _column(v: Value, index: int) -> Value:
    return _flat(v[:, index:index + 1], v.shape[0], 1, squeeze=True)


def _flat(v: Value, rows: int, columns: int, *, squeeze: bool = False) -> Value:
    from .shape import reshape

    return reshape(v, [rows] if squeeze else [rows, columns])


def _pairwise_iou(boxes: Value) -> Value:
    """``iou[b, i, j]``: the intersection over union of boxes ``i`` and ``j`` of batch ``b`` (0 where the
    union is empty)."""
    g = boxes.graph
    n = boxes.shape[1]
    corner = [_flat(boxes[:, :, k:k + 1], boxes.shape[0], n) for k in range(4)]
    low_y, high_y = minimum(corner[0], corner[2]), maximum(corner[0], corner[2])
    low_x, high_x = minimum(corner[1], corner[3]), maximum(corner[1], corner[3])
    shape = (boxes.shape[0], n, n)

    def rows(v: Value) -> Value:
        return broadcast(_unsqueezed(v, 2), shape)

    def columns(v: Value) -> Value:
        return broadcast(_unsqueezed(v, 1), shape)

    zero = broadcast(constant_value(g, 0, boxes.dtype), shape)
    height = maximum(subtract(minimum(rows(high_y), columns(high_y)), maximum(rows(low_y), columns(low_y))), zero)
    width = maximum(subtract(minimum(rows(high_x), columns(high_x)), maximum(rows(low_x), columns(low_x))), zero)
    inter = multiply(height, width)
    area = multiply(subtract(high_y, low_y), subtract(high_x, low_x))
    union = subtract(add(rows(area), columns(area)), inter)
    positive = greater(union, zero)
    return where(positive, divide(inter, where(positive, union, broadcast(constant_value(g, 1, boxes.dtype), shape))),
                 zero)
