"""Convolutions as MAX names them, by ``stablehlo.convolution``: ``conv2d``, ``conv3d``,
``conv2d_transpose``, and the generic builder's ``conv`` (any number of spatial axes).

MAX's layouts are channels-last: the input is ``NHWC`` (``NDHWC`` for 3-D) and the filter
``RSCF`` (``QRSCF``): the spatial axes, then the input channels per group, then the output
channels. ``input_layout="NCHW"`` and the filter layouts ``FCRS``/``FCQRS`` (output channels,
input channels, spatial axes) are taken too; the result has the input's layout. MAX's
``padding`` is ``(before, after)`` per spatial axis, flattened: ``(top, bottom, left, right)``.

The operands promote as a matrix product's do (:data:`latticecast.promotion.op_rules.CONVOLUTION`): a
Python scalar or weak value takes the other operand's dtype, two strong dtypes their promotion
under the graph's policy (MAX 26.7 too promotes ``bfloat16`` or ``int8`` with a ``float32`` filter
to ``float32``), and the builder converts the operands itself, since a mixed-dtype
``stablehlo.convolution`` is legal StableHLO with its own meaning.

``conv2d_transpose`` is the gradient of ``conv2d`` with respect to its input: a convolution of
the input dilated by the stride with the spatially reversed filter. Its filter is ``RSCF`` with
``F`` the input's channels and ``C`` the result's. The result is channels-last (``NHWC``), as MAX
26.7 builds it (measured: ``tools/run_max_nn.py``), though MAX's docstring says ``NCHW``; for the
same reason MAX 26.7's ``bias`` is added along the wrong axis (its op permutes the result as if it
were ``NCHW`` first, and fails unless the sizes happen to agree), where latticecast adds it per
output channel as the docstring says.
"""

from __future__ import annotations

from enum import Enum
from typing import Sequence, cast

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.dims import SymbolicDim
from ...promotion.dtypes import DType
from ...errors import GraphError
from ...promotion.op_rules import CONVOLUTION
from ..value import TensorValueLike, Value
from .elementwise import add
from .external import check_same_device
from .operands import Literal, convert, decide_operands, graph_of, operand, realize
from .shape import format_shape

__all__ = ["conv", "conv2d", "conv3d", "conv2d_transpose"]

_INPUT_LAYOUTS = ("NHWC", "NCHW")
_FILTER_LAYOUTS = {2: ("RSCF", "FCRS"), 3: ("QRSCF", "FCQRS")}


def _layout_name(layout: str | Enum, what: str, allowed: Sequence[str]) -> str:
    """A layout given as a string or as MAX's ``ConvInputLayout``/``FilterLayout`` enum member."""
    name = layout.value if isinstance(layout, Enum) else layout
    if name not in allowed:
        raise GraphError(f"{what}: layout {layout!r} is not one of {', '.join(allowed)}; "
                         f"use {allowed[0]!r} (MAX's default)")
    return str(name)


def _ints(values: int | Sequence[int], n: int, what: str, name: str, *, minimum: int) -> list[int]:
    """``n`` integers of at least ``minimum`` from a tuple (or one int for every axis)."""
    # a bool is refused below (list(True) is a TypeError, as before these were typed)
    seq = [values] * n if isinstance(values, int) and not isinstance(values, bool) else list(cast(Sequence[int], values))
    if len(seq) != n or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < minimum for v in seq):
        raise GraphError(f"{what}: {name}={values!r} must be {n} integers of at least {minimum}")
    return [int(v) for v in seq]


def _operands(x: TensorValueLike, filter: TensorValueLike, what: str) -> tuple[Value, Value]:
    """The input and the filter converted to their promoted dtype (as a matrix product's). A NumPy
    filter is weak where the policy makes NumPy values weak (MAX 26.7: a float32 array meets a
    bfloat16 input at bfloat16)."""
    g = graph_of(x, filter)
    a, b = operand(x, g, promotes=True), operand(filter, g, promotes=True)
    if isinstance(a, Literal) or isinstance(b, Literal):
        raise GraphError(f"{what} needs an input and a filter that are tensors, not a Python scalar")
    check_same_device(g, x=a, filter=b)
    d = decide_operands(g, CONVOLUTION, what, [a, b])
    values = [realize(g, o, d.target, o.shape) for o in (a, b)]
    return tuple(v if v.storage is d.target and not v.is_weak else convert(v, d.target)  # type: ignore[return-value]
                 for v in values)


def _window_size(size: "int | SymbolicDim", lo: int, hi: int, kernel: int, stride: int, dilation: int,
                 base_dilation: int, what: str) -> int:
    """The number of windows along one axis: ``(dilated input + padding - dilated kernel) // stride + 1``."""
    if not isinstance(size, int):
        raise GraphError(f"{what} needs static spatial dimensions, not {size}; rebind the input to a static shape "
                         "(x.rebind([...]))")
    if not isinstance(kernel, int):
        raise GraphError(f"{what} needs a filter of static shape, not a dimension {kernel}")
    dilated = (size - 1) * base_dilation + 1 if size else 0
    span = dilated + lo + hi - (kernel - 1) * dilation - 1
    if span < 0:
        raise GraphError(f"{what}: a window of {kernel} (dilation {dilation}) does not fit an axis of {size} with "
                         f"padding ({lo}, {hi}); pad more or use a smaller filter")
    return span // stride + 1


def _convolution(x: Value, w: Value, *, spatial: int, input_layout: str, filter_layout: str,
                 stride: list[int], dilation: list[int], padding: list[tuple[int, int]], groups: int,
                 base_dilation: list[int], reverse: bool, what: str,
                 kernel_in_out: tuple[int, int] | None = None) -> Value:
    """``stablehlo.convolution`` of ``x`` and ``w`` in the given layouts; the result has ``x``'s layout."""
    g = x.graph
    channels_last = input_layout == "NHWC"
    in_spatial = list(range(1, spatial + 1)) if channels_last else list(range(2, spatial + 2))
    in_feature = spatial + 1 if channels_last else 1
    if filter_layout.endswith("CF"):  # RSCF, QRSCF
        k_spatial, k_in, k_out = list(range(spatial)), spatial, spatial + 1
    else:  # FCRS, FCQRS
        k_spatial, k_out, k_in = list(range(2, spatial + 2)), 0, 1
    if kernel_in_out is not None:  # the transpose: the filter's two channel axes swap roles
        k_in, k_out = kernel_in_out
    channels, per_group, out_channels = x.shape[in_feature], w.shape[k_in], w.shape[k_out]
    if groups < 1 or not all(isinstance(d, int) for d in (channels, per_group, out_channels)):
        raise GraphError(f"{what} needs static channel dimensions and groups >= 1")
    if channels != per_group * groups:
        raise GraphError(f"{what}: the input has {channels} channels, but the filter of shape "
                         f"{format_shape(w.shape)} takes {per_group} per group in {groups} group(s); give the "
                         f"filter {channels // groups if groups and channels % groups == 0 else '?'} input "
                         f"channels (axis {k_in} of layout {filter_layout})")
    if out_channels % groups:
        raise GraphError(f"{what}: {out_channels} output channels do not divide into {groups} groups")
    if reverse:
        w = _reversed(w, k_spatial)
    sizes = [_window_size(x.shape[a], lo, hi, w.shape[k], s, d, b, what)
             for a, k, s, d, b, (lo, hi) in zip(in_spatial, k_spatial, stride, dilation, base_dilation, padding)]
    out_shape: list["int | SymbolicDim"] = list(x.shape)
    for a, n in zip(in_spatial, sizes):
        out_shape[a] = n
    out_shape[in_feature] = out_channels
    with g.context:
        dims = stablehlo.ConvDimensionNumbers.get(
            input_batch_dimension=0, input_feature_dimension=in_feature, input_spatial_dimensions=in_spatial,
            kernel_input_feature_dimension=k_in, kernel_output_feature_dimension=k_out,
            kernel_spatial_dimensions=k_spatial, output_batch_dimension=0, output_feature_dimension=in_feature,
            output_spatial_dimensions=in_spatial)
        i64 = ir.IntegerType.get_signless(64)
        attrs: dict[str, ir.Attribute] = {
            "window_strides": ir.DenseI64ArrayAttr.get(stride),
            "padding": g.tc.dense_attr(np.asarray(padding, np.int64).reshape(spatial, 2), DType.int64, (spatial, 2)),
            "lhs_dilation": ir.DenseI64ArrayAttr.get(base_dilation),
            "rhs_dilation": ir.DenseI64ArrayAttr.get(dilation),
            "dimension_numbers": dims,
            "feature_group_count": ir.IntegerAttr.get(i64, groups),
            "batch_group_count": ir.IntegerAttr.get(i64, 1),
        }
    shape = tuple(out_shape)
    op = g._add_op("stablehlo.convolution", [g.tc.tensor(x.storage, shape)], [x.ir, w.ir], attrs)
    return Value(g, op.result, x.storage, shape)


def _reversed(w: Value, axes: list[int]) -> Value:
    g = w.graph
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get(axes)}
    op = g._add_op("stablehlo.reverse", [g.tc.tensor(w.storage, w.shape)], [w.ir], attrs)
    return Value(g, op.result, w.storage, w.shape)


def _with_bias(out: Value, bias: TensorValueLike | None, feature_axis: int, what: str) -> Value:
    """``out + bias`` over the channel axis (MAX: a rank-1 bias of ``out_channels`` elements)."""
    if bias is None:
        return out
    b = operand(bias, out.graph)
    if isinstance(b, Literal) or b.rank != 1:
        raise GraphError(f"bias for {what} must be rank 1 with shape (out_channels,), not "
                         f"{b.value!r}" if isinstance(b, Literal) else
                         f"bias for {what} must be rank 1 with shape (out_channels,), not {format_shape(b.shape)}")
    if b.shape[0] != out.shape[feature_axis]:
        raise GraphError(f"bias for {what} has {b.shape[0]} elements; the result has {out.shape[feature_axis]} "
                         "output channels")
    if feature_axis != out.rank - 1:  # channels-first: the bias broadcasts over the axes after the channels
        b = b.reshape((b.shape[0],) + (1,) * (out.rank - feature_axis - 1))
    return add(out, b)


def _conv_nd(x: TensorValueLike, filter: TensorValueLike, spatial: int, stride: int | Sequence[int],
             dilation: int | Sequence[int], padding: int | Sequence[int],
             groups: int, bias: TensorValueLike | None, input_layout: str | Enum, filter_layout: str | Enum, what: str) -> Value:
    a, w = _operands(x, filter, what)
    names = {2: ("(batch_size, height, width, in_channels)", "(height, width, in_channels / num_groups, "
                 "out_channels)"),
             3: ("(batch_size, depth, height, width, in_channels)", "(depth, height, width, in_channels / "
                 "num_groups, out_channels)")}
    if a.rank != spatial + 2:
        raise GraphError(f"input to a {spatial}-D convolution must be rank {spatial + 2} with shape "
                         f"{names[spatial][0]}, not {format_shape(a.shape)}")
    if w.rank != spatial + 2:
        raise GraphError(f"filter for a {spatial}-D convolution must be rank {spatial + 2} with shape "
                         f"{names[spatial][1]}, not {format_shape(w.shape)}")
    in_layout = _layout_name(input_layout, what, _INPUT_LAYOUTS)
    f_layout = _layout_name(filter_layout, what, _FILTER_LAYOUTS[spatial])
    if isinstance(groups, bool) or not isinstance(groups, int):
        raise GraphError(f"{what}: groups={groups!r} must be a positive integer")
    pads = _ints(padding, 2 * spatial, what, "padding", minimum=0)
    out = _convolution(a, w, spatial=spatial, input_layout=in_layout, filter_layout=f_layout,
                       stride=_ints(stride, spatial, what, "stride", minimum=1),
                       dilation=_ints(dilation, spatial, what, "dilation", minimum=1),
                       padding=[(pads[2 * i], pads[2 * i + 1]) for i in range(spatial)], groups=groups,
                       base_dilation=[1] * spatial, reverse=False, what=what)
    return _with_bias(out, bias, out.rank - 1 if in_layout == "NHWC" else 1, what)


def conv2d(x: TensorValueLike, filter: TensorValueLike, stride: tuple[int, int] = (1, 1),
           dilation: tuple[int, int] = (1, 1), padding: tuple[int, int, int, int] = (0, 0, 0, 0), groups: int = 1,
           bias: TensorValueLike | None = None, input_layout: str | Enum = "NHWC", filter_layout: str | Enum = "RSCF") -> Value:
    """2-D convolution (MAX's ``ops.conv2d``): NHWC input, RSCF filter, NHWC result.

    Args:
        x: The input, ``(batch, height, width, in_channels)`` (or NCHW with ``input_layout``).
        filter: The filter, ``(height, width, in_channels / groups, out_channels)`` (or FCRS).
        stride: The step of the window along height and width.
        dilation: The spacing between filter taps.
        padding: Zeros added ``(top, bottom, left, right)``.
        groups: The number of channel groups; channels and output channels must divide by it.
        bias: An optional ``(out_channels,)`` tensor added to the result.
        input_layout: ``"NHWC"`` (MAX's default) or ``"NCHW"``, or MAX's ``ConvInputLayout``.
        filter_layout: ``"RSCF"`` (MAX's default) or ``"FCRS"``, or MAX's ``FilterLayout``.

    Returns:
        A value ``(batch, out_height, out_width, out_channels)`` of the promoted dtype, where
        ``out_height = (height + top + bottom - dilation * (R - 1) - 1) // stride + 1``.

    Raises:
        GraphError: An operand has the wrong rank, the channels do not match the filter and
            ``groups``, a window does not fit, or a parameter is out of range.
        PromotionError: The policy does not promote the input's and filter's dtypes.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("conv2d", input_types=[TensorType(DType.float32, [1, 2, 2, 1])]) as g:
        ...     y = ops.conv2d(g.inputs[0], np.ones((2, 2, 1, 1), np.float32))
        ...     g.output(y)
        >>> y.shape
        [Dim(1), Dim(1), Dim(1), Dim(1)]
        >>> g.compile()(np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1))[0].ravel().tolist()
        [10.0]
    """
    return _conv_nd(x, filter, 2, stride, dilation, padding, groups, bias, input_layout, filter_layout, "conv2d")


def conv3d(x: TensorValueLike, filter: TensorValueLike, stride: tuple[int, int, int] = (1, 1, 1),
           dilation: tuple[int, int, int] = (1, 1, 1),
           padding: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0), groups: int = 1,
           bias: TensorValueLike | None = None, input_layout: str | Enum = "NHWC", filter_layout: str | Enum = "QRSCF") -> Value:
    """3-D convolution (MAX's ``ops.conv3d``): NDHWC input, QRSCF filter, NDHWC result.

    Args:
        x: The input, ``(batch, depth, height, width, in_channels)`` (or NCDHW with ``"NCHW"``).
        filter: The filter, ``(depth, height, width, in_channels / groups, out_channels)`` (or FCQRS).
        stride: The step of the window along depth, height and width.
        dilation: The spacing between filter taps.
        padding: Zeros added ``(front, back, top, bottom, left, right)``.
        groups: The number of channel groups.
        bias: An optional ``(out_channels,)`` tensor added to the result.
        input_layout: ``"NHWC"`` (channels last, MAX's default) or ``"NCHW"`` (channels first).
        filter_layout: ``"QRSCF"`` (MAX's default) or ``"FCQRS"``.

    Returns:
        A value ``(batch, out_depth, out_height, out_width, out_channels)`` of the promoted dtype.

    Raises:
        GraphError: An operand has the wrong rank, the channels do not match the filter and
            ``groups``, a window does not fit, or a parameter is out of range.
        PromotionError: The policy does not promote the input's and filter's dtypes.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("conv3d", input_types=[TensorType(DType.float32, [1, 2, 2, 2, 1])]) as g:
        ...     y = ops.conv3d(g.inputs[0], np.ones((2, 2, 2, 1, 3), np.float32))
        ...     g.output(y)
        >>> g.compile()(np.ones((1, 2, 2, 2, 1), np.float32))[0].ravel().tolist()
        [8.0, 8.0, 8.0]
    """
    return _conv_nd(x, filter, 3, stride, dilation, padding, groups, bias, input_layout, filter_layout, "conv3d")


def conv2d_transpose(x: TensorValueLike, filter: TensorValueLike, stride: tuple[int, int] = (1, 1),
                     dilation: tuple[int, int] = (1, 1), padding: tuple[int, int, int, int] = (0, 0, 0, 0),
                     output_paddings: tuple[int, int] = (0, 0), bias: TensorValueLike | None = None,
                     input_layout: str | Enum = "NHWC", filter_layout: str | Enum = "RSCF") -> Value:
    """2-D transposed convolution (MAX's ``ops.conv2d_transpose``): NHWC input, RSCF filter, NHWC result.

    The gradient of ``conv2d`` with the same filter and parameters with respect to its input.
    ``padding`` crops ``(top, bottom, left, right)`` from the result; ``output_paddings`` adds
    rows and columns at its end (each smaller than its stride).

    Args:
        x: The input, ``(batch, height, width, in_channels)``.
        filter: The filter, ``(height, width, out_channels, in_channels)``.
        stride: The stride of the convolution this transposes.
        dilation: The spacing between filter taps.
        padding: What the result loses at each edge.
        output_paddings: What the result gains at the end of each axis; each below its stride.
        bias: An optional ``(out_channels,)`` tensor added to the result.
        input_layout: ``"NHWC"`` (the only layout MAX's kernel takes here).
        filter_layout: ``"RSCF"``.

    Returns:
        A value ``(batch, out_height, out_width, out_channels)``, where ``out_height =
        (height - 1) * stride - top - bottom + dilation * (R - 1) + 1 + output_padding``.

    Raises:
        GraphError: An operand has the wrong rank, the filter's ``in_channels`` is not the
            input's, an output padding is not smaller than its stride, or the result is empty.
        PromotionError: The policy does not promote the input's and filter's dtypes.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("conv2d_transpose", input_types=[TensorType(DType.float32, [1, 1, 2, 1])]) as g:
        ...     y = ops.conv2d_transpose(g.inputs[0], np.ones((1, 2, 1, 1), np.float32))
        ...     g.output(y)
        >>> y.shape
        [Dim(1), Dim(1), Dim(3), Dim(1)]
        >>> g.compile()(np.array([1, 2], np.float32).reshape(1, 1, 2, 1))[0].ravel().tolist()
        [1.0, 3.0, 2.0]
    """
    what = "conv2d_transpose"
    a, w = _operands(x, filter, what)
    if a.rank != 4:
        raise GraphError("input to a 2-D deconvolution must be rank 4 with shape (batch_size, height, width, "
                         f"in_channels), not {format_shape(a.shape)}")
    if w.rank != 4:
        raise GraphError("filter for a 2-D deconvolution must be rank 4 with shape (height, width, out_channels, "
                         f"in_channels), not {format_shape(w.shape)}")
    _layout_name(input_layout, what, ("NHWC",))
    _layout_name(filter_layout, what, ("RSCF",))
    strides = _ints(stride, 2, what, "stride", minimum=1)
    dilations = _ints(dilation, 2, what, "dilation", minimum=1)
    crop = _ints(padding, 4, what, "padding", minimum=0)
    extra = _ints(output_paddings, 2, what, "output_paddings", minimum=0)
    if extra[0] >= strides[0] or extra[1] >= strides[1]:
        raise GraphError("output padding must be smaller than either stride or dilation, but got output_padding "
                         f"= {tuple(output_paddings)} for stride {tuple(strides)}")
    kernel = [d for d in w.shape[:2] if isinstance(d, int)]
    if len(kernel) != 2:
        raise GraphError(f"{what} needs a filter of static shape, not {format_shape(w.shape)}")
    reach = [dilations[i] * (kernel[i] - 1) for i in range(2)]  # the dilated filter's extent, less one
    pads = [(reach[i] - crop[2 * i], reach[i] - crop[2 * i + 1] + extra[i]) for i in range(2)]
    out = _convolution(a, w, spatial=2, input_layout="NHWC", filter_layout="RSCF", stride=[1, 1],
                       dilation=dilations, padding=pads, groups=1, base_dilation=strides, reverse=True,
                       what=what, kernel_in_out=(3, 2))
    return _with_bias(out, bias, 3, what)


def conv(x: TensorValueLike, filter: TensorValueLike, stride: Sequence[int] | int = 1,
         dilation: Sequence[int] | int = 1, padding: Sequence[int] | int = 0, groups: int = 1,
         bias: TensorValueLike | None = None) -> Value:
    """A channels-last convolution with any number of spatial axes (the generic builder's name).

    ``conv`` of a rank-``n + 2`` input is :func:`conv2d` for ``n = 2`` and :func:`conv3d` for
    ``n = 3``, and the 1-D convolution for ``n = 1``: input ``(batch, *spatial, in_channels)``,
    filter ``(*kernel, in_channels / groups, out_channels)``.

    Args:
        x: The input, ``(batch, *spatial, in_channels)``.
        filter: The filter, ``(*kernel, in_channels / groups, out_channels)``.
        stride: One int for every spatial axis, or one per axis.
        dilation: One int for every spatial axis, or one per axis.
        padding: One int for both sides of every axis, or ``(before, after)`` per axis, flattened.
        groups: The number of channel groups.
        bias: An optional ``(out_channels,)`` tensor added to the result.

    Returns:
        A value ``(batch, *out_spatial, out_channels)`` of the promoted dtype.

    Raises:
        GraphError: The input has rank below 3, the filter's rank is not the input's, or as
            :func:`conv2d`.
        PromotionError: The policy does not promote the input's and filter's dtypes.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("conv", input_types=[TensorType(DType.float32, [1, 4, 1])]) as g:
        ...     g.output(ops.conv(g.inputs[0], np.array([1, -1], np.float32).reshape(2, 1, 1)))
        >>> g.compile()(np.array([1, 2, 4, 8], np.float32).reshape(1, 4, 1))[0].ravel().tolist()
        [-1.0, -2.0, -4.0]
    """
    a, w = _operands(x, filter, "conv")
    if a.rank < 3 or w.rank != a.rank:
        raise GraphError(f"conv needs an input (batch, *spatial, in_channels) of rank 3 or more and a filter of "
                         f"the same rank, not {format_shape(a.shape)} and {format_shape(w.shape)}")
    n = a.rank - 2
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = [padding] * 2 * n
    if isinstance(groups, bool) or not isinstance(groups, int):
        raise GraphError(f"conv: groups={groups!r} must be a positive integer")
    pads = _ints(padding, 2 * n, "conv", "padding", minimum=0)
    out = _convolution(a, w, spatial=n, input_layout="NHWC", filter_layout="RSCF",
                       stride=_ints(stride, n, "conv", "stride", minimum=1),
                       dilation=_ints(dilation, n, "conv", "dilation", minimum=1),
                       padding=[(pads[2 * i], pads[2 * i + 1]) for i in range(n)], groups=groups,
                       base_dilation=[1] * n, reverse=False, what="conv")
    return _with_bias(out, bias, out.rank - 1, "conv")
