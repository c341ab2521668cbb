"""``matmul`` (``@``): 1-D and 2-D as NumPy, and batched for equal leading dimensions, by ``dot_general``.

A mixed-dtype ``dot_general`` is legal StableHLO with its own semantics (fp8 training
writes ``f8E4M3FN x f8E5M2 -> f32``), so the pass leaves such a dot alone; the
builder therefore converts the operands to the promoted type itself, with the
decision every other op takes from ``op_rules``.
"""

from __future__ import annotations

from jaxlib.mlir.dialects import stablehlo

from ...errors import GraphError, PromotionError
from ...op_rules import STABLEHLO, decide
from ..value import TensorValueLike, Value
from .promotion import Literal, convert, graph_of, operand, with_op

__all__ = ["matmul"]


def matmul(x: TensorValueLike, y: TensorValueLike) -> Value:
    g = graph_of(x, y)
    a, b = operand(x, g), operand(y, g)
    if isinstance(a, Literal) or isinstance(b, Literal):
        raise GraphError("matmul needs two tensors, not a Python scalar")
    if a.rank == 0 or b.rank == 0:
        raise GraphError("@ needs tensors of rank 1 or more; use * for scalars")
    batch = 0
    if a.rank >= 3 or b.rank >= 3:
        if a.rank != b.rank or a.shape[:-2] != b.shape[:-2]:
            raise GraphError(f"batched @ needs equal leading dimensions: {list(a.shape)} @ {list(b.shape)}")
        batch = a.rank - 2
    lc, rc = a.rank - 1, (b.rank - 2 if b.rank >= 2 else 0)
    if a.shape[lc] != b.shape[rc]:
        raise GraphError(f"@: shapes {list(a.shape)} and {list(b.shape)} do not align "
                         f"({a.shape[lc]} != {b.shape[rc]})")
    try:  # decided like every op, but not broadcast: contraction shapes differ by design
        d = decide(g.policy, STABLEHLO["stablehlo.dot_general"], [a.ptype, b.ptype])
    except PromotionError as e:
        raise with_op("@", e) from None
    av, bv = (v if v.storage is d.target and not v.is_weak else convert(v, d.target, keep_weak=True)
              for v in (a, b))
    out = list(a.shape[:batch]) + [n for i, n in enumerate(a.shape) if i >= batch and i != lc] + \
        [n for i, n in enumerate(b.shape) if i >= batch and i != rc]
    with g.context:
        dims = stablehlo.DotDimensionNumbers.get(
            lhs_batching_dimensions=list(range(batch)), rhs_batching_dimensions=list(range(batch)),
            lhs_contracting_dimensions=[lc], rhs_contracting_dimensions=[rc])
    op = g._add_op("stablehlo.dot_general", [g.tc.tensor(d.result, out)], [av.ir, bv.ir],
                   {"dot_dimension_numbers": dims}, weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, out, storage=d.result)

