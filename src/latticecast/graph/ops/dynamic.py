"""Shapes that are known only when the graph runs: symbolic dimensions in the IR.

A graph whose input types name a symbolic dimension (``["batch", 10]``) has dynamic
dimensions in its IR (``tensor<?x10xf32>``). Ops whose result shape is an attribute
in StableHLO (``broadcast_in_dim``, ``reshape``, ``iota``) take their shape as an
operand instead (``dynamic_broadcast_in_dim``, ``dynamic_reshape``, ``dynamic_iota``),
computed from the inputs' sizes (``get_dimension_size``, read once per graph by
:meth:`Graph.dim_value`). This is the IR JAX writes for shape-polymorphic functions,
so refining it to the shapes of a call (``jax.extend.mlir.refine_polymorphic_shapes``,
which the runtime applies) makes it static again.

Shape values are ``tensor<Nxi64>``: StableHLO sizes are 64-bit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

import numpy as np
from jaxlib.mlir import ir

from ...promotion.dims import AlgebraicDim, Dim, SymbolicDim, is_static
from ...promotion.dtypes import DType
from ..value import Value

if TYPE_CHECKING:
    from ..graph import Graph

__all__ = ["is_static", "dim_value", "shape_value", "vector_value", "iota"]

Shape = Sequence["int | Dim"]


def _i64_constant(g: "Graph", values: Sequence[int], shape: Sequence[int]) -> ir.Value[ir.Type]:
    attr = g.tc.dense_attr(np.asarray(values, dtype=np.int64).reshape(shape), DType.int64, shape)
    return g._add_op("stablehlo.constant", [g.tc.tensor(DType.int64, shape)], [], {"value": attr}).result


def dim_value(g: "Graph", d: "int | Dim") -> ir.Value[ir.Type]:
    """The size ``d`` as a ``tensor<i64>``: a constant, or the symbolic (or algebraic) dimension's size
    when the graph runs."""
    if not isinstance(d, int):
        return g.dim_value(cast("SymbolicDim | AlgebraicDim", d))
    return _i64_constant(g, [int(d)], ())


def shape_value(g: "Graph", shape: Shape) -> ir.Value[ir.Type]:
    """``shape`` as a ``tensor<Nxi64>`` operand (one per shape and graph: it is defined in ``@main``'s
    body, before every later use)."""
    key = tuple(shape)
    found = g._shape_values.get(key)
    if found is None:
        found = g._shape_values[key] = vector_value(g, [d if isinstance(d, int) else dim_value(g, d)
                                                         for d in key])
    return found


def vector_value(g: "Graph", parts: Sequence["int | ir.Value[ir.Type]"]) -> ir.Value[ir.Type]:
    """A ``tensor<Nxi64>`` of ``parts``: sizes known now (``int``) or when the graph runs (a ``tensor<i64>``)."""
    if all(isinstance(p, int) for p in parts):
        return _i64_constant(g, list(parts), (len(parts),))  # type: ignore[arg-type]  # ints (`__class__ is`)
    one = g.tc.tensor(DType.int64, (1,))
    pieces = [_i64_constant(g, [p], (1,)) if isinstance(p, int) else
              g._add_op("stablehlo.reshape", [one], [p]).result for p in parts]
    if len(pieces) == 1:
        return pieces[0]
    with g.context:
        attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0)}
    return g._add_op("stablehlo.concatenate", [g.tc.tensor(DType.int64, (len(parts),))], pieces, attrs).result


def iota(g: "Graph", dtype: DType, shape: Shape, dimension: int) -> Value:
    """0, 1, 2, ... along ``dimension`` of ``shape`` (``stablehlo.iota``, or ``dynamic_iota`` for a
    symbolic shape); a strong value."""
    with g.context:
        attrs = {"iota_dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dimension)}
    result = [g.tc.tensor(dtype, shape)]
    if is_static(shape):
        op = g._add_op("stablehlo.iota", result, [], attrs)
    else:
        op = g._add_op("stablehlo.dynamic_iota", result, [shape_value(g, shape)], attrs)
    return Value(g, op.result, dtype, tuple(shape))
