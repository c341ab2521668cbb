"""``roi_align`` (MAX's ``ops.roi_align``): fixed-size feature maps of regions of interest, by bilinear sampling.

The input is channels-last (``NHWC``); each row of ``rois`` is ``(batch_index, x1, y1, x2, y2)`` in
input coordinates before ``spatial_scale``. Each output cell ``(ph, pw)`` of a region averages
(``mode="AVG"``) or takes the largest of (``"MAX"``) a grid of bilinearly interpolated samples in its
bin, as torchvision's and ONNX's ``RoiAlign`` define it: with ``aligned`` the coordinates are shifted
by half a pixel (and a region may be smaller than a pixel), a sample more than one pixel outside the
input reads 0, and ``sampling_ratio=0`` samples each bin ``ceil(bin size)`` times in each direction.

In StableHLO: the bilinear taps are four ``gather`` s of the input at the floor and ceiling of each
sample's coordinates, weighted and summed. A fixed ``sampling_ratio`` unrolls its samples; the
adaptive grid (``0``), whose size each region's extent decides when the graph runs, is a
``stablehlo.while`` over the largest grid any region needs, each region counting only its own samples.
"""

from __future__ import annotations

import math

import numpy as np

from ...promotion.dtypes import DType
from ...errors import GraphError
from ..value import TensorValueLike, Value
from .operands import as_value, graph_of

__all__ = ["roi_align"]

_MODES = ("AVG", "MAX")


def roi_align(input: TensorValueLike, rois: TensorValueLike, output_height: int, output_width: int,
              spatial_scale: float = 1.0, sampling_ratio: float = 0.0, aligned: bool = False,
              mode: str = "AVG") -> Value:
    """ROI-align pooling of channels-last ``input`` over ``rois`` (MAX's ``ops.roi_align``).

    Args:
        input: ``[batch, height, width, channels]``, a float dtype.
        rois: ``[num_rois, 5]``: ``(batch_index, x1, y1, x2, y2)`` per region.
        output_height: The output rows per region.
        output_width: The output columns per region.
        spatial_scale: Multiplies the region coordinates into input coordinates.
        sampling_ratio: Samples per bin in each direction; ``0`` adapts to the bin (``ceil(bin size)``).
        aligned: Shift the coordinates by half a pixel (torchvision's ``aligned=True``).
        mode: ``"AVG"`` or ``"MAX"`` of each bin's samples.

    Returns:
        ``[num_rois, output_height, output_width, channels]`` of ``input``'s dtype.

    Raises:
        GraphError: (a ``ValueError``) ``input`` is not rank 4, ``rois`` not rank 2, or ``mode`` is unknown.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("roi", input_types=[TensorType(DType.float32, [1, 4, 4, 1]),
        ...                                TensorType(DType.float32, [1, 5])]) as g:
        ...     g.output(ops.roi_align(*g.inputs, output_height=2, output_width=2, sampling_ratio=1))
        >>> image = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
        >>> g.compile()(image, np.array([[0, 0, 0, 2, 2]], np.float32))[0][0, ..., 0].tolist()
        [[2.5, 3.5], [6.5, 7.5]]
    """
    g = graph_of(input, rois)
    x, boxes = as_value(input, g), as_value(rois, g)
    if x.rank != 4:
        raise GraphError(f"roi_align expects rank-4 NHWC input, got rank {x.rank}; give [batch, height, width, "
                         "channels]")
    if boxes.rank != 2:
        raise GraphError(f"roi_align expects rank-2 rois [M, 5], got rank {boxes.rank}; give one row (batch_index, "
                         "x1, y1, x2, y2) per region")
    if mode not in _MODES:
        raise GraphError(f"roi_align mode must be 'AVG' or 'MAX', got '{mode}'")
    height, width = x.shape[1], x.shape[2]
    if not isinstance(height, int) or not isinstance(width, int):
        raise GraphError(f"roi_align: the input's height and width must be static here (got {height}, {width}); "
                         "rebind the input to sizes")
    if boxes.shape[1] != 5:
        raise GraphError(f"roi_align expects rois [M, 5], got {list(boxes.shape)}; give (batch_index, x1, y1, x2, "
                         "y2) per region")
    oh, ow = int(output_height), int(output_width)
    compute = DType.float64 if x.dtype == DType.float64 else DType.float32
    from .elementwise import ceil, floor, maximum, minimum
    from .reduction import reduce_max
    from .selection import where

    data = x.cast(compute) if x.dtype != compute else x
    r = boxes.cast(compute) if boxes.dtype != compute else boxes
    offset = 0.5 if aligned else 0.0
    batch = r[:, 0].cast(DType.int64)
    x1, y1 = r[:, 1] * float(spatial_scale) - offset, r[:, 2] * float(spatial_scale) - offset
    x2, y2 = r[:, 3] * float(spatial_scale) - offset, r[:, 4] * float(spatial_scale) - offset
    roi_w, roi_h = x2 - x1, y2 - y1
    if not aligned:  # a region is at least one pixel
        roi_w, roi_h = maximum(roi_w, 1.0), maximum(roi_h, 1.0)
    bin_h, bin_w = roi_h / float(oh), roi_w / float(ow)  # [M]
    fixed = int(sampling_ratio) if sampling_ratio > 0 else 0
    if fixed:
        grid_h: float | Value = float(fixed)
        grid_w: float | Value = float(fixed)
        count: float | Value = float(fixed * fixed)
    else:
        grid_h, grid_w = ceil(roi_h / float(oh)), ceil(roi_w / float(ow))
        count = maximum(grid_h * grid_w, 1.0)

    cells_h = np.arange(oh, dtype=np.float64)[None, :]
    cells_w = np.arange(ow, dtype=np.float64)[None, :]

    def axis_taps(start: Value, bin_size: Value, grid: float | Value, i: float | Value, size: int, cells: np.ndarray) -> tuple[Value, ...]:
        """For sample ``i`` of each bin along one axis: the low and high pixel, their weights, and whether the
        sample lies within a pixel of the input ([M, cells])."""
        step = bin_size / grid if isinstance(grid, float) else bin_size / maximum(grid, 1.0)
        at = start.reshape([-1, 1]) + bin_size.reshape([-1, 1]) * cells.astype(np.float32 if compute == DType.float32
                                                                                 else np.float64)
        at = at + (i + 0.5) * step.reshape([-1, 1])
        inside = (at >= -1.0) & (at <= float(size))
        at = maximum(at, 0.0)
        low = floor(at)
        clamped = low >= float(size - 1)
        low = minimum(low, float(size - 1))
        high = minimum(low + 1.0, float(size - 1))
        frac = where(clamped, 0.0, at - low)
        return low.cast(DType.int64), high.cast(DType.int64), 1.0 - frac, frac, inside

    def sample(iy: float | Value, ix: float | Value) -> tuple[Value, Value | None]:
        """Sample (iy, ix) of every bin: its bilinear value ([M, oh, ow, C]) and whether the region counts it."""
        from .gather import gather_nd
        from .shape import stack

        y_low, y_high, wy_low, wy_high, in_y = axis_taps(y1, bin_h, grid_h, iy, height, cells_h)
        x_low, x_high, wx_low, wx_high, in_x = axis_taps(x1, bin_w, grid_w, ix, width, cells_w)
        m = boxes.shape[0]
        shape = [m, oh, ow]
        b = batch.reshape([-1, 1, 1]).broadcast_to(shape)

        def tap(ys: Value, xs: Value) -> Value:
            index = stack([b, ys.reshape([-1, oh, 1]).broadcast_to(shape), xs.reshape([-1, 1, ow]).broadcast_to(shape)],
                          axis=-1)
            return gather_nd(data, index)

        def outer(a: Value, c: Value) -> Value:
            return (a.reshape([-1, oh, 1]) * c.reshape([-1, 1, ow])).reshape([-1, oh, ow, 1])

        value = (outer(wy_low, wx_low) * tap(y_low, x_low) + outer(wy_low, wx_high) * tap(y_low, x_high)
                 + outer(wy_high, wx_low) * tap(y_high, x_low) + outer(wy_high, wx_high) * tap(y_high, x_high))
        inside = (in_y.reshape([-1, oh, 1]) & in_x.reshape([-1, 1, ow])).reshape([-1, oh, ow, 1])
        value = where(inside, value, 0.0)
        if fixed:  # every region takes every sample
            return value, None
        assert isinstance(iy, Value) and isinstance(ix, Value)  # the loop's counters: values without a fixed grid
        return value, ((iy < grid_h) & (ix < grid_w)).reshape([-1, 1, 1, 1])

    start = -math.inf if mode == "MAX" else 0.0
    acc_shape = [boxes.shape[0], oh, ow, x.shape[3]]
    acc0 = g.constant(np.asarray(start, dtype=compute.np_dtype), compute).broadcast_to(acc_shape)

    def accumulate(acc: Value, value: Value, counted: Value | None) -> Value:
        if mode == "MAX":
            return maximum(acc, value) if counted is None else where(counted, maximum(acc, value), acc)
        return acc + (value if counted is None else where(counted, value, 0.0))

    if fixed:
        acc = acc0
        for iy in range(fixed):
            for ix in range(fixed):
                acc = accumulate(acc, *sample(float(iy), float(ix)))
    else:
        from .control_flow import while_loop

        most_w = reduce_max(grid_w, axis=0).reshape([]).cast(DType.int64)
        most_w = maximum(most_w, g.constant(np.int64(1), DType.int64))
        total = (reduce_max(grid_h, axis=0).reshape([]).cast(DType.int64)) * most_w
        k0 = g.constant(np.int64(0), DType.int64)

        def body(k: Value, acc: Value) -> list[Value]:
            iy, ix = (k // most_w).cast(compute), (k % most_w).cast(compute)
            return [k + 1, accumulate(acc, *sample(iy, ix))]

        _, acc = while_loop([k0, acc0], lambda k, acc: k < total, body)
    if mode == "MAX":
        result = where(acc == -math.inf, 0.0, acc)  # a region with no samples gives 0
    elif isinstance(count, float):
        result = acc / count
    else:
        result = acc / count.reshape([-1, 1, 1, 1])
    return result.cast(x.dtype) if x.dtype != compute else result
