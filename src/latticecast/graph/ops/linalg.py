"""Linear algebra: ``matmul`` (``@``) by ``dot_general``, ``outer``, and ``band_part``.

``matmul`` follows NumPy's and MAX's rules: 1-D operands are a row (left) or a column
(right) that is dropped again, and leading (batch) dimensions broadcast. A mixed-dtype
``dot_general`` is legal StableHLO with its own semantics (fp8 training writes
``f8E4M3FN x f8E5M2 -> f32``), so the pass leaves such a dot alone; the builder
therefore converts the operands to the promoted type itself, with the decision every
other op takes from ``op_rules``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from jaxlib.mlir.dialects import stablehlo

from ...promotion.dims import SymbolicDim

if TYPE_CHECKING:
    from ...promotion.dims import Dim
from ...promotion.dtypes import DType
from ...errors import GraphError
from ...promotion.op_rules import STABLEHLO
from ..value import TensorValueLike, Value
from .dynamic import iota
from .elementwise import bitwise_and, greater_equal, invert, less_equal, multiply, subtract
from .external import check_same_device
from .operands import (Literal, broadcast, broadcast_shapes, constant_value, convert, decide_operands, graph_of,
                       operand, with_op)
from .selection import where
from .shape import _reshaped, format_shape, squeeze, unsqueeze

__all__ = ["matmul", "outer", "band_part"]


def matmul(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Matrix product ``x @ y``, after promotion.

    1-D operands are treated as NumPy and MAX treat them (a row on the left, a column on the
    right, dropped again), and leading (batch) dimensions broadcast. The builder converts the
    operands to the promoted type itself: a mixed-dtype ``dot_general`` is legal StableHLO
    with its own meaning, which the pass leaves alone.

    Args:
        lhs: The left operand: a graph value or NumPy array of rank 1 or more.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, of shape ``batch + [M, N]`` (less the dropped 1-D axes).

    Raises:
        GraphError: An operand is a Python scalar or of rank 0, the contracted dimensions differ,
            or the batch dimensions do not broadcast.
        PromotionError: The policy defines no promotion of the operands' types.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("matmul", input_types=[TensorType(DType.int8, [2, 3]), TensorType(DType.float16, [3])]) as g:
        ...     m = ops.matmul(*g.inputs)
        ...     g.output(m)
        >>> m.dtype, m.shape
        (DType.float16, [Dim(2)])
        >>> g.compile()(np.array([[1, 2, 3], [4, 5, 6]], np.int8), np.array([1, 0, -1], np.float16))[0].tolist()
        [-2.0, -2.0]
    """
    g = graph_of(lhs, rhs)
    a, b = operand(lhs, g), operand(rhs, g)
    if isinstance(a, Literal) or isinstance(b, Literal):
        raise GraphError("matmul needs two tensors, not a Python scalar")
    check_same_device(g, lhs=a, rhs=b)
    if a.rank == 0 or b.rank == 0:
        raise GraphError("@ needs tensors of rank 1 or more; use * for scalars")
    # decided like every op, but not broadcast: contraction shapes differ by design
    d = decide_operands(g, STABLEHLO["stablehlo.dot_general"], "@", [a, b])
    a, b = (v if v.storage is d.target and not v.is_weak else convert(v, d.target, keep_weak=True) for v in (a, b))
    lhs = unsqueeze(a, 0) if a.rank == 1 else a
    rhs = unsqueeze(b, -1) if b.rank == 1 else b
    if lhs.shape[-1] != rhs.shape[-2]:
        raise GraphError(f"@: shapes {format_shape(a.shape)} and {format_shape(b.shape)} do not align "
                         f"({lhs.shape[-1]} != {rhs.shape[-2]})")
    if rhs.rank == 2:  # no batch on the right: contract directly, the left's batch stays in front
        batch: Sequence[int | Dim] = ()
        lhs_batch = list(lhs.shape[:-2])
    else:
        try:
            batch = broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2])
        except GraphError:
            raise GraphError(f"@: the batch dimensions of {format_shape(a.shape)} and {format_shape(b.shape)} "
                             "cannot be broadcast together") from None
        lhs = broadcast(lhs, batch + lhs.shape[-2:])
        rhs = broadcast(rhs, batch + rhs.shape[-2:])
        lhs_batch = []
    n = len(batch)
    out = (*batch, *lhs_batch, lhs.shape[-2], rhs.shape[-1])
    with g.context:
        dims = stablehlo.DotDimensionNumbers.get(
            lhs_batching_dimensions=list(range(n)), rhs_batching_dimensions=list(range(n)),
            lhs_contracting_dimensions=[lhs.rank - 1], rhs_contracting_dimensions=[rhs.rank - 2])
    op = g._add_op("stablehlo.dot_general", [g.tc.tensor(d.result, out)], [lhs.ir, rhs.ir],
                   {"dot_dimension_numbers": dims}, weak=d.result_weak)
    result = Value(g, op.result, d.result_ptype, out, storage=d.result)
    if b.rank == 1:
        result = squeeze(result, -1)
    if a.rank == 1:
        result = squeeze(result, -1 if b.rank == 1 else -2)
    return result


def outer(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """The outer product of two rank-1 values (MAX's ``ops.outer``; NumPy's ``np.outer``).

    ``result[i, j] = lhs[i] * rhs[j]``, promoted as ``*`` promotes (MAX's ``outer`` is
    ``lhs[:, None] * rhs[None, :]``).

    Args:
        lhs: A rank-1 value (or a NumPy array or list).
        rhs: A rank-1 value.

    Returns:
        A value of shape ``[len(lhs), len(rhs)]`` in the promoted dtype.

    Raises:
        GraphError: An operand does not have rank 1.
        PromotionError: The policy defines no promotion of the two dtypes.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("outer", input_types=[TensorType(DType.float32, [2])]) as g:
        ...     g.output(ops.outer(g.inputs[0], np.array([1, 2, 3], np.float32)))
        >>> g.compile()(np.array([1, 2], np.float32))[0].tolist()
        [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]
    """
    g = graph_of(lhs, rhs)
    a, b = operand(lhs, g), operand(rhs, g)
    if isinstance(a, Literal) or isinstance(b, Literal) or a.rank != 1 or b.rank != 1:
        raise GraphError(f"outer takes two rank-1 values, not shapes {format_shape(a.shape)} and "
                         f"{format_shape(b.shape)}; flatten them first (x.flatten())")
    check_same_device(g, lhs=a, rhs=b)
    return multiply(_reshaped(a, (a.shape[0], 1)), _reshaped(b, (1, b.shape[0])))


def band_part(x: TensorValueLike, num_lower: int | None = None, num_upper: int | None = None,
              exclude: bool = False) -> Value:
    """``x`` with everything outside a band of its last two axes set to zero (MAX's ``ops.band_part``).

    Element ``(m, n)`` is kept when ``m - n <= num_lower`` and ``n - m <= num_upper``;
    ``band_part(ones, None, 0)`` is a causal mask.

    Args:
        x: A graph value of rank 2 or more (the last two axes are the matrix).
        num_lower: How many diagonals below the main one to keep; ``None`` (or MAX's -1): all.
        num_upper: How many diagonals above the main one to keep; ``None`` (or -1): all.
        exclude: Keep the outside of the band instead, and zero the band.

    Returns:
        A value of ``x``'s dtype and shape.

    Raises:
        GraphError: ``x`` has rank below 2, or a bound is negative (other than -1), not an
            integer, or not smaller than its axis.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("band_part", input_types=[TensorType(DType.float32, [3, 3])]) as g:
        ...     g.output(ops.band_part(g.inputs[0], num_lower=None, num_upper=0))
        >>> g.compile()(np.ones((3, 3), np.float32))[0].tolist()
        [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]]
    """
    v = operand(x, graph_of(x))
    if isinstance(v, Literal) or v.rank < 2:
        raise GraphError(f"band_part needs a value of rank 2 or more (the last two axes are the matrix), not "
                         f"{x!r}" if isinstance(v, Literal) else
                         f"band_part: Input tensor x.shape={format_shape(v.shape)} must have at least 2 dimensions: "
                         "band_part needs a value of rank 2 or more (the last two axes are the matrix)")
    bounds = []
    for name, k, size in (("num_lower", num_lower, v.shape[-2]), ("num_upper", num_upper, v.shape[-1])):
        k = -1 if k is None else k
        if isinstance(k, bool) or not isinstance(k, int) or k < -1:
            raise GraphError(f"band_part: {name}={k!r} must be non-negative: an integer from 0 (None or -1: no "
                             "bound)")
        if isinstance(size, int) and k >= size:
            raise GraphError(f"band_part: {name}={k} is out of bounds for an axis of size {size} (use None for "
                             "no bound)")
        bounds.append(k)
    lower, upper = bounds
    if lower < 0 and upper < 0 and not exclude:
        return v
    g = v.graph
    matrix = v.shape[-2:]
    offset = subtract(iota(g, DType.int64, matrix, 0), iota(g, DType.int64, matrix, 1))  # m - n
    conditions = []
    if lower >= 0:
        conditions.append(less_equal(offset, constant_value(g, lower, DType.int64)))
    if upper >= 0:
        conditions.append(greater_equal(offset, constant_value(g, -upper, DType.int64)))
    if not conditions:  # exclude the whole matrix
        conditions.append(less_equal(offset, offset))
    keep = conditions[0] if len(conditions) == 1 else bitwise_and(*conditions)
    if exclude:
        keep = invert(keep)
    return where(keep, v, constant_value(g, 0, v.storage))
