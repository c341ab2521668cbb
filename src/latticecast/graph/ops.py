"""The ops of the graph builder (``latticecast.ops``): elementwise math with NumPy broadcasting
and policy promotion, comparisons, bitwise ops, selection, shapes, reductions, matmul.

Semantics follow the policy's source system where systems differ: ``/`` is true
division (integers divide in the system's float, e.g. float32 for int16 under
JAX), ``//`` and ``%`` are floor division and floor modulo as in Python and NumPy
(also for negative integers), and functions such as ``exp`` take integers to the
system's float.
"""

from __future__ import annotations

import builtins
from typing import Any, Iterable, Sequence

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..dtypes import DType
from ..errors import PromotionError
from ..weak import PType, Weak
from .emit import (Literal, binary, broadcast_shapes, broadcast_to, constant_value, convert, create,
                   emit_literal, graph_of, operand, promote, realize)
from .types import GraphError
from .value import Value

__all__ = [
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod", "remainder", "power",
    "matmul", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "bitwise_and",
    "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "invert", "bitwise_not", "negative", "abs",
    "exp", "log", "sqrt", "rsqrt", "tanh", "sin", "cos", "floor", "ceil", "round", "sign", "maximum",
    "minimum", "atan2", "where", "select", "clamp", "reshape", "broadcast_to", "transpose", "sum", "max",
    "min", "mean", "cast", "constant",
]


def _passthrough(x: Any, g: Any) -> "Value | Literal":
    return x if isinstance(x, Literal) else operand(x, g)


# -- arithmetic ---------------------------------------------------------------------------------

def add(x: Any, y: Any) -> Value:
    return binary("stablehlo.add", x, y, symbol="+")


def subtract(x: Any, y: Any) -> Value:
    return binary("stablehlo.subtract", x, y, symbol="-")


def multiply(x: Any, y: Any) -> Value:
    return binary("stablehlo.multiply", x, y, symbol="*")


def maximum(x: Any, y: Any) -> Value:
    return binary("stablehlo.maximum", x, y, symbol="maximum")


def minimum(x: Any, y: Any) -> Value:
    return binary("stablehlo.minimum", x, y, symbol="minimum")


def power(x: Any, y: Any) -> Value:
    return binary("stablehlo.power", x, y, symbol="**")


def _to_inexact(g: Any, x: "Value | Literal", target: DType, weak_target: PType, what: str) -> "Value | Literal":
    """An integer or bool operand as the float ``target`` of true division (explicitly: the
    system's semantics, not an implicit promotion)."""
    if isinstance(x, Literal):
        if isinstance(x.ptype, Weak) and x.ptype.dtype.is_inexact:
            return x
        value = complex(x.value) if target.is_complex else float(x.value)
        return Literal(value, g.policy.literal_type(value)) if isinstance(x.ptype, Weak) else \
            emit_literal(g, Literal(value, target), target, ())
    if x.storage.is_inexact:
        return x
    if x.is_weak:
        return convert(x, g.policy.materialize(weak_target) if isinstance(weak_target, Weak) else target,
                       keep_weak=True)
    return convert(x, target)


def _inexact_pair(x: Any, y: Any, what: str) -> tuple["Value | Literal", "Value | Literal", bool]:
    """Operands of a float-only binary op (``/``, ``atan2``), converted where the system does.
    The flag says whether the system divides integers as integers instead (``jax.lax``)."""
    g = graph_of(x, y)
    a, b = _passthrough(x, g), _passthrough(y, g)
    join = promote(g, a.ptype, b.ptype, what)
    if g.policy.materialize(join).is_inexact:
        return a, b, False
    try:
        t = g.policy.true_divide_type(join)
    except PromotionError as e:
        raise PromotionError(f"{what}: {e}", lhs=a.ptype, rhs=b.ptype, policy=g.policy.name,
                             cast_to=e.cast_to) from None
    if t is None:
        return a, b, True
    target = g.policy.materialize(t)
    return _to_inexact(g, a, target, t, what), _to_inexact(g, b, target, t, what), False


def divide(x: Any, y: Any) -> Value:
    """True division (``/``). Integers divide in the policy's float, except under ``jax-lax``,
    whose ``lax.div`` divides integers as integers (truncating)."""
    a, b, integer = _inexact_pair(x, y, "/")
    return binary("stablehlo.divide", a, b, symbol="/")


true_divide = divide


def _signed_fix(g: Any, r: Value, b: Value) -> Value:
    """Where a truncated remainder ``r`` is non-zero and its sign differs from ``b``'s."""
    nonzero = not_equal(r, 0)
    differs = not_equal(less(r, 0), less(b, 0))
    return bitwise_and(nonzero, differs)


def _floor_operands(x: Any, y: Any, what: str) -> tuple[Value, Value, DType]:
    g = graph_of(x, y)
    a, b = _passthrough(x, g), _passthrough(y, g)
    join = promote(g, a.ptype, b.ptype, what)
    target = g.policy.materialize(join)
    if target.is_bool or target.is_complex:
        raise PromotionError(f"{what} needs real numbers, but the operands promote to {target.name}",
                             lhs=a.ptype, rhs=b.ptype, policy=g.policy.name)
    shape = broadcast_shapes(a.shape, b.shape)
    return realize(g, a, target, shape), realize(g, b, target, shape), target


def floor_divide(x: Any, y: Any) -> Value:
    """``//``: rounds toward negative infinity, for integers too (StableHLO's divide truncates)."""
    a, b, target = _floor_operands(x, y, "//")
    if target.is_inexact:
        # NumPy's and JAX's float divmod: floor(a / b) would round a quotient such as
        # 24.9999999 up to 25 before flooring; (a - fmod(a, b)) / b is exact in those cases.
        r = binary("stablehlo.remainder", a, b, symbol="//")
        q = binary("stablehlo.divide", subtract(a, r), b, symbol="//")
        q = where(_signed_fix(a.graph, r, b), subtract(q, 1), q)
        return _unary("stablehlo.round_nearest_afz", q)
    q = binary("stablehlo.divide", a, b, symbol="//")
    if target.kind.value == "unsigned":
        return q
    r = binary("stablehlo.remainder", a, b, symbol="//")
    return where(_signed_fix(a.graph, r, b), subtract(q, 1), q)


def mod(x: Any, y: Any) -> Value:
    """``%``: the remainder with the sign of the divisor, as in Python and NumPy."""
    a, b, target = _floor_operands(x, y, "%")
    r = binary("stablehlo.remainder", a, b, symbol="%")
    if target.kind.value == "unsigned":
        return r
    return where(_signed_fix(a.graph, r, b), add(r, b), r)


def remainder(x: Any, y: Any) -> Value:
    """StableHLO's ``remainder`` (C's ``fmod``: the sign of the dividend)."""
    return binary("stablehlo.remainder", x, y, symbol="remainder")


def atan2(x: Any, y: Any) -> Value:
    a, b, integer = _inexact_pair(x, y, "atan2")
    if integer:
        raise PromotionError(f"atan2 needs floating-point operands under policy "
                             f"'{graph_of(x, y).policy.name}'; cast them explicitly")
    return binary("stablehlo.atan2", a, b, symbol="atan2")


# -- comparisons --------------------------------------------------------------------------------

def _compare(direction: str, symbol: str):
    def op(x: Any, y: Any) -> Value:
        g = graph_of(x, y)
        with g.context:
            attrs = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get(direction)}
        return binary("stablehlo.compare", x, y, symbol=symbol, attributes=attrs)
    op.__name__ = {"EQ": "equal", "NE": "not_equal", "LT": "less", "LE": "less_equal", "GT": "greater",
                   "GE": "greater_equal"}[direction]
    op.__doc__ = f"``{symbol}`` elementwise, after promotion; the result is bool."
    return op


equal = _compare("EQ", "==")
not_equal = _compare("NE", "!=")
less = _compare("LT", "<")
less_equal = _compare("LE", "<=")
greater = _compare("GT", ">")
greater_equal = _compare("GE", ">=")


# -- bitwise ------------------------------------------------------------------------------------

def bitwise_and(x: Any, y: Any) -> Value:
    return binary("stablehlo.and", x, y, symbol="&")


def bitwise_or(x: Any, y: Any) -> Value:
    return binary("stablehlo.or", x, y, symbol="|")


def bitwise_xor(x: Any, y: Any) -> Value:
    return binary("stablehlo.xor", x, y, symbol="^")


def left_shift(x: Any, y: Any) -> Value:
    return binary("stablehlo.shift_left", x, y, symbol="<<")


def right_shift(x: Any, y: Any) -> Value:
    """``>>``: arithmetic for signed integers, logical for unsigned ones."""
    return binary(lambda d: "stablehlo.shift_right_logical" if d.kind.value == "unsigned"
                  else "stablehlo.shift_right_arithmetic", x, y, symbol=">>")


# -- unary --------------------------------------------------------------------------------------

def _unary_value(x: Any, what: str) -> Value:
    g = graph_of(x)
    v = operand(x, g)
    if isinstance(v, Literal):
        v = emit_literal(g, v, g.policy.materialize(v.ptype), ())
    return v


def _unary(opname: str, v: Value, result_dtype: DType | None = None) -> Value:
    g = v.graph
    dtype = result_dtype or v.storage
    r = create(g, opname, g.tc.tensor(dtype, v.shape), [v.ir], weak=v.is_weak)
    ptype: PType = (g.policy.canonical(Weak(dtype)) if v.is_weak else dtype)
    return Value(g, r, ptype, v.shape, storage=dtype)


def _float_unary(opname: str, what: str):
    def op(x: Any) -> Value:
        v = _unary_value(x, what)
        if not v.storage.is_inexact:
            g = v.graph
            try:
                t = g.policy.true_divide_type(v.ptype)
            except PromotionError:
                t = None
            if t is None:
                raise PromotionError(f"{what} needs a floating-point operand under policy "
                                     f"'{g.policy.name}', not {v.storage.name}; cast it explicitly, "
                                     f"e.g. x.cast(DType.float32)", lhs=v.ptype, policy=g.policy.name,
                                     cast_to=DType.float32)
            target = g.policy.materialize(t)
            v = convert(v, target, keep_weak=True)
        return _unary(opname, v)
    op.__name__ = what
    op.__doc__ = f"``{what}`` elementwise; integers become the policy's float first (as jnp.{what})."
    return op


exp = _float_unary("stablehlo.exponential", "exp")
log = _float_unary("stablehlo.log", "log")
sqrt = _float_unary("stablehlo.sqrt", "sqrt")
rsqrt = _float_unary("stablehlo.rsqrt", "rsqrt")
tanh = _float_unary("stablehlo.tanh", "tanh")
sin = _float_unary("stablehlo.sine", "sin")
cos = _float_unary("stablehlo.cosine", "cos")


def _rounding(opname: str, what: str):
    def op(x: Any) -> Value:
        v = _unary_value(x, what)
        if v.storage.is_complex:
            raise PromotionError(f"{what} is not defined for complex values")
        if not v.storage.is_inexact:
            return v  # integers are already whole (jnp.floor returns them unchanged)
        return _unary(opname, v)
    op.__name__ = what
    op.__doc__ = f"``{what}`` elementwise; the identity on integers and bool."
    return op


floor = _rounding("stablehlo.floor", "floor")
ceil = _rounding("stablehlo.ceil", "ceil")
round = _rounding("stablehlo.round_nearest_even", "round")  # NumPy rounds half to even


def negative(x: Any) -> Value:
    v = _unary_value(x, "-")
    if v.storage.is_bool:
        raise PromotionError("unary - is not defined for bool; use ~ (logical not) or cast first")
    return _unary("stablehlo.negate", v)


def abs(x: Any) -> Value:
    """``abs``; a complex value's magnitude is real (complex64 -> float32)."""
    v = _unary_value(x, "abs")
    if v.storage.is_bool:
        raise PromotionError("abs is not defined for bool")
    if v.storage.kind.value == "unsigned":
        return v
    if v.storage.is_complex:
        return _unary("stablehlo.abs", v, DType.float32 if v.storage is DType.complex64 else DType.float64)
    return _unary("stablehlo.abs", v)


def sign(x: Any) -> Value:
    v = _unary_value(x, "sign")
    if v.storage.is_bool:
        raise PromotionError("sign is not defined for bool")
    if v.storage.kind.value == "unsigned":
        return cast(not_equal(v, 0), v.storage)
    return _unary("stablehlo.sign", v)


def invert(x: Any) -> Value:
    """``~``: bitwise not (logical not for bool)."""
    v = _unary_value(x, "~")
    if v.storage.is_inexact:
        raise PromotionError(f"~ needs integer or bool operands, not {v.storage.name}")
    return _unary("stablehlo.not", v)


bitwise_not = invert


def cast(x: Any, dtype: "DType | str") -> Value:
    """An explicit conversion; the result is strongly typed."""
    g = graph_of(x)
    d = g.policy.canonical(DType.parse(dtype))
    assert isinstance(d, DType)
    v = operand(x, g)
    if isinstance(v, Literal):
        return constant_value(g, v.value, d)
    if v.storage is d and not v.is_weak:
        return v
    return convert(v, d)


def constant(value: Any, dtype: "DType | str | None" = None) -> Value:
    """A constant of the current graph (``Graph.constant``)."""
    from .graph import current_graph
    return current_graph().constant(value, dtype)


# -- selection ----------------------------------------------------------------------------------

def where(condition: Any, x: Any, y: Any) -> Value:
    """``x`` where ``condition`` else ``y`` (``stablehlo.select``), broadcasting all three."""
    g = graph_of(condition, x, y)
    c = operand(condition, g)
    if isinstance(c, Literal):
        if not isinstance(c.value, bool):
            raise PromotionError(f"where needs a bool condition, not {c.value!r}")
        c = constant_value(g, c.value, DType.bool)
    if not c.storage.is_bool:
        raise PromotionError(f"where needs a bool condition, not {c.storage.name}; compare it first "
                             "(e.g. x != 0)")
    a, b = operand(x, g), operand(y, g)
    join = promote(g, a.ptype, b.ptype, "where")
    target = g.policy.materialize(join)
    shape = broadcast_shapes(c.shape, a.shape, b.shape)
    cv = broadcast_to(c, shape)
    av, bv = realize(g, a, target, shape), realize(g, b, target, shape)
    r = create(g, "stablehlo.select", g.tc.tensor(target, shape), [cv.ir, av.ir, bv.ir],
               weak=isinstance(join, Weak))
    return Value(g, r, join, shape)


select = where


def clamp(x: Any, lo: Any, hi: Any) -> Value:
    """``x`` limited to ``[lo, hi]`` (``stablehlo.clamp``), promoting all three."""
    g = graph_of(x, lo, hi)
    ops_ = [operand(v, g) for v in (lo, x, hi)]
    join = promote(g, ops_[0].ptype, ops_[1].ptype, "clamp")
    join = promote(g, join, ops_[2].ptype, "clamp")
    target = g.policy.materialize(join)
    shape = broadcast_shapes(*(o.shape for o in ops_))
    vals = [realize(g, o, target, shape) for o in ops_]
    r = create(g, "stablehlo.clamp", g.tc.tensor(target, shape), [v.ir for v in vals],
               weak=isinstance(join, Weak))
    return Value(g, r, join, shape)


# -- shapes -------------------------------------------------------------------------------------

def _value(x: Any, what: str) -> Value:
    return _unary_value(x, what)


def reshape(x: Any, shape: Sequence[int]) -> Value:
    """A new shape with the same number of elements (one dimension may be -1)."""
    v = _value(x, "reshape")
    dims = [int(d) for d in shape]
    size = int(np.prod(v.shape, dtype=np.int64))
    if dims.count(-1) > 1:
        raise GraphError(f"reshape to {dims}: at most one dimension can be -1")
    if -1 in dims:
        known = int(np.prod([d for d in dims if d != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise GraphError(f"cannot reshape {list(v.shape)} ({size} elements) to {dims}")
        dims[dims.index(-1)] = size // known
    if int(np.prod(dims, dtype=np.int64)) != size or any(d < 0 for d in dims):
        raise GraphError(f"cannot reshape {list(v.shape)} ({size} elements) to {dims}")
    if tuple(dims) == v.shape:
        return v
    g = v.graph
    r = create(g, "stablehlo.reshape", g.tc.tensor(v.storage, dims), [v.ir], weak=v.is_weak)
    return Value(g, r, v.ptype, dims, storage=v.storage)


def broadcast_to(x: Any, shape: Sequence[int]) -> Value:  # noqa: F811 (the public op)
    from .emit import broadcast_to as _broadcast
    return _broadcast(_value(x, "broadcast_to"), tuple(int(d) for d in shape))


def transpose(x: Any, axes: Sequence[int] | None = None) -> Value:
    v = _value(x, "transpose")
    perm = list(range(v.rank))[::-1] if axes is None else [int(a) % builtins.max(v.rank, 1) for a in axes]
    if sorted(perm) != list(range(v.rank)):
        raise GraphError(f"transpose axes {list(axes or [])} are not a permutation of {v.rank} axes")
    if perm == list(range(v.rank)):
        return v
    g = v.graph
    shape = [v.shape[p] for p in perm]
    with g.context:
        attrs = {"permutation": ir.DenseI64ArrayAttr.get(perm)}
    r = create(g, "stablehlo.transpose", g.tc.tensor(v.storage, shape), [v.ir], attrs, weak=v.is_weak)
    return Value(g, r, v.ptype, shape, storage=v.storage)


# -- reductions ---------------------------------------------------------------------------------

def _axes(v: Value, axis: Any) -> list[int]:
    if axis is None:
        return list(range(v.rank))
    axes = [axis] if isinstance(axis, int) else list(axis)
    out = []
    for a in axes:
        if not -v.rank <= a < v.rank:
            raise GraphError(f"axis {a} is out of range for a value of rank {v.rank}")
        out.append(a % v.rank)
    if len(set(out)) != len(out):
        raise GraphError(f"repeated axis in {axes}")
    return sorted(out)


def _reduce(v: Value, axes: list[int], body: str, init: Any, keepdims: bool) -> Value:
    g = v.graph
    dtype = v.storage
    out_shape = [d for i, d in enumerate(v.shape) if i not in axes]
    scalar = g.tc.tensor(dtype, ())
    init_v = constant_value(g, np.asarray(init, dtype=dtype.np_dtype), dtype)
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get(axes)}
    op = ir.Operation.create("stablehlo.reduce", results=[g.tc.tensor(dtype, out_shape)],
                             operands=[v.ir, init_v.ir], attributes=attrs, regions=1, loc=g.location(),
                             ip=g.ip)
    block = ir.Block.create_at_start(op.regions[0], [scalar, scalar], [g.loc, g.loc])
    inner = ir.Operation.create(body, results=[scalar], operands=list(block.arguments), loc=g.loc,
                                ip=ir.InsertionPoint(block))
    ir.Operation.create("stablehlo.return", operands=[inner.result], loc=g.loc, ip=ir.InsertionPoint(block))
    out = Value(g, op.result, dtype, out_shape)
    if keepdims:
        out = reshape(out, [1 if i in axes else d for i, d in enumerate(v.shape)])
    return out


def sum(x: Any, axis: Any = None, *, keepdims: bool = False) -> Value:
    """The sum over ``axis`` (default all); bool and small integers accumulate in the policy's
    default integer (as ``jnp.sum`` and ``np.sum`` do)."""
    v = _value(x, "sum")
    dtype = v.graph.policy.sum_type(v.storage)
    if dtype is not v.storage:
        v = convert(v, dtype)
    return _reduce(v, _axes(v, axis), "stablehlo.add", 0, keepdims)


def _extreme(v: Value, largest: bool) -> Any:
    d = v.storage
    if d.is_bool:
        return not largest
    if d.is_inexact:
        return -np.inf if largest else np.inf
    return d.min_value if largest else d.max_value


def max(x: Any, axis: Any = None, *, keepdims: bool = False) -> Value:
    v = _value(x, "max")
    if v.storage.is_complex:
        raise PromotionError("max is not defined for complex values")
    return _reduce(v, _axes(v, axis), "stablehlo.maximum", _extreme(v, True), keepdims)


def min(x: Any, axis: Any = None, *, keepdims: bool = False) -> Value:
    v = _value(x, "min")
    if v.storage.is_complex:
        raise PromotionError("min is not defined for complex values")
    return _reduce(v, _axes(v, axis), "stablehlo.minimum", _extreme(v, False), keepdims)


def mean(x: Any, axis: Any = None, *, keepdims: bool = False) -> Value:
    """The mean over ``axis``: integers average in the policy's float (as ``jnp.mean``)."""
    v = _value(x, "mean")
    axes = _axes(v, axis)
    count = int(np.prod([v.shape[a] for a in axes], dtype=np.int64)) if axes else 1
    if not v.storage.is_inexact:
        t = v.graph.policy.true_divide_type(v.graph.policy.sum_type(v.storage))
        if t is None:
            raise PromotionError(f"mean needs floats under policy '{v.graph.policy.name}'; cast first")
        v = convert(v, v.graph.policy.materialize(t))
    total = _reduce(v, axes, "stablehlo.add", 0, keepdims)
    return divide(total, constant_value(v.graph, np.asarray(count, v.storage.np_dtype), v.storage))


# -- matmul -------------------------------------------------------------------------------------

def matmul(x: Any, y: Any) -> Value:
    """``@``: 1-D and 2-D as NumPy, and batched for equal leading dimensions, by ``dot_general``."""
    g = graph_of(x, y)
    a, b = operand(x, g), operand(y, g)
    if isinstance(a, Literal) or isinstance(b, Literal):
        raise GraphError("matmul needs two tensors, not a Python scalar")
    join = promote(g, a.ptype, b.ptype, "@")
    target = g.policy.materialize(join)
    if target.is_bool:
        raise PromotionError("@ needs numbers, not bool", lhs=a.ptype, rhs=b.ptype, policy=g.policy.name)
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
    out = list(a.shape[:batch]) + [d for i, d in enumerate(a.shape) if i >= batch and i != lc] + \
        [d for i, d in enumerate(b.shape) if i >= batch and i != rc]
    with g.context:
        dims = stablehlo.DotDimensionNumbers.get(
            lhs_batching_dimensions=list(range(batch)), rhs_batching_dimensions=list(range(batch)),
            lhs_contracting_dimensions=[lc], rhs_contracting_dimensions=[rc])
    r = create(g, "stablehlo.dot_general", g.tc.tensor(target, out), [a.ir, b.ir],
               {"dot_dimension_numbers": dims}, weak=isinstance(join, Weak))
    return Value(g, r, join, out)
