"""Selection: ``where`` (``stablehlo.select``) and ``clamp``, promoting the values they choose between."""

from __future__ import annotations

from ...promotion.dtypes import DType
from ...errors import OperandDTypeError
from ...promotion.op_rules import STABLEHLO
from ..value import TensorValueLike, Value
from .external import check_same_device
from .operands import Literal, broadcast, broadcast_shapes, constant_value, graph_of, operand, promote

__all__ = ["where", "select", "clamp"]


def where(condition: TensorValueLike, x: TensorValueLike, y: TensorValueLike) -> Value:
    """``x`` where ``condition`` is true, else ``y`` (``stablehlo.select``; also ``select``).

    ``x`` and ``y`` are promoted together as for :func:`add`; all three broadcast.

    Args:
        condition: A bool graph value (or a Python bool).
        x: The values where ``condition`` holds: a graph value, a Python scalar (weak), or a NumPy value.
        y: The values elsewhere, as ``x``.

    Returns:
        A value of the promoted dtype of ``x`` and ``y``, with the broadcast shape of all three.

    Raises:
        OperandDTypeError: ``condition`` is not bool (a DomainError and a GraphError).
        PromotionError: The policy defines no promotion of ``x`` and ``y``.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("where", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     x = g.inputs[0]
        ...     r = ops.where(x > 0, x, 0.5)      # int32 and a Python float: float64 under jax
        ...     g.output(r)
        >>> r.dtype
        DType.float64
        >>> g.compile()(np.array([-1, 0, 1, 2], np.int32))[0].tolist()
        [0.5, 0.5, 1.0, 2.0]
    """
    g = graph_of(condition, x, y)
    c = operand(condition, g)
    if isinstance(c, Literal):
        if not isinstance(c.value, bool):
            raise OperandDTypeError(f"where needs a bool condition, not {c.value!r}")
        c = constant_value(g, c.value, DType.bool)
    if not c.storage.is_bool:
        raise OperandDTypeError(f"where: Expected condition to be a boolean tensor, but got a tensor with dtype "
                                f"DType.{c.storage.name}; where needs a bool condition, not {c.storage.name}; compare it "
                                "first (e.g. x != 0)")
    p = promote(STABLEHLO["stablehlo.select"], "where", x, y, graph=g)
    check_same_device(g, condition=c, x=p.values[0], y=p.values[1])
    shape = broadcast_shapes(c.shape, p.shape, names=("condition", "x"))
    cv = broadcast(c, shape)
    a, b = (broadcast(v, shape, implicit=True) for v in p.values)
    d = p.decision
    op = g._add_op("stablehlo.select", [g.tc.tensor(d.result, shape)], [cv.ir, a.ir, b.ir], weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, shape, storage=d.result)


select = where


def clamp(x: TensorValueLike, lo: TensorValueLike, hi: TensorValueLike) -> Value:
    """``x`` limited to ``[lo, hi]`` elementwise (``stablehlo.clamp``), promoting all three.

    Args:
        x: The values: a graph value, a Python scalar (weak), or a NumPy value.
        lo: The lower bound, as ``x`` (a scalar or of ``x``'s shape).
        hi: The upper bound, as ``lo``.

    Returns:
        A value of the promoted dtype of the three, with ``x``'s shape.

    Raises:
        PromotionError: The policy defines no promotion of the three types.
        LiteralRangeError: A Python scalar bound does not fit the promoted dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("clamp", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.clamp(g.inputs[0], 0, 2))
        >>> g.compile()(np.array([-1, 0, 1, 5], np.int32))[0].tolist()
        [0, 0, 1, 2]
    """
    p = promote(STABLEHLO["stablehlo.clamp"], "clamp", lo, x, hi)
    g = p.values[0].graph
    d = p.decision
    op = g._add_op("stablehlo.clamp", [g.tc.tensor(d.result, p.shape)], [v.ir for v in p.values],
                   weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, p.shape, storage=d.result)
