"""Selection: ``where`` (``stablehlo.select``) and ``clamp``, promoting the values they choose between."""

from __future__ import annotations

from ...dtypes import DType
from ...errors import DomainError
from ...op_rules import STABLEHLO
from ..value import TensorValueLike, Value
from .promotion import Literal, broadcast, broadcast_shapes, constant_value, graph_of, operand, promote

__all__ = ["where", "select", "clamp"]


def where(condition: TensorValueLike, x: TensorValueLike, y: TensorValueLike) -> Value:
    """``x`` where ``condition`` else ``y`` (``stablehlo.select``), broadcasting all three."""
    g = graph_of(condition, x, y)
    c = operand(condition, g)
    if isinstance(c, Literal):
        if not isinstance(c.value, bool):
            raise DomainError(f"where needs a bool condition, not {c.value!r}")
        c = constant_value(g, c.value, DType.bool)
    if not c.storage.is_bool:
        raise DomainError(f"where needs a bool condition, not {c.storage.name}; compare it first "
                             "(e.g. x != 0)")
    p = promote(STABLEHLO["stablehlo.select"], "where", x, y, graph=g)
    shape = broadcast_shapes(c.shape, p.shape)
    cv = broadcast(c, shape)
    a, b = (broadcast(v, shape) for v in p.values)
    d = p.decision
    op = g._add_op("stablehlo.select", [g.tc.tensor(d.result, shape)], [cv.ir, a.ir, b.ir], weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, shape, storage=d.result)


select = where


def clamp(x: TensorValueLike, lo: TensorValueLike, hi: TensorValueLike) -> Value:
    """``x`` limited to ``[lo, hi]`` (``stablehlo.clamp``), promoting all three."""
    p = promote(STABLEHLO["stablehlo.clamp"], "clamp", lo, x, hi)
    g = p.values[0].graph
    d = p.decision
    op = g._add_op("stablehlo.clamp", [g.tc.tensor(d.result, p.shape)], [v.ir for v in p.values],
                   weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, p.shape, storage=d.result)
