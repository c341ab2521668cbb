"""Pooling as MAX names it, by ``stablehlo.reduce_window``: ``max_pool2d`` and ``avg_pool2d``.

The input is channels-last (``NHWC``), as in MAX. ``padding`` is one int for both sides of both
spatial axes, or ``(pad_h, pad_w)`` for both sides of each. An output axis has
``(size + 2 * pad - dilation * (kernel - 1) - 1) // stride + 1`` windows; with ``ceil_mode`` the
division rounds up, and, unlike PyTorch, MAX keeps a last window that starts in the trailing
padding (measured: ``tools/run_max_nn.py``; ``max_pool2d`` of a ``[1, 5, 7, 2]`` input with kernel
``(2, 3)``, stride 2, padding 1 and ``ceil_mode`` has 4 rows in MAX, 3 in PyTorch).

``max_pool2d`` ignores padding (it never wins). ``avg_pool2d`` divides each window's sum by the
kernel's area (``count_boundary=True``: the padding counts, and so do the taps a ``ceil_mode``
window has beyond it, as MAX 26.7 computes it) or by the number of its taps inside the input
(``False``). The divisors depend on the shapes only, so they are a constant of the graph.

Measured against MAX 26.7 (``tools/run_max_nn.py``): with ``count_boundary=False`` MAX's CPU
kernel divides a window at the bottom edge by fewer taps than it sums (a ``[1, 5, 7, 2]`` input,
kernel ``(2, 3)``, stride 2, padding 1: its last row is divided by 2 and 3 where it sums 4 and 6
inputs), and with ``ceil_mode`` as well by zero or negative counts; latticecast divides by the taps
it sums, which is the average the docstring describes.
"""

from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir

from ...promotion.dtypes import DType
from ...errors import DomainError, GraphError
from ..value import TensorValueLike, Value
from .elementwise import divide
from .operands import constant_value, unary_operand
from .shape import format_shape

__all__ = ["max_pool2d", "avg_pool2d"]


def _pair(value: object, what: str, name: str, minimum: int) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else value
    if (not isinstance(pair, (tuple, list)) or len(pair) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum for v in pair)):
        raise GraphError(f"{what}: {name}={value!r} must be an integer of at least {minimum}, or a pair of them")
    return int(pair[0]), int(pair[1])


def _windows(size: int, kernel: int, stride: int, dilation: int, pad: int, ceil_mode: bool, what: str) -> int:
    span = size + 2 * pad - dilation * (kernel - 1) - 1
    if span < 0:
        raise GraphError(f"{what}: a window of {kernel} (dilation {dilation}) does not fit an axis of {size} with "
                         f"padding {pad}; pad more or use a smaller kernel")
    return (-(-span // stride) if ceil_mode else span // stride) + 1


class _Geometry:
    """The windows of a 2-D pool over an NHWC value: per spatial axis its kernel, stride,
    dilation, padding, and output size."""

    def __init__(self, v: Value, kernel_size: "int | tuple[int, int]", stride: "int | tuple[int, int]",
                 dilation: "int | tuple[int, int]", padding: "int | tuple[int, int]", ceil_mode: bool,
                 what: str) -> None:
        if v.rank != 4:
            raise GraphError(f"{what} takes a rank-4 NHWC input (batch, height, width, channels), not "
                             f"{format_shape(v.shape)}")
        self.kernel = _pair(kernel_size, what, "kernel_size", 1)
        self.stride = _pair(stride, what, "stride", 1)
        self.dilation = _pair(dilation, what, "dilation", 1)
        self.pad = _pair(padding, what, "padding", 0)
        for k, p in zip(self.kernel, self.pad):
            if p > k // 2:  # as PyTorch: more padding than half the window makes windows of padding only
                raise GraphError(f"{what}: padding {p} must be at most half the kernel size {k}")
        self.sizes = []
        for axis in (1, 2):
            size = v.shape[axis]
            if not isinstance(size, int):
                raise GraphError(f"{what} needs static height and width, not {format_shape(v.shape)}; rebind the "
                                 "input to a static shape (x.rebind([...]))")
            self.sizes.append(size)
        self.out = [_windows(n, k, s, d, p, ceil_mode, what)
                    for n, k, s, d, p in zip(self.sizes, self.kernel, self.stride, self.dilation, self.pad)]
        # the padding after each axis: the requested one, and what ceil_mode's last window reaches beyond it
        self.after = [max(p, (o - 1) * s + d * (k - 1) + 1 - n - p)
                      for n, k, s, d, p, o in zip(self.sizes, self.kernel, self.stride, self.dilation, self.pad,
                                                  self.out)]

    def reduce_window(self, v: Value, body: str, init: int | float) -> Value:
        """``stablehlo.reduce_window`` of ``v`` with ``body`` (``stablehlo.maximum``, ``stablehlo.add``)."""
        g = v.graph
        dtype = v.storage
        init_v = constant_value(g, np.asarray(init, dtype=dtype.np_dtype), dtype)
        shape = (v.shape[0], self.out[0], self.out[1], v.shape[3])
        padding = np.asarray([[0, 0], [self.pad[0], self.after[0]], [self.pad[1], self.after[1]], [0, 0]], np.int64)
        with g.context:
            attrs = {"window_dimensions": ir.DenseI64ArrayAttr.get([1, *self.kernel, 1]),
                     "window_strides": ir.DenseI64ArrayAttr.get([1, *self.stride, 1]),
                     "window_dilations": ir.DenseI64ArrayAttr.get([1, *self.dilation, 1]),
                     "padding": g.tc.dense_attr(padding, DType.int64, (4, 2))}
        scalar = g.tc.tensor(dtype, ())
        op = g._add_op("stablehlo.reduce_window", [g.tc.tensor(dtype, shape)], [v.ir, init_v.ir], attrs, regions=1)
        block = ir.Block.create_at_start(op.regions[0], [scalar, scalar], [g.loc, g.loc])
        ip = ir.InsertionPoint(block)
        combined = ir.Operation.create(body, results=[scalar], operands=list(block.arguments), loc=g.loc, ip=ip)
        ir.Operation.create("stablehlo.return", operands=[combined.result], loc=g.loc, ip=ip)
        return Value(g, op.result, dtype, shape)

    def counts(self, count_boundary: bool) -> np.ndarray:
        """Each window's divisor: the kernel's area (``count_boundary``), or its taps inside the input."""
        if count_boundary:
            return np.full(self.out, self.kernel[0] * self.kernel[1])
        per_axis = []
        for n, k, s, d, p, o in zip(self.sizes, self.kernel, self.stride, self.dilation, self.pad, self.out):
            taps = np.arange(o)[:, None] * s - p + np.arange(k)[None, :] * d  # input index of each tap
            per_axis.append(((taps >= 0) & (taps < n)).sum(axis=1))
        return np.outer(per_axis[0], per_axis[1])


def max_pool2d(input: TensorValueLike, kernel_size: tuple[int, int], stride: int | tuple[int, int] = 1,
               dilation: int | tuple[int, int] = 1, padding: int | tuple[int, int] = 0,
               ceil_mode: bool = False) -> Value:
    """2-D max pooling over an NHWC input (MAX's ``ops.max_pool2d``).

    Args:
        input: The input, ``(batch, height, width, channels)``.
        kernel_size: The window, ``(kernel_h, kernel_w)``.
        stride: The step of the window: one int, or ``(stride_h, stride_w)``.
        dilation: The spacing between window taps: one int, or a pair.
        padding: Padding on both sides of each spatial axis, never the maximum: one int, or a pair.
        ceil_mode: Round the number of windows up instead of down.

    Returns:
        A value ``(batch, out_height, out_width, channels)`` of the input's dtype.

    Raises:
        GraphError: The input is not rank 4 with static height and width, a parameter is out of
            range, or a window does not fit.
        DomainError: The input is complex (it has no order).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("max_pool2d", input_types=[TensorType(DType.float32, [1, 2, 4, 1])]) as g:
        ...     g.output(ops.max_pool2d(g.inputs[0], (2, 2), stride=2))
        >>> g.compile()(np.arange(8, dtype=np.float32).reshape(1, 2, 4, 1))[0].ravel().tolist()
        [5.0, 7.0]
    """
    v = unary_operand(input, "max_pool2d")
    if v.storage.is_complex:
        raise DomainError("max_pool2d is not defined for complex values (they have no order)")
    geometry = _Geometry(v, kernel_size, stride, dilation, padding, ceil_mode, "max_pool2d")
    d = v.storage
    lowest: int | float = (False if d.is_bool else -np.inf if d.is_inexact and d.has_inf else d.min_value)
    return geometry.reduce_window(v, "stablehlo.or" if d.is_bool else "stablehlo.maximum", lowest)


def avg_pool2d(input: TensorValueLike, kernel_size: tuple[int, int], stride: int | tuple[int, int] = 1,
               dilation: int | tuple[int, int] = 1, padding: int | tuple[int, int] = 0, ceil_mode: bool = False,
               count_boundary: bool = True) -> Value:
    """2-D average pooling over an NHWC input (MAX's ``ops.avg_pool2d``).

    Args:
        input: The input, ``(batch, height, width, channels)``, of a float dtype.
        kernel_size: The window, ``(kernel_h, kernel_w)``.
        stride: The step of the window: one int, or ``(stride_h, stride_w)``.
        dilation: The spacing between window taps: one int, or a pair.
        padding: Zeros on both sides of each spatial axis: one int, or a pair.
        ceil_mode: Round the number of windows up instead of down.
        count_boundary: Divide by the kernel's area (padding included); ``False``: by the taps inside
            the input.

    Returns:
        A value ``(batch, out_height, out_width, channels)`` of the input's dtype.

    Raises:
        GraphError: The input is not rank 4 with static height and width, a parameter is out of
            range, or a window does not fit.
        DomainError: The input is not a float (an average of integers is not one); cast it first.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("avg_pool2d", input_types=[TensorType(DType.float32, [1, 2, 2, 1])]) as g:
        ...     g.output(ops.avg_pool2d(g.inputs[0], (2, 2), padding=1, stride=2, count_boundary=False))
        >>> g.compile()(np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1))[0].ravel().tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    v = unary_operand(input, "avg_pool2d")
    if not v.storage.is_inexact or v.storage.is_complex:
        raise DomainError(f"avg_pool2d averages floats, not {v.storage.name}; cast the input first "
                          "(x.cast(DType.float32))", cast_to=DType.float32)
    geometry = _Geometry(v, kernel_size, stride, dilation, padding, ceil_mode, "avg_pool2d")
    sums = geometry.reduce_window(v, "stablehlo.add", 0)
    counts = geometry.counts(count_boundary).reshape(1, *geometry.out, 1)
    return divide(sums, constant_value(v.graph, counts.astype(v.storage.np_dtype), v.storage))
