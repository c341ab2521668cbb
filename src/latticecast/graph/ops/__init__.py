"""The graph builder's ops (``latticecast.ops``), one module per family.

Where MAX 26.7's ``max.graph.ops`` has a name, the op here has MAX's signature and
meaning (``transpose(x, axis_1, axis_2)`` swaps two axes; ``sum``/``max``/``min``/``mean``
reduce one axis, default -1, and keep it; ``max(x, y)`` is elementwise). latticecast's
NumPy names stay where they do not clash (``subtract`` is ``sub``, ``maximum`` is
``max(x, y)``), and its NumPy-style reductions are ``reduce_sum`` and friends.

=================  =============================================================
``elementwise``    arithmetic, division, comparisons, bitwise and logical ops, shifts, unary math, casts
``selection``      ``where``/``select``, ``clamp``
``shape``          ``reshape``, ``broadcast_to``, ``transpose``, ``permute``, ``flatten``, ``squeeze``,
                   ``unsqueeze``, ``concat``, ``stack``, ``rebind``, ``transfer_to``
``indexing``       ``slice_tensor`` (what ``x[...]`` calls)
``gather``         ``gather``, ``gather_nd``, ``scatter*``, ``scatter_nd*``; NumPy's ``take``, ``take_along_axis``
``reduction``      MAX's ``sum mean max min prod argmax argmin``; ``reduce_sum`` ... (NumPy's)
``sorting``        ``top_k``, ``bottom_k``, ``argsort``, ``cumsum``; NumPy's ``sort``, ``argsort_along``
``tiling``         ``pad``, ``split``, ``chunk``, ``tile``, ``repeat_interleave``
``linalg``         ``matmul``, ``outer``, ``band_part``
``nn``             ``relu``, ``silu``, ``gelu``, ``softmax``, ``logsoftmax``, ``layer_norm``
``sharding``       ``shard`` (a sharding constraint over the graph's mesh)
``promotion``      the adapter over ``op_rules`` that every promoting op goes through
``dynamic``        symbolic dimensions in the IR (shape operands, ``dynamic_*`` ops)
=================  =============================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...device_ref import DeviceRef, DeviceRefLike
from ...dtypes import DType, DTypeLike
from ...errors import GraphError
from ..current import current_graph
from ..value import Value
from .elementwise import (abs, add, atan2, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, cast, ceil, cos, div,
                          divide, equal, erf, exp, floor, floor_div, floor_divide, greater, greater_equal, invert,
                          is_inf, is_nan, left_shift, less, less_equal, log, log1p, logical_and, logical_not,
                          logical_or, logical_xor, maximum, minimum, mod, mul, multiply, negate, negative,
                          not_equal, pow, power, remainder, right_shift, round, rsqrt, sigmoid, sign, sin, sqrt,
                          sub, subtract, tanh, true_divide, trunc)
from .gather import (gather, gather_nd, scatter, scatter_add, scatter_max, scatter_min, scatter_mul, scatter_nd,
                     scatter_nd_add, scatter_nd_max, scatter_nd_min, scatter_nd_mul, take, take_along_axis)
from .indexing import slice_tensor
from .linalg import band_part, matmul, outer
from .nn import gelu, layer_norm, logsoftmax, relu, silu, softmax
from .reduction import (argmax, argmin, max, mean, min, prod, reduce_max, reduce_mean, reduce_min, reduce_prod,
                        reduce_sum, sum)
from .selection import clamp, select, where
from .shape import (broadcast_to, concat, flatten, permute, rebind, reshape, squeeze, stack, transfer_to, transpose,
                    unsqueeze)
from .sharding import shard
from .sorting import argsort, argsort_along, bottom_k, cumsum, sort, top_k
from .tiling import chunk, pad, repeat_interleave, split, tile

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
    # neural network
    "relu", "sigmoid", "silu", "gelu", "softmax", "logsoftmax", "layer_norm", "band_part",
    # selection
    "where", "select", "clamp",
    # shape and indexing
    "reshape", "broadcast_to", "transpose", "permute", "flatten", "squeeze", "unsqueeze", "concat", "stack",
    "rebind", "slice_tensor", "transfer_to",
    # gathering and scattering: MAX's and NumPy's (take, take_along_axis)
    "gather", "gather_nd", "take", "take_along_axis", "scatter", "scatter_add", "scatter_max", "scatter_min",
    "scatter_mul", "scatter_nd", "scatter_nd_add", "scatter_nd_max", "scatter_nd_min", "scatter_nd_mul",
    # sorting and running sums: MAX's and NumPy's (sort, argsort_along)
    "top_k", "bottom_k", "argsort", "argsort_along", "sort", "cumsum",
    # cutting, padding and repeating
    "pad", "split", "chunk", "tile", "repeat_interleave", "outer",
    # sharding
    "shard",
    # reductions: MAX's (one axis, kept) and NumPy's (reduce_*)
    "sum", "mean", "max", "min", "prod", "argmax", "argmin", "reduce_sum", "reduce_mean", "reduce_max",
    "reduce_min", "reduce_prod",
    # values
    "cast", "constant", "range",
]


def _placed(device: DeviceRefLike, what: str) -> None:
    """``device`` must be the current graph's: latticecast compiles a graph for one device."""
    if device is None:
        return
    g = current_graph()
    if DeviceRef.parse(device) != g.device:
        raise GraphError(f"{what} on {DeviceRef.parse(device)}: graph {g.name!r} runs on {g.device}, and "
                         "latticecast compiles a graph for one device; use that device (or give the input "
                         "types the device you want)")


def constant(value: Any, dtype: DTypeLike | None = None, device: DeviceRefLike = None) -> Value:
    """A constant of the current graph (MAX's ``ops.constant(value, dtype, device)``).

    The values must fit ``dtype`` exactly. Without ``dtype``, a NumPy array keeps its dtype and
    a Python number takes the policy's default dtype of its kind (MAX requires ``dtype`` and
    ``device`` for a Python number). The constant is strongly typed.

    Args:
        value: A Python number, a NumPy scalar or array, or a nested list.
        dtype: The constant's dtype (a :class:`~latticecast.DType` or a spelling); ``None`` as above.
        device: The device; when given, it must be the graph's.

    Returns:
        A graph value of ``dtype`` and ``value``'s shape.

    Raises:
        LiteralRangeError: A value does not fit ``dtype`` exactly.
        GraphError: There is no current graph, or ``device`` is not the graph's.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("constant", input_types=[TensorType(DType.int8, [2])]) as g:
        ...     c = ops.constant(np.array([1, 2], np.uint8))
        ...     h = ops.constant(1.5, DType.bfloat16)
        >>> c.dtype, c.shape, h.dtype, h.shape
        (DType.uint8, (2,), DType.bfloat16, ())
    """
    _placed(device, "constant")
    return current_graph().constant(value, dtype)


def range(start: Any, stop: Any, step: Any = 1, out_dim: Any = None, *, dtype: DTypeLike,
          device: DeviceRefLike = None) -> Value:
    """``start, start + step, ...`` below ``stop`` (NumPy's ``arange``) as a constant of ``dtype``.

    MAX also takes graph values as bounds (and then needs ``out_dim``); latticecast takes
    Python numbers.

    Args:
        start: The first value.
        stop: The bound, not included.
        step: The increment; default 1.
        out_dim: The number of elements, checked when given.
        dtype: The constant's dtype.
        device: The device; when given, it must be the graph's.

    Returns:
        A 1-D constant of ``dtype``.

    Raises:
        GraphError: A bound is a graph value, ``out_dim`` is not the number of elements, or
            ``device`` is not the graph's.
        LiteralRangeError: A value does not fit ``dtype``.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("range", input_types=[]) as g:
        ...     r = ops.range(0, 6, 2, dtype=DType.int32)
        ...     g.output(r)
        >>> g.compile()()[0].tolist()
        [0, 2, 4]
    """
    _placed(device, "range")
    if any(isinstance(b, Value) for b in (start, stop, step)):
        raise GraphError("range takes Python numbers for start, stop and step; a range whose bounds are graph "
                         "values has a size known only when the graph runs, which latticecast does not support")
    d = DType.parse(dtype)
    values = np.arange(start, stop, step)
    if out_dim is not None and out_dim != len(values):
        raise GraphError(f"range({start}, {stop}, {step}) has {len(values)} elements, not out_dim={out_dim}")
    return current_graph().constant(values, d)
