"""The graph builder's ops (``latticecast.ops``), one module per family.

Where MAX 26.7's ``max.graph.ops`` has a name, the op here has MAX's signature and
meaning (``transpose(x, axis_1, axis_2)`` swaps two axes; ``sum``/``max``/``min``/``mean``
reduce one axis, default -1, and keep it; ``max(x, y)`` is elementwise). latticecast's
NumPy names stay where they do not clash (``subtract`` is ``sub``, ``maximum`` is
``max(x, y)``), and its NumPy-style reductions are ``reduce_sum`` and friends. Where NumPy's
function of a MAX name has another signature, MAX's wins and the module's table says where
NumPy's went: ``argsort`` (NumPy's is ``argsort_along``), ``cumsum`` (the last axis by default,
where NumPy's flattens), ``split`` (piece sizes, not cut points), ``tile`` (one count per axis) and
``pad`` (MAX's flat paddings; NumPy's pairs are accepted too). NumPy's ``take``,
``take_along_axis`` and ``sort`` keep NumPy's signatures.

=================  =============================================================
``elementwise``    arithmetic, division, comparisons, bitwise and logical ops, shifts, unary math (``acos``,
                   ``atanh`` ... are MAX's and NumPy 2's names), casts
``selection``      ``where``/``select``, ``clamp``
``shape``          ``reshape``, ``broadcast_to``, ``transpose``, ``permute``, ``flatten``, ``squeeze``,
                   ``unsqueeze``, ``concat``, ``stack``, ``rebind``, ``transfer_to``, ``shape_to_tensor``
``indexing``       ``slice_tensor`` (what ``x[...]`` calls)
``gather``         ``gather``, ``gather_nd``, ``scatter*``, ``scatter_nd*``, ``nonzero``, ``masked_scatter``;
                   NumPy's ``take``, ``take_along_axis``
``reduction``      MAX's ``sum mean max min prod argmax argmin``; ``reduce_sum`` ... (NumPy's)
``sorting``        ``top_k``, ``bottom_k``, ``argsort``, ``cumsum``; NumPy's ``sort``, ``argsort_along``
``tiling``         ``pad``, ``split``, ``chunk``, ``tile``, ``repeat_interleave``, ``fold``
``linalg``         ``matmul``, ``outer``, ``band_part``
``nn``             ``relu``, ``silu``, ``gelu``, ``softmax``, ``logsoftmax``, ``layer_norm``, ``rms_norm``,
                   ``group_norm``
``convolution``    ``conv2d``, ``conv3d``, ``conv2d_transpose`` (MAX's, channels-last); ``conv`` (the generic
                   builder's: any number of spatial axes, ``conv`` of a rank-3 input is the 1-D convolution)
``pooling``        ``max_pool2d``, ``avg_pool2d`` (``stablehlo.reduce_window``)
``resize``         ``resize``, ``resize_nearest``, ``resize_linear``, ``resize_bicubic`` (gathers of static taps)
``signal``         ``hann_window``, ``irfft`` (``stablehlo.fft``)
``collectives``    MAX's ``allgather``, ``allreduce.sum``, ``reducescatter.sum``, ``distributed_broadcast``,
                   ``distributed_scatter``, ``shard_and_stack``, over the graph's devices or its mesh
``experts``        MAX's expert-parallel ``dispatch_*`` and ``combine``: checked, then refused (raw device
                   pointers and atomics have no StableHLO form), as the namespace ``ops.distributed_ep``
``fused``          MAX's ``allgather_rms_norm``, ``reduce_scatter_rms_norm`` (the collective, then the norm) and
                   ``parallel`` (the body once per launch)
``quantized``      MAX's ``dequantize`` of GGUF blocks (Q4_0, Q4_K, Q5_K, Q6_K) with integer ops
``unsupported``    MAX's ops with no StableHLO form, refused with the reason and the fix: ``custom``,
                   ``inplace_custom``, the ``buffer_*`` ops, ``side_stream``, ``qmatmul``,
                   ``allgather_rms_norm_quant_mxfp8``/``_mxfp6``
``debug``          MAX's ``print`` (a PJRT host callback while the graph runs)
``detection``      MAX's ``non_maximum_suppression`` (greedy, one ``stablehlo.while`` for every pair)
``sharding``       ``shard`` (a sharding constraint over the graph's mesh)
``operands``       the adapter over ``op_rules`` that every promoting op goes through
``control_flow``   MAX's ``cond``, ``while_loop``; JAX's ``lax_cond``, ``lax_while_loop``, ``fori_loop``, ``switch``
``dynamic``        symbolic dimensions in the IR (shape operands, ``dynamic_*`` ops)
=================  =============================================================
"""

from __future__ import annotations

import builtins  # this module's max, min, range and print are the ops
from typing import TYPE_CHECKING, Sequence, Union

import numpy as np
import numpy.typing as npt

from ...promotion.device_ref import DeviceRef, DeviceRefLike
from ...promotion.dims import MAX_DIM
from ...promotion.dtypes import DType, DTypeLike
from ...errors import GraphError, LiteralRangeError
from ...promotion.value_fit import scalar_problem
from ..current import current_graph
from ..value import TensorValueLike, Value
from .call import call
from .control_flow import cond, fori_loop, lax_cond, lax_while_loop, switch, while_loop
from .collectives import (allgather, allreduce, distributed_broadcast, distributed_scatter, reducescatter,
                          shard_and_stack)
from .dynamic import iota
from .external import assert_same_device, constant_external
from .fused import allgather_rms_norm, parallel, reduce_scatter_rms_norm
from .convolution import conv, conv2d, conv2d_transpose, conv3d
from .experts import distributed_ep
from .elementwise import (abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_not,
                          bitwise_or, bitwise_xor, cast, ceil, cos, cosh, div, divide, equal, erf, exp, expm1, floor,
                          floor_div, floor_divide, greater, greater_equal, invert, is_inf, is_nan, left_shift, less,
                          less_equal, log, log1p, logical_and, logical_not, logical_or, logical_xor, maximum,
                          minimum, mod, mul, multiply, negate, negative, not_equal, pow, power, remainder,
                          right_shift, round, rsqrt, sigmoid, sign, sin, sinh, sqrt, sub, subtract, tan, tanh,
                          true_divide, trunc)
from .gather import (gather, gather_nd, masked_scatter, nonzero, scatter, scatter_add, scatter_max, scatter_min,
                     scatter_mul, scatter_nd, scatter_nd_add, scatter_nd_max, scatter_nd_min, scatter_nd_mul, take,
                     take_along_axis)
from .indexing import slice_tensor
from .linalg import band_part, matmul, outer
from .nn import gelu, group_norm, layer_norm, logsoftmax, relu, rms_norm, silu, softmax
from .pooling import avg_pool2d, max_pool2d
from .roi_align import roi_align
from .reduction import (argmax, argmin, max, mean, min, prod, reduce_max, reduce_mean, reduce_min, reduce_prod,
                        reduce_sum, sum)
from .resize import InterpolationMode, resize, resize_bicubic, resize_linear, resize_nearest
from .selection import clamp, select, where
from .shape import (as_interleaved_complex, broadcast_to, concat, flatten, permute, rebind, reshape, shape_to_tensor, squeeze, stack,
                    transfer_to, transpose, unsqueeze)
from .sharding import shard
from .quantized import dequantize
from .signal import hann_window, irfft
from .sorting import argsort, argsort_along, bottom_k, cumsum, sort, top_k
from .tiling import chunk, fold, pad, repeat_interleave, split, tile
from .debug import print
from .detection import non_maximum_suppression
from .unsupported import (allgather_rms_norm_quant_mxfp6, allgather_rms_norm_quant_mxfp8, buffer_create,
                          buffer_load, buffer_store, buffer_store_slice, custom, inplace_custom,
                          qmatmul, side_stream)

if TYPE_CHECKING:
    from ...promotion.dims import DimLike

__all__ = [
    # arithmetic (NumPy's names and MAX's)
    "add", "subtract", "sub", "multiply", "mul", "divide", "div", "true_divide", "floor_divide", "floor_div",
    "mod", "remainder", "power", "pow", "matmul", "negative", "negate", "abs", "maximum", "minimum", "atan2",
    # comparisons, bitwise and logical
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "invert", "bitwise_not", "logical_and", "logical_or",
    "logical_xor", "logical_not", "is_nan", "is_inf",
    # unary math
    "exp", "log", "log1p", "sqrt", "rsqrt", "tanh", "sin", "cos", "erf", "floor", "ceil", "round", "trunc", "sign",
    "acos", "asin", "atan", "acosh", "asinh", "atanh", "cosh", "sinh", "tan", "expm1",
    # neural network
    "relu", "sigmoid", "silu", "gelu", "softmax", "logsoftmax", "layer_norm", "rms_norm", "group_norm",
    "band_part", "conv", "conv2d", "conv3d", "conv2d_transpose", "max_pool2d", "avg_pool2d", "roi_align", "call",
    # resizing and signal
    "resize", "resize_nearest", "resize_linear", "resize_bicubic", "InterpolationMode", "hann_window", "irfft",
    # multi-device collectives (over the graph's devices or its mesh)
    "allgather", "allreduce", "reducescatter", "distributed_broadcast", "distributed_scatter", "shard_and_stack",
    "distributed_ep",
    # MAX's fused multi-device ops, as the ops they fuse
    "allgather_rms_norm", "reduce_scatter_rms_norm", "parallel",
    # MAX's ops with no StableHLO form (each raises UnsupportedOpError with the fix)
    "custom", "inplace_custom", "buffer_create", "buffer_load", "buffer_store", "buffer_store_slice",
    "side_stream", "qmatmul", "dequantize", "allgather_rms_norm_quant_mxfp8",
    "allgather_rms_norm_quant_mxfp6",
    # MAX's debug print (a host callback while the graph runs)
    "print",
    # detection
    "non_maximum_suppression",
    # selection
    "where", "select", "clamp",
    # shape and indexing
    "reshape", "broadcast_to", "transpose", "permute", "flatten", "squeeze", "unsqueeze", "concat", "stack",
    "rebind", "slice_tensor", "transfer_to", "shape_to_tensor", "as_interleaved_complex",
    # MAX's weights by name, and its device check
    "constant_external", "assert_same_device",
    # gathering and scattering: MAX's and NumPy's (take, take_along_axis)
    "gather", "gather_nd", "take", "take_along_axis", "scatter", "scatter_add", "scatter_max", "scatter_min",
    "scatter_mul", "scatter_nd", "scatter_nd_add", "scatter_nd_max", "scatter_nd_min", "scatter_nd_mul",
    "nonzero", "masked_scatter",
    # sorting and running sums: MAX's and NumPy's (sort, argsort_along)
    "top_k", "bottom_k", "argsort", "argsort_along", "sort", "cumsum",
    # cutting, padding and repeating
    "pad", "split", "chunk", "tile", "repeat_interleave", "fold", "outer",
    # sharding
    "shard",
    # control flow: MAX's signatures, then JAX's (lax_cond and lax_while_loop are JAX's cond and while_loop)
    "cond", "while_loop", "lax_cond", "lax_while_loop", "fori_loop", "switch",
    # reductions: MAX's (one axis, kept) and NumPy's (reduce_*)
    "sum", "mean", "max", "min", "prod", "argmax", "argmin", "reduce_sum", "reduce_mean", "reduce_max",
    "reduce_min", "reduce_prod",
    # values
    "cast", "constant", "range",
]


def _placed(value: Value, device: DeviceRefLike) -> Value:
    """``value`` (made by an op with a ``device=`` argument) on ``device``; as it is for ``None``."""
    if device is None:
        return value
    return value.graph.place(value, DeviceRef.parse(device))


ConstantValue = npt.ArrayLike
"""What :func:`constant` makes a constant of: a Python number, a NumPy scalar or array, or a nested list
(NumPy's ``ArrayLike``, what :meth:`Graph.constant <latticecast.graph.Graph.constant>` reads)."""


def constant(value: ConstantValue, dtype: DTypeLike | None = None, device: DeviceRefLike = None) -> Value:
    """A constant of the current graph (MAX's ``ops.constant(value, dtype, device)``).

    The values must fit ``dtype`` exactly. Without ``dtype``, a NumPy array keeps its dtype and
    a Python number takes the policy's default dtype of its kind (MAX requires ``dtype`` and
    ``device`` for a Python number). The constant is strongly typed.

    Args:
        value: A Python number, a NumPy scalar or array, or a nested list.
        dtype: The constant's dtype (a :class:`~latticecast.DType` or a spelling); ``None`` as above.
        device: The device the constant lives on (default: the graph's first device).

    Returns:
        A graph value of ``dtype`` and ``value``'s shape.

    Raises:
        LiteralRangeError: A value does not fit ``dtype`` exactly.
        GraphError: There is no current graph, or ``device`` is not a device.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("constant", input_types=[TensorType(DType.int8, [2])]) as g:
        ...     c = ops.constant(np.array([1, 2], np.uint8))
        ...     h = ops.constant(1.5, DType.bfloat16)
        >>> c.dtype, c.shape, h.dtype, h.shape
        (DType.uint8, [Dim(2)], DType.bfloat16, [])
    """
    if device is not None:
        DeviceRef.parse(device)  # a bad device is an error before the constant is made
    return _placed(current_graph().constant(value, dtype), device)


#: The most elements ``range`` makes: MAX's compiler stops above it (measured with MAX 26.7:
#: ``ops.range(0, 2**63 - 1, 1)`` aborts with "SmallVector unable to grow ... maximum value for size
#: type (4294967295)"), and a range that long would not fit a device either.
RANGE_LIMIT = (1 << 32) - 1

RangeBound = Union[float, Value]
"""A bound or step of :func:`range`: a Python number (an int too; NumPy scalars are taken as well) or a rank-0
graph value."""


def range(start: RangeBound, stop: RangeBound, step: RangeBound = 1, out_dim: "DimLike | None" = None,
          *, dtype: DTypeLike,
          device: DeviceRefLike = None) -> Value:
    """``start, start + step, ...``: ``(stop - start) // step`` values of ``dtype`` (MAX's ``ops.range``).

    The count is MAX's, a floor: ``range(0, 5, 2)`` is ``[0, 2]`` and ``range(0, 1, 0.3)`` is
    ``[0, 0.3, 0.6]`` (NumPy's ``arange`` rounds up and gives one more). Bounds may be rank-0
    graph values (then ``out_dim`` gives the count); the values are ``start + i * step``
    computed in ``dtype``.

    Args:
        start: The first value: a number or a rank-0 graph value.
        stop: The bound, as ``start``.
        step: The increment, as ``start``; default 1; not 0.
        out_dim: The number of values: required (an integer) when a bound is a graph value, and
            checked against ``(stop - start) // step`` otherwise.
        dtype: The values' dtype.
        device: The device the values live on (default: the graph's first device); graph-value
            bounds must be on the CPU, as in MAX.

    Returns:
        A 1-D value of ``dtype``.

    Raises:
        GraphError: ``step`` is 0, the count is negative, above ``MAX_DIM`` or not
            ``out_dim`` (above ``RANGE_LIMIT``: when the graph compiles, as in MAX), ``out_dim`` is missing or
            symbolic for graph-value bounds, a bound is not rank 0, or on another device than the CPU.
        LiteralRangeError: ``start`` or the last value does not fit ``dtype``.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("range", input_types=[]) as g:
        ...     g.output(ops.range(0, 6, 2, dtype=DType.int32), ops.range(0, 5, 2, dtype=DType.int32))
        >>> [r.tolist() for r in g.compile()()]
        [[0, 2, 4], [0, 2]]
    """
    target = None if device is None else DeviceRef.parse(device)
    d = DType.parse(dtype)
    g = current_graph()
    if any(isinstance(b, Value) and not b.device.is_cpu() for b in (start, stop, step)):
        raise GraphError("Range input values must be on CPU: " + ", ".join(
            f"{name} is on {b.device}" for name, b in (("start", start), ("stop", stop), ("step", step))
            if isinstance(b, Value)) + "; transfer them first (x.to(DeviceRef.CPU()))")
    what = f"range({start}, {stop}, {step})"
    if any(isinstance(b, Value) for b in (start, stop, step)):
        if out_dim is None or isinstance(out_dim, bool) or not isinstance(out_dim, (int, np.integer)):
            raise GraphError(f"{what}: Dynamic ranges must provide an explicit out_dim: bounds that are graph values "
                             "need out_dim, the number of values as an "
                             f"integer, not {out_dim!r} (StableHLO needs it when it builds the graph)")
        count = int(out_dim)
    else:
        for name, b in (("start", start), ("stop", stop), ("step", step)):
            if isinstance(b, bool) or not isinstance(b, (int, float, np.integer, np.floating)):
                raise GraphError(f"{what}: {name} must be a number or a rank-0 graph value, not {b!r}")
        if step == 0:
            raise GraphError(f"{what}: step must not be 0")
        assert not isinstance(start, Value) and not isinstance(stop, Value) and not isinstance(step, Value)  # any()
        count = int((stop - start) // step)
        if out_dim is not None and out_dim != count:
            raise GraphError(f"{what} has {builtins.max(count, 0)} elements ((stop - start) // step, as MAX counts), not "
                             f"out_dim={out_dim}")
    if count < 0:
        raise GraphError(f"{what}: (stop - start) // step is {count}: a negative count; for a descending range "
                         "give a negative step")
    if count > MAX_DIM:
        raise GraphError(f"{what}: Dim value must be -2**63 <= dim < 2**63: the range would have {count} elements, "
                         "more than a dimension can hold; use a smaller range")
    if count > RANGE_LIMIT:  # MAX builds the graph and its compiler stops: so does latticecast's compile
        g.refuse_compile(f"{what} has {count} elements, more than the {RANGE_LIMIT} a range can have (MAX's "
                         "compiler stops there too); use a smaller range")
    # integers count in int64 (an int8 range from -100 to 100 passes 127 on the way), floats in dtype
    work = DType.int64 if d.is_integral() and not d.is_bool else d
    for b in (start, stop, step):  # MAX makes each bound a constant of dtype: each must fit it
        problem = None if isinstance(b, Value) else scalar_problem(b, d)
        if problem:
            raise LiteralRangeError(f"{what}: {problem}", policy=g.policy.name, rhs=d)
    if not isinstance(start, Value) and not isinstance(step, Value) and count:
        problem = scalar_problem(start + (count - 1) * step, d)
        if problem:
            raise LiteralRangeError(f"{what}: {problem}", policy=g.policy.name, rhs=d)
    bounds = []
    for b in (start, step):
        if isinstance(b, Value):
            if b.graph is not g or b.rank != 0:
                raise GraphError(f"{what}: range expected scalar values as inputs! A graph-value bound must be a "
                                 "rank-0 value of this graph, not "
                                 f"{b.storage.name}{list(b.shape)}")
            bounds.append(b if b.storage is work and not b.is_weak else b.cast(work))
        else:
            bounds.append(g.constant(b, work))
    first, increment = bounds
    values = iota(g, work, (count,), 0) * increment + first
    return _placed(values if work is d else values.cast(d), target)
