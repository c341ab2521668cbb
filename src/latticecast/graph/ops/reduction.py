"""Reductions, by ``stablehlo.reduce``, in two spellings.

MAX's names mean what MAX means: ``sum``, ``mean``, ``max``, ``min``, ``prod``, ``argmax`` and
``argmin`` reduce *one* axis (``axis=-1`` by default) and *keep* it with size 1 (``[2, 3]``
-> ``[2, 1]``); ``argmax``/``argmin`` give ``int64`` indices, the first one on ties. ``max(x, y)``
and ``min(x, y)`` with two operands are elementwise, also as in MAX. In ``max``, ``min``,
``argmax`` and ``argmin`` a number wins over NaN, as MAX's kernels do (measured:
``tools/max_semantics.py``), where NumPy's ``max`` propagates it.

latticecast's own NumPy-style reductions keep their meaning under their own names:
``reduce_sum``, ``reduce_max``, ``reduce_min``, ``reduce_mean`` and ``reduce_prod`` take any
axes (``axis=None``: all of them) and drop them unless ``keepdims=True`` (TensorFlow's
``reduce_*`` spelling of NumPy's semantics, NaN propagating as in ``np.max``).

In both, the dtype a sum or product accumulates in is the policy's (:meth:`OpTypeRules.sum <latticecast.policies.components.OpTypeRules.sum>`:
``jnp.sum`` widens small integers), and integers average in the policy's float. A ``max``
or ``min`` over an axis of length zero has no value to give (NumPy and JAX refuse it too),
so it is a build-time error rather than a silent infinity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence, SupportsIndex, TypeAlias

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.dims import SymbolicDim
from ...promotion.dtypes import DType
from ...errors import DomainError, GraphError
from ..value import TensorValueLike, Value
from .dynamic import iota
from . import elementwise as _elementwise
from .elementwise import divide, floor_divide, maximum, minimum, multiply, sqrt, subtract
from .operands import broadcast, checked_unary_operand, constant_value, convert, unary_operand
from .shape import _reshaped, normalize_axis

__all__ = ["sum", "mean", "max", "min", "prod", "argmax", "argmin", "var", "stdev",
           "reduce_sum", "reduce_max", "reduce_min", "reduce_mean", "reduce_prod"]


if TYPE_CHECKING:
    from ...promotion.dims import Dim
    from ..graph import Graph

Axes: TypeAlias = "SupportsIndex | Sequence[SupportsIndex] | None"
"""NumPy's ``axis`` of a reduction: one axis, several, or ``None`` for all of them."""

AxesOf = Callable[[Value, str], list[int]]
"""How a reduction reads its axes of a value (MAX's one kept axis, or NumPy's), naming the op in errors."""

Combine = Callable[["_Body", "ir.Value[ir.Type]", "ir.Value[ir.Type]"], "ir.Value[ir.Type]"]
"""A reduction's body built from several ops: ``(body, a, b) -> combined``."""


# -- axes ----------------------------------------------------------------------------------------

def _one_axis(v: Value, axis: object, what: str) -> list[int]:
    """MAX's single axis (kept in the result)."""
    if axis is None or isinstance(axis, (list, tuple)):
        several = (f"; for several axes, or all of them, use ops.reduce_{what}(x, axis=None)"
                   if what in ("sum", "mean", "max", "min", "prod") else "")
        raise GraphError(f"{what} reduces one axis (MAX's meaning: axis=-1 by default, kept with size 1), not "
                         f"{axis!r}{several}")
    return [normalize_axis(axis, v.rank, what)]


def _axes(v: Value, axis: object, what: str) -> list[int]:
    """NumPy's axes: ``None`` is all of them."""
    if axis is None:
        return list(range(v.rank))
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    out = [normalize_axis(a, v.rank, what) for a in axes]
    if len(set(out)) != len(out):
        raise GraphError(f"{what}: repeated axis in {axes}")
    return sorted(out)


# -- the reduce op -------------------------------------------------------------------------------

class _Body:
    """Builds a reduction's region: ``emit`` appends one op to its block."""

    def __init__(self, g: "Graph", block: ir.Block) -> None:
        self.g = g
        self.ip = ir.InsertionPoint(block)
        self.bool = g.tc.tensor(DType.bool, ())

    def emit(self, name: str, result: ir.Type, *operands: ir.Value[ir.Type], direction: str | None = None) -> ir.Value[ir.Type]:
        attributes: dict[str, ir.Attribute] | None = None
        if direction is not None:
            with self.g.context:
                attributes = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get(direction)}
        return ir.Operation.create(name, results=[result], operands=list(operands), attributes=attributes,
                                   loc=self.g.loc, ip=self.ip).result

    def compare(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type], direction: str) -> ir.Value[ir.Type]:
        return self.emit("stablehlo.compare", self.bool, a, b, direction=direction)

    def logical(self, name: str, *operands: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        return self.emit(f"stablehlo.{name}", self.bool, *operands)

    def done(self, *results: ir.Value[ir.Type]) -> None:
        ir.Operation.create("stablehlo.return", operands=list(results), loc=self.g.loc, ip=self.ip)


def _reduce(v: Value, axes: list[int], body: "str | Combine", init: int | float, keepdims: bool) -> Value:
    """``stablehlo.reduce`` of ``v`` over ``axes``: ``body`` is the op combining two elements (a name), or
    a function ``(body, a, b) -> combined`` that builds it from several (a :class:`_Body`)."""
    g = v.graph
    dtype = v.storage
    out_shape = tuple(d for i, d in enumerate(v.shape) if i not in axes)
    scalar = g.tc.tensor(dtype, ())
    init_v = constant_value(g, np.asarray(init, dtype=dtype.np_dtype), dtype)
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get(axes)}
    op = g._add_op("stablehlo.reduce", [g.tc.tensor(dtype, out_shape)], [v.ir, init_v.ir], attrs, regions=1)
    block = ir.Block.create_at_start(op.regions[0], [scalar, scalar], [g.loc, g.loc])
    b = _Body(g, block)
    a, c = block.arguments
    b.done(b.emit(body, scalar, a, c) if isinstance(body, str) else body(b, a, c))
    out = Value(g, op.result, dtype, out_shape)
    return _reshaped(out, _kept(v, axes)) if keepdims else out


def _kept(v: Value, axes: list[int]) -> Sequence[int | Dim]:
    return tuple(1 if i in axes else d for i, d in enumerate(v.shape))


def _summed(x: TensorValueLike, axes_of: AxesOf, what: str, keepdims: bool, body: str, init: int) -> Value:
    """A sum or product in the policy's accumulation type (``jnp.sum`` widens small integers)."""
    v = unary_operand(x, what)
    dtype = v.graph.policy.op_types.sum(v.storage)
    if dtype is not v.storage:
        v = convert(v, dtype)
    if init == 0:
        _check_zero(v, what)
    return _reduce(v, axes_of(v, what), body, init, keepdims)


def _check_zero(v: Value, what: str) -> None:
    """A sum starts at 0, which ``float8_e8m0fnu`` does not have (it would start at NaN)."""
    if not v.storage.has_zero:
        raise GraphError(f"{what} of {v.storage.name} has no starting value: the dtype has no zero (a sum would "
                         f"start at NaN); cast to a float with zero first (x.cast(DType.float32))")


def _extreme(v: Value, largest: bool) -> int | float:
    d = v.storage
    if d.is_bool:
        return not largest
    if d.is_inexact and d.has_inf:
        return -np.inf if largest else np.inf
    # no infinities (float8_e4m3fn, float4): the extreme finite values, as JAX does (-inf would be NaN)
    return d.min_value if largest else d.max_value


def _finite_extreme(v: Value, largest: bool) -> int | float:
    """The start of MAX's max (min) reduction: the dtype's lowest (highest) finite value (float32's
    -3.4028235e38, not -inf: measured, MAX's max over an empty axis gives it)."""
    d = v.storage
    if d.is_bool:
        return not largest
    return d.min_value if largest else d.max_value


def _extremum(x: TensorValueLike, axes_of: AxesOf, keepdims: bool, largest: bool, what: str,
              skip_nan: bool = False) -> Value:
    """The largest (smallest) element. With ``skip_nan`` (MAX's ``max``/``min``) a NaN counts only where
    every element is NaN, as MAX's kernels do; otherwise a NaN wins (NumPy's ``max``).

    NumPy's reductions refuse an axis of length 0; MAX's ``max``/``min`` build (as MAX's graphs do) and
    give the reduction's identity there: NaN, or the dtype's lowest (highest) value without NaN."""
    v, _ = checked_unary_operand(x, what)
    axes = axes_of(v, what)
    empty = [a for a in axes if isinstance(v.shape[a], int) and v.shape[a] == 0]
    if empty and skip_nan:  # MAX's max/min of nothing: the dtype's lowest (highest) finite value, as MAX gives
        return _reduce(v, axes, "stablehlo.maximum" if largest else "stablehlo.minimum", _finite_extreme(v, largest),
                       keepdims)
    if empty:
        raise GraphError(f"{what} over axis {empty[0]} of length 0 has no value (it has no identity): "
                         "reduce a non-empty axis, or use sum")
    if skip_nan and v.storage.has_nan:  # without NaN (float6, float4) it is the plain max
        def body(b: _Body, x: ir.Value[ir.Type], y: ir.Value[ir.Type]) -> ir.Value[ir.Type]:  # x unless y is the better number
            pick = b.logical("or", b.compare(x, y, "GT" if largest else "LT"), b.compare(y, y, "NE"))
            return b.emit("stablehlo.select", x.type, pick, x, y)
        return _reduce(v, axes, body, np.nan, keepdims)  # NaN is the identity of a NaN-skipping max
    return _reduce(v, axes, "stablehlo.maximum" if largest else "stablehlo.minimum", _extreme(v, largest),
                   keepdims)


def _count(v: Value, axes: list[int]) -> Value:
    """How many elements the ``axes`` of ``v`` hold, as a strong scalar of ``v``'s dtype (read when the
    graph runs for a symbolic axis)."""
    g = v.graph
    static = 1
    count: Value | None = None
    for a in axes:
        d = v.shape[a]
        if isinstance(d, int):
            static *= d
            continue
        size = convert(Value(g, g.dim_value(d), DType.int64, ()), v.storage)  # a SymbolicDim
        count = size if count is None else multiply(count, size)
    # a count the integer dtype cannot hold wraps, as MAX 26.7 computes a mean of int8 (measured: 130 threes
    # average to 0 there, the int8 sum 134 = -122 divided by the int8 count 130 = -126)
    fixed = constant_value(g, np.asarray(static).astype(v.storage.np_dtype), v.storage)
    return fixed if count is None else (count if static == 1 else multiply(count, fixed))


def _mean(x: TensorValueLike, axes_of: AxesOf, keepdims: bool, what: str) -> Value:
    """Integers average in the policy's float (as ``jnp.mean``); where the policy keeps them integers
    (MAX 26.7: ``ops.mean(int32)`` is int32, measured), the quotient is floored as ``//`` floors it."""
    v = unary_operand(x, what)
    axes = axes_of(v, what)
    pol = v.graph.policy
    if not v.storage.is_inexact:
        t = pol.op_types.true_divide(pol.op_types.sum(v.storage))
        if t is None:
            raise DomainError(f"{what} needs floats under policy '{pol.name}'; cast first")
        v = convert(v, pol.materialize(t))
    _check_zero(v, what)
    if v.storage.is_bool:
        # a bool mean (MAX keeps bool, and its compiler stops there) is the floored mean of its 0s and 1s:
        # True where every element is. An integer mean is taken in its own dtype below and wraps, as MAX's
        narrow = v.storage
        wide = convert(v, DType.uint64 if narrow.is_unsigned_integral() else DType.int64)
        return convert(floor_divide(_reduce(wide, axes, "stablehlo.add", 0, keepdims), _count(wide, axes)), narrow)
    total = _reduce(v, axes, "stablehlo.add", 0, keepdims)
    if not v.storage.is_inexact:  # MAX divides an integer mean toward zero (measured: int8 32 / -56 is 0)
        count = broadcast(_count(v, axes), total.shape)
        op = total.graph._add_op("stablehlo.divide", [total.ir.type], [total.ir, count.ir])
        return Value(total.graph, op.result, total.ptype, total.shape, storage=total.storage)
    return divide(total, _count(v, axes))


# -- MAX's reductions: one axis, kept ----------------------------------------------------------------

def sum(x: TensorValueLike, axis: int = -1) -> Value:
    """The sum along one axis, kept with size 1 (MAX's ``ops.sum``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The one axis to reduce (negative counts from the end); default -1 (MAX's meaning).

    Returns:
        The sum, in the policy's accumulation type (small integers widen, as ``jnp.sum``: int16 sums in int64 under
        ``jax``), with ``axis`` kept with size 1 (``[2, 3]`` gives ``[2, 1]``).

    Raises:
        GraphError: ``axis`` is not one axis of ``x`` (use the ``reduce_*`` op for several).
        GraphError: ``x``'s dtype has no zero (``float8_e8m0fnu``).

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("sum", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.sum(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int64, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[8], [-1]]
    """
    return _summed(x, lambda v, w: _one_axis(v, axis, w), "sum", True, "stablehlo.add", 0)


def prod(x: TensorValueLike, axis: int = -1) -> Value:
    """The product along one axis, kept with size 1 (MAX's ``ops.prod``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The one axis to reduce (negative counts from the end); default -1 (MAX's meaning).

    Returns:
        The product, in the policy's accumulation type (small integers widen, as ``jnp.prod``:
        int16 multiplies in int64 under ``jax``), with ``axis`` kept with size 1.

    Raises:
        GraphError: ``axis`` is not one axis of ``x`` (use the ``reduce_*`` op for several).

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("prod", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.prod(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int64, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[10], [0]]
    """
    return _summed(x, lambda v, w: _one_axis(v, axis, w), "prod", True, "stablehlo.multiply", 1)


def mean(x: TensorValueLike, axis: int = -1) -> Value:
    """The mean along one axis, kept with size 1 (MAX's ``ops.mean``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The one axis to reduce (negative counts from the end); default -1 (MAX's meaning).

    Returns:
        The mean, with ``axis`` kept with size 1; integers average in the policy's float (as
        ``jnp.mean``), or, where the policy keeps them integers (``max-python``), floored as ``//`` floors.

    Raises:
        GraphError: ``axis`` is not one axis of ``x`` (use the ``reduce_*`` op for several).
        DomainError: The policy has no float for ``x``'s integers.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("mean", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.mean(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.float64, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[2.6666666666666665], [-0.3333333333333333]]
    """
    return _mean(x, lambda v, w: _one_axis(v, axis, w), True, "mean")


def max(x: TensorValueLike, y: TensorValueLike | None = None, /, axis: int | None = None) -> Value:
    """The maximum along one axis, kept with size 1; or, with ``y``, the elementwise maximum.

    Both as MAX's ``ops.max``: a NaN loses to a number (NumPy's ``nanmax`` and ``fmax``);
    :func:`maximum` and :func:`reduce_max` propagate NaN as NumPy's ``maximum`` and ``max`` do.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        y: The other operand of the elementwise form (promoted with ``x`` as for :func:`add`).
        axis: The one axis to reduce (negative counts from the end); default -1. Not with ``y``.

    Returns:
        With ``axis`` (or neither): a value of ``x``'s dtype with ``axis`` kept with size 1. With
        ``y``: a value of the promoted dtype and the broadcast shape.

    Raises:
        GraphError: ``axis`` is not one axis of ``x``, or is given together with ``y``.
        PromotionError: The policy defines no promotion of ``x`` and ``y``.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("max", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.max(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int16, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[5], [3]]
        >>> with Graph("nanmax", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(ops.max(g.inputs[0], 1.0))
        >>> g.compile()(np.array([0.0, np.nan, 2.0], np.float32))[0].tolist()
        [1.0, 1.0, 2.0]
    """
    if y is None:
        return _extremum(x, lambda v, w: _one_axis(v, -1 if axis is None else axis, w), True, True, "max",
                         skip_nan=True)
    if axis is not None:
        raise GraphError("max(x, y) is elementwise: axis is not allowed (reduce with max(x, axis=...))")
    return _elementwise.max(x, y)


def min(x: TensorValueLike, y: TensorValueLike | None = None, /, axis: int | None = None) -> Value:
    """The minimum along one axis, kept with size 1; or, with ``y``, the elementwise minimum.

    Both as MAX's ``ops.min``: a NaN loses to a number (NumPy's ``nanmin`` and ``fmin``);
    :func:`minimum` and :func:`reduce_min` propagate NaN as NumPy's ``minimum`` and ``min`` do.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        y: The other operand of the elementwise form (promoted with ``x`` as for :func:`add`).
        axis: The one axis to reduce (negative counts from the end); default -1. Not with ``y``.

    Returns:
        With ``axis`` (or neither): a value of ``x``'s dtype with ``axis`` kept with size 1. With
        ``y``: a value of the promoted dtype and the broadcast shape.

    Raises:
        GraphError: ``axis`` is not one axis of ``x``, or is given together with ``y``.
        PromotionError: The policy defines no promotion of ``x`` and ``y``.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("min", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.min(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int16, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[1], [-4]]
        >>> with Graph("nanmin", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(ops.min(g.inputs[0], 1.0))
        >>> g.compile()(np.array([0.0, np.nan, 2.0], np.float32))[0].tolist()
        [0.0, 1.0, 1.0]
    """
    if y is None:
        return _extremum(x, lambda v, w: _one_axis(v, -1 if axis is None else axis, w), True, False, "min",
                         skip_nan=True)
    if axis is not None:
        raise GraphError("min(x, y) is elementwise: axis is not allowed (reduce with min(x, axis=...))")
    return _elementwise.min(x, y)


def var(x: TensorValueLike, axis: int = -1) -> Value:
    """The population variance along ``axis`` (no Bessel correction), kept with size 1 (MAX's ``x.var()``)."""
    v, _ = checked_unary_operand(x, "var")
    d = subtract(v, mean(v, axis))
    return mean(multiply(d, d), axis)


def stdev(x: TensorValueLike, axis: int = -1) -> Value:
    """The square root of :func:`var` along ``axis`` (MAX's ``x.stdev()``)."""
    return sqrt(var(x, axis))


def _arg(x: TensorValueLike, axis: int, largest: bool) -> Value:
    """The index of the largest (smallest) element along ``axis``, kept with size 1, as ``int64``. The
    first index wins a tie, and a NaN never wins over a number (an all-NaN row gives its first index):
    the order is total, so the result does not depend on the order XLA reduces in."""
    what = "argmax" if largest else "argmin"
    v, _ = checked_unary_operand(x, what)
    a = _one_axis(v, axis, what)[0]
    g = v.graph
    dtype = v.storage
    index = iota(g, DType.int64, v.shape, a)
    nan_first = dtype.has_nan
    value_init = constant_value(g, np.asarray(np.nan if nan_first else _extreme(v, largest), dtype.np_dtype), dtype)
    index_init = constant_value(g, np.iinfo(np.int64).max, DType.int64)
    out_shape = tuple(d for i, d in enumerate(v.shape) if i != a)
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get([a])}
    vt, it = g.tc.tensor(dtype, ()), g.tc.tensor(DType.int64, ())
    op = g._add_op("stablehlo.reduce", [g.tc.tensor(dtype, out_shape), g.tc.tensor(DType.int64, out_shape)],
                   [v.ir, index.ir, value_init.ir, index_init.ir], attrs, regions=1)
    block = ir.Block.create_at_start(op.regions[0], [vt, it, vt, it], [g.loc] * 4)
    x_val, x_idx, y_val, y_idx = block.arguments
    b = _Body(g, block)
    better = b.compare(x_val, y_val, "GT" if largest else "LT")
    tie = b.compare(x_val, y_val, "EQ")
    if nan_first:
        x_nan, y_nan = b.compare(x_val, x_val, "NE"), b.compare(y_val, y_val, "NE")
        better = b.logical("and", b.logical("not", x_nan), b.logical("or", y_nan, better))
        tie = b.logical("or", tie, b.logical("and", x_nan, y_nan))
    pick = b.logical("or", better, b.logical("and", tie, b.compare(x_idx, y_idx, "LT")))
    b.done(b.emit("stablehlo.select", vt, pick, x_val, y_val), b.emit("stablehlo.select", it, pick, x_idx, y_idx))
    out = Value(g, op.results[1], DType.int64, out_shape)
    return _reshaped(out, _kept(v, [a]))


def argmax(x: TensorValueLike, axis: int = -1) -> Value:
    """The index of the largest element along one axis (MAX's ``ops.argmax``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The one axis to reduce (negative counts from the end); default -1 (MAX's meaning).

    Returns:
        An int64 value with ``axis`` kept with size 1; the first index where several are equal.

    Raises:
        GraphError: ``axis`` is not one axis of ``x`` (use the ``reduce_*`` op for several).

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("argmax", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.argmax(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int64, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[1], [2]]
    """
    return _arg(x, axis, True)


def argmin(x: TensorValueLike, axis: int = -1) -> Value:
    """The index of the smallest element along one axis (MAX's ``ops.argmin``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The one axis to reduce (negative counts from the end); default -1 (MAX's meaning).

    Returns:
        An int64 value with ``axis`` kept with size 1; the first index where several are equal.

    Raises:
        GraphError: ``axis`` is not one axis of ``x`` (use the ``reduce_*`` op for several).

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("argmin", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.argmin(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int64, [Dim(2), Dim(1)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[0], [0]]
    """
    return _arg(x, axis, False)


# -- latticecast's NumPy-style reductions: any axes, dropped unless keepdims ---------------------------

def reduce_sum(x: TensorValueLike, axis: Axes = None, keepdims: bool = False) -> Value:
    """The sum over ``axis``, as ``np.sum``.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: An axis, a sequence of axes, or ``None`` (the default) for all of them (NumPy's meaning).
        keepdims: Keep the reduced axes with size 1.

    Returns:
        The sum in the policy's accumulation type (int16 sums in int64 under ``jax``).

    Raises:
        GraphError: An axis is out of range or repeated.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("reduce_sum", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.reduce_sum(g.inputs[0], axis=0)
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int64, [Dim(3)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [-3, 5, 5]
    """
    return _summed(x, lambda v, w: _axes(v, axis, w), "reduce_sum", keepdims, "stablehlo.add", 0)


def reduce_prod(x: TensorValueLike, axis: Axes = None, keepdims: bool = False) -> Value:
    """The product over ``axis``, as ``np.prod``.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: An axis, a sequence of axes, or ``None`` (the default) for all of them (NumPy's meaning).
        keepdims: Keep the reduced axes with size 1.

    Returns:
        The product in the policy's accumulation type.

    Raises:
        GraphError: An axis is out of range or repeated.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("reduce_prod", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.reduce_prod(g.inputs[0], axis=0)
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int64, [Dim(3)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [-4, 0, 6]
    """
    return _summed(x, lambda v, w: _axes(v, axis, w), "reduce_prod", keepdims, "stablehlo.multiply", 1)


def reduce_max(x: TensorValueLike, axis: Axes = None, keepdims: bool = False) -> Value:
    """The maximum over ``axis``, as ``np.max`` (a NaN propagates).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: An axis, a sequence of axes, or ``None`` (the default) for all of them (NumPy's meaning).
        keepdims: Keep the reduced axes with size 1.

    Returns:
        A value of ``x``'s dtype.

    Raises:
        GraphError: An axis is out of range or repeated.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("reduce_max", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.reduce_max(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int16, [])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        5
    """
    return _extremum(x, lambda v, w: _axes(v, axis, w), keepdims, True, "reduce_max")


def reduce_min(x: TensorValueLike, axis: Axes = None, keepdims: bool = False) -> Value:
    """The minimum over ``axis``, as ``np.min`` (a NaN propagates).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: An axis, a sequence of axes, or ``None`` (the default) for all of them (NumPy's meaning).
        keepdims: Keep the reduced axes with size 1.

    Returns:
        A value of ``x``'s dtype.

    Raises:
        GraphError: An axis is out of range or repeated.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("reduce_min", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.reduce_min(g.inputs[0])
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.int16, [])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        -4
    """
    return _extremum(x, lambda v, w: _axes(v, axis, w), keepdims, False, "reduce_min")


def reduce_mean(x: TensorValueLike, axis: Axes = None, keepdims: bool = False) -> Value:
    """The mean over ``axis``, as ``np.mean``.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: An axis, a sequence of axes, or ``None`` (the default) for all of them (NumPy's meaning).
        keepdims: Keep the reduced axes with size 1.

    Returns:
        The mean; integers average in the policy's float (as ``jnp.mean``).

    Raises:
        GraphError: An axis is out of range or repeated.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> import numpy as np
        >>> with Graph("reduce_mean", input_types=[TensorType(DType.int16, [2, 3])]) as g:
        ...     r = ops.reduce_mean(g.inputs[0], axis=0, keepdims=True)
        ...     g.output(r)
        >>> r.dtype, r.shape
        (DType.float64, [Dim(1), Dim(3)])
        >>> g.compile()(np.array([[1, 5, 2], [-4, 0, 3]], np.int16))[0].tolist()
        [[-1.5, 2.5, 2.5]]
    """
    return _mean(x, lambda v, w: _axes(v, axis, w), keepdims, "reduce_mean")
