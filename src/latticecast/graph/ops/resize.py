"""Resizing as MAX names it: ``resize_nearest``, ``resize_linear``, ``resize_bicubic`` and ``resize``.

Each axis whose size changes is resized on its own (the filters are separable). An output
coordinate ``x`` maps to an input coordinate by ``coordinate_transform_mode`` (ONNX's modes, as
MAX numbers them): ``0`` half-pixel ``(x + 0.5) / scale - 0.5``; ``1`` align-corners
``x (in - 1) / (out - 1)``; ``2`` asymmetric ``x / scale``; ``3`` half-pixel, except that an axis
of output size 1 maps to 0. The taps of each output element, and their weights, depend on the
shapes only: they are constants of the graph, and each tap is a ``stablehlo.gather`` of the input
along the axis, so an element reads only its own taps (an infinity elsewhere stays there; a tap
of weight 0 on an infinity, at a clamped edge, gives NaN as any multiply-add does).

* nearest: one tap, the mapped coordinate rounded by ``round_mode`` (``0`` ``ceil(x - 0.5)``,
  ``1`` ``floor(x + 0.5)``, ``2`` ``floor``, ``3`` ``ceil``), clamped to the axis;
* linear: the two neighbours of the coordinate clamped to the axis, weighted by distance; with
  ``antialias`` a downscaled axis uses a tent ``1 / scale`` wide (PyTorch's ``antialias=True``);
* bicubic: four taps of Keys' cubic convolution (``a = -0.75``, PyTorch's), half-pixel.

Float inputs are interpolated in float32 (float64 for float64), as MAX's kernels accumulate, and
returned in their dtype.
"""

from __future__ import annotations

from enum import Enum
from typing import Callable, Sequence

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.dtypes import DType
from ...errors import DomainError, GraphError
from ..value import TensorValueLike, Value
from .elementwise import add, cast, multiply
from .operands import constant_value, unary_operand
from .shape import format_shape

__all__ = ["InterpolationMode", "resize", "resize_nearest", "resize_linear", "resize_bicubic"]


class InterpolationMode(Enum):
    """MAX's interpolation modes for :func:`resize`."""

    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"

    def __str__(self) -> str:
        return self.value


def _source(out: int, size: int, mode: int) -> np.ndarray:
    """The input coordinate of each output index along one axis."""
    x = np.arange(out, dtype=np.float64)
    if mode == 1:
        return x * ((size - 1) / (out - 1)) if out > 1 else np.zeros(out)
    if mode == 2:
        return x * (size / out)
    if mode == 3 and out == 1:
        return np.zeros(out)
    return (x + 0.5) * (size / out) - 0.5


Taps = tuple[np.ndarray, np.ndarray | None]  # indices (out, K) and their weights (None: one tap of weight 1)


def _nearest(out: int, size: int, mode: int, round_mode: int) -> Taps:
    x = _source(out, size, mode)
    rounded = (np.ceil(x - 0.5) if round_mode == 0 else np.floor(x + 0.5) if round_mode == 1 else
               np.floor(x) if round_mode == 2 else np.ceil(x))
    return np.clip(rounded, 0, size - 1).astype(np.int64)[:, None], None


def _linear(out: int, size: int, mode: int, antialias: bool) -> Taps:
    if antialias and out < size:  # a tent 1/scale wide, normalised (PyTorch's antialiased bilinear)
        scale = size / out
        center = scale * (np.arange(out) + 0.5)
        lo = np.maximum((center - scale + 0.5).astype(np.int64), 0)
        hi = np.minimum((center + scale + 0.5).astype(np.int64), size)
        k = int((hi - lo).max())
        index = np.minimum(lo[:, None] + np.arange(k)[None, :], size - 1)
        weight = np.maximum(0.0, 1 - np.abs((lo[:, None] + np.arange(k)[None, :] - center[:, None] + 0.5) / scale))
        weight[lo[:, None] + np.arange(k)[None, :] >= hi[:, None]] = 0.0
        return index, weight / weight.sum(axis=1, keepdims=True)
    x = np.clip(_source(out, size, mode), 0, size - 1)
    below = np.floor(x).astype(np.int64)
    frac = x - below
    return np.stack([below, np.minimum(below + 1, size - 1)], 1), np.stack([1 - frac, frac], 1)


def _cubic(t: np.ndarray, a: float = -0.75) -> np.ndarray:
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def _bicubic(out: int, size: int) -> Taps:
    x = _source(out, size, 0)
    below = np.floor(x).astype(np.int64)
    frac = x - below
    offsets = np.arange(-1, 3)
    index = np.clip(below[:, None] + offsets[None, :], 0, size - 1)
    return index, _cubic(frac[:, None] - offsets[None, :])


def _gather(v: Value, axis: int, index: np.ndarray) -> Value:
    """``v`` with ``axis`` replaced by ``v``'s elements at ``index`` along it (``np.take``)."""
    g = v.graph
    shape = tuple(len(index) if d == axis else s for d, s in enumerate(v.shape))
    indices = constant_value(g, index.reshape(-1, 1), DType.int64)
    sizes = [1 if d == axis else s for d, s in enumerate(v.shape) if isinstance(s, int) or d == axis]
    if len(sizes) != v.rank or not all(isinstance(s, int) for s in sizes):
        raise GraphError(f"a resize needs a static shape, not {format_shape(v.shape)}")
    with g.context:
        dims = stablehlo.GatherDimensionNumbers.get(
            offset_dims=[d for d in range(v.rank) if d != axis], collapsed_slice_dims=[axis],
            operand_batching_dims=[], start_indices_batching_dims=[], start_index_map=[axis], index_vector_dim=1)
        attrs: dict[str, ir.Attribute] = {"dimension_numbers": dims, "slice_sizes": ir.DenseI64ArrayAttr.get([int(s) for s in sizes if isinstance(s, int)]),
                 "indices_are_sorted": ir.BoolAttr.get(False)}
    op = g._add_op("stablehlo.gather", [g.tc.tensor(v.storage, shape)], [v.ir, indices.ir], attrs)
    return Value(g, op.result, v.storage, shape)


def _resized(input: TensorValueLike, size: Sequence[int], what: str, taps_of: Callable[[int, int], Taps],
             interpolates: bool) -> Value:
    v = unary_operand(input, what)
    target = list(size)
    if len(target) != v.rank:
        raise GraphError(f"size must have the same rank as input ({v.rank}), got {len(target)}")
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1 for d in target):
        raise GraphError(f"{what}: size {target} must be positive ints (latticecast resizes static shapes)")
    if not all(isinstance(d, int) for d in v.shape):
        raise GraphError(f"{what} needs a static input shape, not {format_shape(v.shape)}; rebind it (x.rebind([...]))")
    dtype = v.storage
    if interpolates and not (dtype.is_inexact and not dtype.is_complex):
        raise DomainError(f"{what} interpolates floats, not {dtype.name}; cast the input first (x.cast(DType.float32))",
                          cast_to=DType.float32)
    work = DType.float64 if dtype is DType.float64 else DType.float32
    x = cast(v, work) if interpolates and dtype is not work else v
    g = v.graph
    for axis, (n, m) in enumerate(zip(v.shape, target)):
        if n == m:
            continue
        index, weight = taps_of(int(m), n)  # a static shape (checked above)
        if weight is None:
            x = _gather(x, axis, index[:, 0])
            continue
        bshape = [1] * x.rank
        bshape[axis] = int(m)
        total: Value | None = None
        for k in range(index.shape[1]):
            w = constant_value(g, weight[:, k].reshape(bshape).astype(work.np_dtype), work)
            term = multiply(_gather(x, axis, index[:, k]), w)
            total = term if total is None else add(total, term)
        assert total is not None
        x = total
    return cast(x, dtype) if x.storage is not dtype else x


def _mode(value: int, name: str) -> int:
    if value not in (0, 1, 2, 3) or isinstance(value, bool):
        raise GraphError(f"{name} must be 0-3, got {value!r}")
    return int(value)


def resize_nearest(input: TensorValueLike, size: Sequence[int], coordinate_transform_mode: int = 0,
                   round_mode: int = 0) -> Value:
    """Nearest-neighbour resize to ``size`` (MAX's ``ops.resize_nearest``): every axis whose size changes.

    Args:
        input: The value to resize (any dtype).
        size: The output shape, of the input's rank.
        coordinate_transform_mode: ``0`` half-pixel, ``1`` align-corners, ``2`` asymmetric,
            ``3`` half-pixel (0 for an output axis of 1).
        round_mode: ``0`` ``ceil(x - 0.5)``, ``1`` ``floor(x + 0.5)``, ``2`` floor, ``3`` ceil.

    Returns:
        A value of shape ``size`` and the input's dtype.

    Raises:
        GraphError: A mode is not 0-3, or ``size`` is not positive ints of the input's rank.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("resize_nearest", input_types=[TensorType(DType.int32, [1, 2])]) as g:
        ...     g.output(ops.resize_nearest(g.inputs[0], [1, 4]))
        >>> g.compile()(np.array([[1, 2]], np.int32))[0].tolist()
        [[1, 1, 2, 2]]
    """
    mode, rounding = _mode(coordinate_transform_mode, "coordinate_transform_mode"), _mode(round_mode, "round_mode")
    return _resized(input, size, "resize_nearest", lambda m, n: _nearest(m, n, mode, rounding), False)


def resize_linear(input: TensorValueLike, size: Sequence[int], coordinate_transform_mode: int = 0,
                  antialias: bool = False) -> Value:
    """Linear resize to ``size`` (MAX's ``ops.resize_linear``): every axis whose size changes.

    Args:
        input: The float value to resize.
        size: The output shape, of the input's rank.
        coordinate_transform_mode: ``0`` half-pixel, ``1`` align-corners, ``2`` asymmetric,
            ``3`` half-pixel (0 for an output axis of 1).
        antialias: Widen the filter by ``1 / scale`` where an axis shrinks.

    Returns:
        A value of shape ``size`` and the input's dtype.

    Raises:
        GraphError: The mode is not 0-3, or ``size`` is not positive ints of the input's rank.
        DomainError: The input is not a real float; cast it first.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("resize_linear", input_types=[TensorType(DType.float32, [1, 2])]) as g:
        ...     g.output(ops.resize_linear(g.inputs[0], [1, 4]))
        >>> g.compile()(np.array([[1, 2]], np.float32))[0].tolist()
        [[1.0, 1.25, 1.75, 2.0]]
    """
    mode = _mode(coordinate_transform_mode, "coordinate_transform_mode")
    return _resized(input, size, "resize_linear", lambda m, n: _linear(m, n, mode, bool(antialias)), True)


def resize_bicubic(input: TensorValueLike, size: Sequence[int]) -> Value:
    """Bicubic resize of an NCHW value to ``size`` (MAX's ``ops.resize_bicubic``; Keys' ``a = -0.75``).

    Args:
        input: A rank-4 float value, ``(batch, channels, height, width)``.
        size: The output shape, of length 4.

    Returns:
        A value of shape ``size`` and the input's dtype.

    Raises:
        GraphError: The input is not rank 4, or ``size`` is not 4 positive ints.
        DomainError: The input is not a real float; cast it first.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("resize_bicubic", input_types=[TensorType(DType.float32, [1, 1, 1, 2])]) as g:
        ...     g.output(ops.resize_bicubic(g.inputs[0], [1, 1, 1, 4]))
        >>> np.round(g.compile()(np.array([0, 1], np.float32).reshape(1, 1, 1, 2))[0].ravel(), 4)
        array([-0.1055,  0.2266,  0.7734,  1.1055], dtype=float32)
    """
    v = unary_operand(input, "resize_bicubic")
    if v.rank != 4:
        raise GraphError(f"resize_bicubic requires rank-4 (NCHW) input, got rank {v.rank}")
    return _resized(v, size, "resize_bicubic", _bicubic, True)


def resize(input: TensorValueLike, shape: Sequence[int],
           interpolation: InterpolationMode | str = InterpolationMode.BILINEAR) -> Value:
    """Resize an NCHW value to ``shape`` with ``interpolation`` (MAX's ``ops.resize``), half-pixel coordinates.

    Args:
        input: A rank-4 value, ``(batch, channels, height, width)`` (a float for bilinear and bicubic).
        shape: The output shape, of 4 elements.
        interpolation: ``InterpolationMode.NEAREST``, ``BILINEAR`` (the default) or ``BICUBIC``,
            or its name.

    Returns:
        A value of shape ``shape`` and the input's dtype.

    Raises:
        GraphError: The mode is unknown, the input is not rank 4, or ``shape`` has not 4 elements.
        DomainError: Bilinear or bicubic of a non-float input.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("resize", input_types=[TensorType(DType.float32, [1, 1, 1, 2])]) as g:
        ...     g.output(ops.resize(g.inputs[0], [1, 1, 1, 4], ops.InterpolationMode.NEAREST))
        >>> g.compile()(np.array([1, 2], np.float32).reshape(1, 1, 1, 2))[0].ravel().tolist()
        [1.0, 1.0, 2.0, 2.0]
    """
    try:
        mode = InterpolationMode(interpolation.value if isinstance(interpolation, Enum) else interpolation)
    except ValueError:
        raise GraphError(f"resize: unknown interpolation {interpolation!r}; use one of "
                         f"{', '.join(m.value for m in InterpolationMode)}") from None
    v = unary_operand(input, "resize")
    if v.rank != 4:
        raise GraphError(f"Input tensor must have rank 4 (NCHW format) for resize operation, but got rank {v.rank}")
    if len(list(shape)) != 4:
        raise GraphError(f"shape must have 4 elements for NCHW format (batch, channels, height, width), but got "
                         f"{len(list(shape))} elements")
    if mode is InterpolationMode.NEAREST:
        return resize_nearest(v, shape)
    if mode is InterpolationMode.BICUBIC:
        return resize_bicubic(v, shape)
    return resize_linear(v, shape)


