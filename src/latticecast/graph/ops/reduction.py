"""Reductions: ``sum``, ``max``, ``min`` and ``mean`` over axes, by ``stablehlo.reduce``.

The dtype a sum accumulates in is the policy's (:meth:`Policy.sum_type`: ``jnp.sum``
widens small integers). A ``max`` or ``min`` over an axis of length zero has no
value to give (NumPy and JAX refuse it too), so it is a build-time error rather
than a silent infinity.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from jaxlib.mlir import ir

from ...errors import GraphError, PromotionError
from ..value import TensorValueLike, Value
from .elementwise import divide
from .promotion import constant_value, convert, element_count, unary_operand
from .shape import normalize_axis, reshape

__all__ = ["sum", "max", "min", "mean"]


def _axes(v: Value, axis: Any, what: str) -> list[int]:
    if axis is None:
        return list(range(v.rank))
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    out = [normalize_axis(a, v.rank, what) if v.rank else _scalar_axis(a, what) for a in axes]
    if len(set(out)) != len(out):
        raise GraphError(f"{what}: repeated axis in {axes}")
    return sorted(out)


def _scalar_axis(axis: Any, what: str) -> int:
    raise GraphError(f"{what}: axis {axis} is out of range for a value of rank 0")


def _reduce(v: Value, axes: list[int], body: str, init: Any, keepdims: bool) -> Value:
    g = v.graph
    dtype = v.storage
    out_shape = [d for i, d in enumerate(v.shape) if i not in axes]
    scalar = g.tc.tensor(dtype, ())
    init_v = constant_value(g, np.asarray(init, dtype=dtype.np_dtype), dtype)
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get(axes)}
    op = g._add_op("stablehlo.reduce", [g.tc.tensor(dtype, out_shape)], [v.ir, init_v.ir], attrs, regions=1)
    block = ir.Block.create_at_start(op.regions[0], [scalar, scalar], [g.loc, g.loc])
    inner = ir.Operation.create(body, results=[scalar], operands=list(block.arguments), loc=g.loc,
                                ip=ir.InsertionPoint(block))
    ir.Operation.create("stablehlo.return", operands=[inner.result], loc=g.loc, ip=ir.InsertionPoint(block))
    out = Value(g, op.result, dtype, out_shape)
    if keepdims:
        out = reshape(out, [1 if i in axes else d for i, d in enumerate(v.shape)])
    return out


def sum(x: TensorValueLike, axis: Any = None, *, keepdims: bool = False) -> Value:
    """The sum over ``axis`` (default all); bool and small integers accumulate in the policy's
    default integer (as ``jnp.sum`` and ``np.sum`` do)."""
    v = unary_operand(x, "sum")
    dtype = v.graph.policy.sum_type(v.storage)
    if dtype is not v.storage:
        v = convert(v, dtype)
    _check_zero(v, "sum")
    return _reduce(v, _axes(v, axis, "sum"), "stablehlo.add", 0, keepdims)


def _check_zero(v: Value, what: str) -> None:
    """A sum starts at 0, which ``float8_e8m0fnu`` does not have (it would start at NaN)."""
    if not v.storage.has_zero:
        raise GraphError(f"{what} of {v.storage.name} has no starting value: the dtype has no zero (a sum would "
                         f"start at NaN); cast to a float with zero first (x.cast(DType.float32))")


def _extreme(v: Value, largest: bool) -> Any:
    d = v.storage
    if d.is_bool:
        return not largest
    if d.is_inexact and d.has_inf:
        return -np.inf if largest else np.inf
    # no infinities (float8_e4m3fn, float4): the extreme finite values, as JAX does (-inf would be NaN)
    return d.min_value if largest else d.max_value


def _extremum(x: TensorValueLike, axis: Any, keepdims: bool, largest: bool) -> Value:
    what = "max" if largest else "min"
    v = unary_operand(x, what)
    if v.storage.is_complex:
        raise PromotionError(f"{what} is not defined for complex values")
    axes = _axes(v, axis, what)
    empty = [a for a in axes if v.shape[a] == 0]
    if empty:
        raise GraphError(f"{what} over axis {empty[0]} of length 0 has no value (it has no identity): "
                         "reduce a non-empty axis, or use sum")
    return _reduce(v, axes, "stablehlo.maximum" if largest else "stablehlo.minimum", _extreme(v, largest),
                   keepdims)


def max(x: TensorValueLike, axis: Any = None, *, keepdims: bool = False) -> Value:
    return _extremum(x, axis, keepdims, True)


def min(x: TensorValueLike, axis: Any = None, *, keepdims: bool = False) -> Value:
    return _extremum(x, axis, keepdims, False)


def mean(x: TensorValueLike, axis: Any = None, *, keepdims: bool = False) -> Value:
    """The mean over ``axis``: integers average in the policy's float (as ``jnp.mean``)."""
    v = unary_operand(x, "mean")
    axes = _axes(v, axis, "mean")
    count = element_count([v.shape[a] for a in axes])
    pol = v.graph.policy
    if not v.storage.is_inexact:
        t = pol.true_divide_type(pol.sum_type(v.storage))
        if t is None:
            raise PromotionError(f"mean needs floats under policy '{pol.name}'; cast first")
        v = convert(v, pol.materialize(t))
    _check_zero(v, "mean")
    total = _reduce(v, axes, "stablehlo.add", 0, keepdims)
    return divide(total, constant_value(v.graph, np.asarray(count, v.storage.np_dtype), v.storage))
