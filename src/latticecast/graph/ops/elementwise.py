"""Elementwise ops: arithmetic, comparisons, bitwise and logical ops, shifts, unary math, rounding, casts.

Each op has its NumPy name and, where MAX names it differently, MAX's too (``sub``,
``mul``, ``div``, ``floor_div``, ``pow``, ``negate``): the two names are one function.

Semantics follow the policy's source system where systems differ: ``/`` is true
division (integers divide in the system's float: float32 for int16 under JAX),
``//`` and ``%`` are floor division and floor modulo as in Python and NumPy (for
negative integers too), functions such as ``exp`` take integers to the system's
float, and ``maximum``/``minimum`` order complex numbers lexicographically, as
NumPy and JAX do. Every promotion is :func:`latticecast.promotion.op_rules.decide`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.dtypes import DType, DTypeLike
from ...errors import DomainError, OperandDTypeError, PromotionError
from ...promotion.op_rules import FLOAT_FUNCTION, FLOOR_DIVIDE, INEXACT_BINARY, STABLEHLO, TRUE_DIVIDE, OpRule, decide
from ...promotion.weak import PType, Weak
from ..value import TensorValueLike, Value
from .external import check_same_device
from .selection import where
from .operands import (Literal, Promoted, WeakArray, broadcast_shapes, constant_value, convert, decide_operands,
                        graph_of, operand, promote, realize, fast_operands, unary_operand, with_op,
                        checked_unary_operand)

if TYPE_CHECKING:
    from ..graph import Graph

__all__ = [
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod", "remainder", "power",
    "maximum", "minimum", "atan2", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "invert", "bitwise_not",
    "negative", "abs", "sign", "exp", "log", "sqrt", "rsqrt", "tanh", "sin", "cos", "floor", "ceil", "round",
    "cast", "sub", "mul", "div", "floor_div", "pow", "negate", "log1p", "erf", "trunc", "is_nan", "is_inf",
    "logical_and", "logical_or", "logical_xor", "logical_not", "float_operand", "sigmoid",
    "acos", "asin", "atan", "acosh", "asinh", "atanh", "cosh", "sinh", "tan", "expm1",
]


def _emit(p: Promoted, name: str, attributes: Mapping[str, ir.Attribute] | None = None) -> Value:
    """The op ``name`` on promoted operands; its result type and weakness are the decision's."""
    g = p.values[0].graph
    if len(g.devices) > 1 and len(p.values) == 2:  # MAX's check of a binary op, after promotion
        check_same_device(g, lhs=p.values[0], rhs=p.values[1])
    d = p.decision
    op = g._add_op(name, [g.tc.tensor(d.result, p.shape)], [v.ir for v in p.values], attributes,
                   weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, p.shape, d.result)


def _binary(name: str, x: TensorValueLike, y: TensorValueLike, symbol: str,
            attributes: dict[str, ir.Attribute] | None = None) -> Value:
    rule = STABLEHLO[name]
    fast = fast_operands(rule, symbol, x, y)
    if fast is None:
        return _emit(promote(rule, symbol, x, y), name, attributes)
    d, a, b = fast
    g = a.graph
    if len(g.devices) > 1:
        check_same_device(g, lhs=a, rhs=b)
    shape = a._shape  # the result's too: a value's shape is never changed in place (.shape is a fresh copy)
    at, types = g._fast_types
    t = types.get(d.result) if at is shape else None
    if t is None:
        t = g.tc.tensor(d.result, shape)
        if at is shape:
            types[d.result] = t
        else:
            g._fast_types = (shape, {d.result: t})
    op = g._add_op(name, [t], [a.ir, b.ir], attributes, weak=d.result_weak)
    return Value(g, op.result, d.result_ptype, shape, d.result)


# -- arithmetic ---------------------------------------------------------------------------------

def add(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x + y``, after promotion (``x + y`` on values calls it).

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("add", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.add(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> with Graph("add1", input_types=[TensorType(DType.int8, [3])]) as g:
        ...     w = ops.add(g.inputs[0], 1)      # a Python int is weak: the result stays int8
        >>> w.dtype
        DType.int8
    """
    return _binary("stablehlo.add", lhs, rhs, "+")


def subtract(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x - y``, after promotion (MAX's name: ``sub``).

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("subtract", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.subtract(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
    """
    return _binary("stablehlo.subtract", lhs, rhs, "-")


def multiply(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x * y``, after promotion (MAX's name: ``mul``).

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("multiply", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.multiply(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
    """
    return _binary("stablehlo.multiply", lhs, rhs, "*")


def power(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x ** y``, after promotion (MAX's name: ``pow``).

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("power", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.power(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("power", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.power(g.inputs[0], 2))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([49,  1,  4, 25], dtype=int32)]
    """
    return _binary("stablehlo.power", lhs, rhs, "**")


def remainder(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """StableHLO's ``remainder``: C's ``fmod``, whose result has the sign of the dividend.

    Python's ``%`` (the sign of the divisor) is :func:`mod`.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("remainder", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.remainder(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("remainder", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.remainder(g.inputs[0], 3))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-1, -1,  2,  2], dtype=int32)]
    """
    return _binary("stablehlo.remainder", lhs, rhs, "remainder")


def _extremum(name: str, x: TensorValueLike, y: TensorValueLike, symbol: str) -> Value:
    p = promote(STABLEHLO[name], symbol, x, y)
    if not p.decision.target.is_complex:
        return _emit(p, name)
    check_same_device(p.values[0].graph, lhs=p.values[0], rhs=p.values[1])
    # NumPy and JAX order complex numbers lexicographically (real part, then imaginary part);
    # StableHLO's maximum/minimum compare real parts only. The parts are read off the operands
    # at the promoted type, so they are converted here rather than by the pass.
    target = p.decision.target
    a, b = (convert(v, target, make_weak=p.decision.result_weak) for v in p.values)  # weak as the result is
    direction = "GT" if name == "stablehlo.maximum" else "LT"
    real_a, real_b, imag_a, imag_b = (_part(v, part) for part in ("real", "imag") for v in (a, b))
    first = _compare_values(real_a, real_b, direction)
    tie = bitwise_and(_compare_values(real_a, real_b, "EQ"), _compare_values(imag_a, imag_b, direction))
    return where(bitwise_or(first, tie), a, b)


def _part(v: Value, part: str) -> Value:
    g = v.graph
    dtype = DType.float32 if v.storage is DType.complex64 else DType.float64
    op = g._add_op(f"stablehlo.{part}", [g.tc.tensor(dtype, v.shape)], [v.ir])
    return Value(g, op.result, dtype, v.shape)


def _compare_values(a: Value, b: Value, direction: str) -> Value:
    g = a.graph
    with g.context:
        attrs = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get(direction)}
    op = g._add_op("stablehlo.compare", [g.tc.tensor(DType.bool, a.shape)], [a.ir, b.ir], attrs)
    return Value(g, op.result, DType.bool, a.shape)


def maximum(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """The elementwise maximum of ``x`` and ``y``, after promotion (MAX's ``ops.max(x, y)``).

    Complex numbers are ordered lexicographically (real part, then imaginary part), as in
    NumPy and JAX.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("maximum", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.maximum(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("maximum", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.maximum(g.inputs[0], 0))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([0, 0, 2, 5], dtype=int32)]
    """
    return _extremum("stablehlo.maximum", lhs, rhs, "maximum")


def minimum(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """The elementwise minimum of ``x`` and ``y``, after promotion (MAX's ``ops.min(x, y)``).

    Complex numbers are ordered lexicographically, as in :func:`maximum`.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("minimum", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.minimum(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("minimum", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.minimum(g.inputs[0], 0))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-7, -1,  0,  0], dtype=int32)]
    """
    return _extremum("stablehlo.minimum", lhs, rhs, "minimum")


# -- division -----------------------------------------------------------------------------------

def _inexact(rule: OpRule, name: str, x: TensorValueLike, y: TensorValueLike, symbol: str) -> Value:
    """An op that computes in the system's inexact type (``/``, ``atan2``): the decision gives the
    type, and operands of a lower kind are taken to it first, explicitly (it is the system's
    semantics, not an implicit promotion): a Python int becomes a Python float (still weak, so the
    pass rebuilds its constant at the type), a value is converted (a weak one stays weak). Where the
    system gives each operand its dtype before dividing (MAX 26.7: ``int8 / 2`` is an int8 division
    converted to float64), a literal or weak array is checked against that dtype first (``int8 / 128``
    and ``int8 / np.array([1, 300])`` are refused)."""
    g = graph_of(x, y)
    ops = [operand(v, g, promotes=True) for v in (x, y)]
    d = decide_operands(g, rule, symbol, ops)
    if d.operand_dtypes is not None:  # the system gave each operand its dtype first (MAX): a literal is checked there
        for o, dtype in zip(ops, d.operand_dtypes):
            if isinstance(o, Literal):
                g.policy.literals.check(o.value, dtype)
            elif isinstance(o, WeakArray):
                o.check(g.policy, dtype)
    if d.target.is_inexact:
        ops = [_as_inexact(g, o, d.target, d.result_weak) for o in ops]
    shape = broadcast_shapes(*(o.shape for o in ops))
    values = tuple(realize(g, o, d.target, shape) for o in ops)
    return _emit(Promoted(values, d, shape), name)


def _as_inexact(g: "Graph", x: "Value | Literal | WeakArray", target: DType,
                weak: bool) -> "Value | Literal | WeakArray":
    """``x`` taken to the inexact ``target``; weak when ``x`` is, or when the operands' promotion is
    (a strong bool meeting a Python int: ``True / 2`` is a weak float in JAX). A weak array of integers
    becomes one of floats on the host, as a Python int becomes a Python float."""
    if isinstance(x, Literal):
        if not isinstance(x.ptype, Weak) or x.ptype.dtype.is_inexact:
            return x
        assert not isinstance(x.value, complex)  # a weak int or bool literal
        value = complex(x.value) if target.is_complex else float(x.value)
        return Literal(value, g.policy.literals.type_of(value))
    if isinstance(x, WeakArray):
        if x.dtype.is_inexact:
            return x
        values = x.values.astype(np.complex128 if target.is_complex else np.float64)
        return WeakArray(values, g.policy, elementwise=x.elementwise)
    if x.storage.is_inexact:
        return x
    if x.is_weak or weak:  # weak: the system's weak float of the kind (JAX: f*), stored as its default
        return convert(x, g.policy.materialize(Weak(target)), make_weak=True)
    return convert(x, target)


def divide(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """True division ``x / y`` (MAX's name: ``div``; also ``true_divide``).

    Integers divide in the policy's float, except under ``jax-lax``, whose ``lax.div`` divides
    integers as integers (truncating); MAX 26.7 (``max-python``) converts two integers to
    float64 first (:meth:`OpTypeRules.divide_operands <latticecast.policies.components.OpTypeRules.divide_operands>`).

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the policy's inexact type for the operands (integers divide in the policy's
        float: float32 for int16 under ``jax``), with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("divide", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     q = ops.divide(g.inputs[0], 2)
        ...     g.output(q)
        >>> q.dtype
        DType.float32
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-3.5, -0.5,  1. ,  2.5], dtype=float32)]
    """
    return _inexact(TRUE_DIVIDE, "stablehlo.divide", lhs, rhs, "/")


true_divide = divide


def atan2(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """The elementwise arc tangent of ``x / y``, in radians, in the quadrant of ``(y, x)``.

    Integer operands are taken to the policy's float first, as for :func:`divide`.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the policy's inexact type for the operands (integers divide in the policy's
        float: float32 for int16 under ``jax``), with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("atan2", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     z = ops.atan2(*g.inputs)
        >>> z.dtype
        DType.float32
    """
    return _inexact(INEXACT_BINARY, "stablehlo.atan2", lhs, rhs, "atan2")


def _floor_operands(x: TensorValueLike, y: TensorValueLike, symbol: str) -> Promoted:
    return promote(FLOOR_DIVIDE, symbol, x, y)


def _signs_differ(r: Value, b: Value) -> Value:
    """Where a truncated remainder ``r`` is non-zero and its sign differs from ``b``'s (zeros are
    strong constants of the operands' dtype, so no policy is asked to promote two literals)."""
    zero = constant_value(r.graph, 0, r.storage)
    return bitwise_and(not_equal(r, zero), not_equal(less(r, zero), less(b, zero)))


def _has_negatives(dtype: DType) -> bool:
    """Whether ``dtype`` has negative values: only then do floor and truncation differ (not for the
    unsigned integers, nor for ``float8_e8m0fnu``, whose values are positive powers of two)."""
    return dtype.min_value < 0


def floor_divide(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Floor division ``x // y``: rounds toward negative infinity, for integers too (MAX's name: ``floor_div``).

    StableHLO's ``divide`` truncates; this op corrects the quotient where the signs differ,
    as Python, NumPy and MAX do.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("floor_divide", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.floor_divide(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("floor_divide", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.floor_divide(g.inputs[0], 3))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-3, -1,  0,  1], dtype=int32)]
    """
    p = _floor_operands(lhs, rhs, "//")
    a, b = p.values
    target = p.decision.target
    if target.is_inexact:
        # NumPy's and JAX's float divmod: floor(a / b) would round a quotient such as
        # 24.9999999 up to 25 before flooring; (a - fmod(a, b)) / b is exact in those cases.
        r = _emit(p, "stablehlo.remainder")
        q = _binary("stablehlo.divide", subtract(a, r), b, "//")
        if _has_negatives(target):
            q = where(_signs_differ(r, b), subtract(q, _one(q)), q)
        return _unary("stablehlo.round_nearest_afz", q)
    q = _emit(p, "stablehlo.divide")
    if not _has_negatives(target):
        return q
    r = _emit(p, "stablehlo.remainder")
    return where(_signs_differ(r, b), subtract(q, _one(q)), q)


def _one(v: Value) -> Value:
    """1 as a strong constant of ``v``'s dtype: the builder's own arithmetic, which no policy's literal
    rules are asked about (MAX lets no Python scalar meet a float4, yet ``float4 // float4`` builds)."""
    return constant_value(v.graph, 1, v.storage)


def mod(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Python's ``x % y``: the remainder with the sign of the divisor, as in Python and NumPy.

    C's ``fmod`` (the sign of the dividend) is :func:`remainder`.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("mod", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.mod(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("mod", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.mod(g.inputs[0], 3))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([2, 2, 2, 2], dtype=int32)]
    """
    p = _floor_operands(lhs, rhs, "%")
    r = _emit(p, "stablehlo.remainder")
    if not _has_negatives(p.decision.target):
        return r
    return where(_signs_differ(r, p.values[1]), add(r, p.values[1]), r)


# -- comparisons --------------------------------------------------------------------------------

def _comparison(direction: str, symbol: str, name: str) -> Callable[[TensorValueLike, TensorValueLike], Value]:
    ordering = direction not in ("EQ", "NE")
    def op(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
        g = graph_of(lhs, rhs)
        with g.context:
            attrs = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get(direction)}
        p = promote(STABLEHLO["stablehlo.compare"], symbol, lhs, rhs, graph=g)
        if ordering and p.decision.target.is_complex:
            raise DomainError(f"{symbol}: complex numbers have no order (as in JAX); compare their real parts "
                                 f"or magnitudes (abs(x) {symbol} ...)", policy=g.policy.name)
        return _emit(p, "stablehlo.compare", attrs)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = _COMPARISON_DOC.format(symbol=symbol, name=name, direction=direction,
                                        ordered=" Complex operands have no order and are refused." if ordering else "",
                                        raises=_COMPLEX_ORDER_RAISES if ordering else "",
                                        out=_COMPARISON_EXAMPLES[direction])
    return op


_COMPARISON_DOC = """Elementwise ``x {symbol} y``, after promotion; the result is bool.

    The operands are promoted first, as for :func:`add` (``int8 {symbol} uint8`` compares in
    int16 under ``jax``), then compared with StableHLO's ``compare`` (direction ``{direction}``).{ordered}

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A bool value of the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types.{raises}
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("{name}", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     g.output(ops.{name}(*g.inputs))
        >>> g.compile()(np.array([-1, 2, 3], np.int8), np.array([2, 2, 2], np.uint8))
        [array({out})]
    """
_COMPLEX_ORDER_RAISES = """
            Also for complex operands, which have no order (as in JAX)."""
_COMPARISON_EXAMPLES = {"EQ": "[False,  True, False]", "NE": "[ True, False,  True]",
                        "LT": "[ True, False, False]", "LE": "[ True,  True, False]",
                        "GT": "[False, False,  True]", "GE": "[False,  True,  True]"}


equal = _comparison("EQ", "==", "equal")
not_equal = _comparison("NE", "!=", "not_equal")
less = _comparison("LT", "<", "less")
less_equal = _comparison("LE", "<=", "less_equal")
greater = _comparison("GT", ">", "greater")
greater_equal = _comparison("GE", ">=", "greater_equal")


# -- bitwise ------------------------------------------------------------------------------------

def bitwise_and(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x & y``: bitwise and on integers, logical and on bool.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("bitwise_and", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.bitwise_and(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("bitwise_and", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.bitwise_and(g.inputs[0], 6))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([0, 6, 2, 4], dtype=int32)]
    """
    return _binary("stablehlo.and", lhs, rhs, "&")


def bitwise_or(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x | y``: bitwise or on integers, logical or on bool.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("bitwise_or", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.bitwise_or(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("bitwise_or", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.bitwise_or(g.inputs[0], 1))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-7, -1,  3,  5], dtype=int32)]
    """
    return _binary("stablehlo.or", lhs, rhs, "|")


def bitwise_xor(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x ^ y``: bitwise exclusive or on integers, logical on bool.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("bitwise_xor", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.bitwise_xor(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("bitwise_xor", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.bitwise_xor(g.inputs[0], 1))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-8, -2,  3,  4], dtype=int32)]
    """
    return _binary("stablehlo.xor", lhs, rhs, "^")


def left_shift(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x << y``, after promotion.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("left_shift", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.left_shift(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("left_shift", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.left_shift(g.inputs[0], 1))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-14,  -2,   4,  10], dtype=int32)]
    """
    return _binary("stablehlo.shift_left", lhs, rhs, "<<")


def right_shift(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise ``x >> y``: arithmetic for signed integers, logical for unsigned ones.

    Args:
        lhs: The left operand: a graph :class:`~latticecast.Value`, or a Python scalar (weakly
            typed: it takes the other operand's dtype where it fits), a NumPy scalar or array.
        rhs: The right operand, as ``lhs``.

    Returns:
        A value of the promoted dtype, with the operands' broadcast shape.

    Raises:
        PromotionError: The graph's policy defines no promotion of the operands' types (the
            message names the explicit cast to write).
        LiteralRangeError: A Python scalar operand does not fit the promoted dtype.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("right_shift", input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint8, [3])]) as g:
        ...     x, y = g.inputs
        ...     z = ops.right_shift(x, y)
        >>> z.dtype                      # jax: int8 and uint8 meet at int16
        DType.int16
        >>> import numpy as np
        >>> with Graph("right_shift", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.right_shift(g.inputs[0], 1))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-4, -1,  1,  2], dtype=int32)]
    """
    p = promote(STABLEHLO["stablehlo.shift_right_arithmetic"], ">>", lhs, rhs)
    name = "stablehlo.shift_right_logical" if p.decision.target.is_unsigned else "stablehlo.shift_right_arithmetic"
    return _emit(p, name)


# -- unary --------------------------------------------------------------------------------------

def _unary(name: str, v: Value, result_dtype: DType | None = None) -> Value:
    g = v.graph
    dtype = result_dtype or v.storage
    op = g._add_op(name, [g.tc.tensor(dtype, v.shape)], [v.ir], weak=v.is_weak)
    ptype: PType = g.policy.canonical(Weak(dtype)) if v.is_weak else dtype
    return Value(g, op.result, ptype, v.shape, storage=dtype)


def float_operand(x: TensorValueLike, what: str) -> Value:
    """The operand of a function computed in floating point (``exp``, ``softmax``): integers are
    taken to the type the policy decides (``jnp.exp(int16)`` is float32), weak where the policy's decision is
    (under ``jax`` a weak value stays weak; ``tensorflow`` decides a strong float64 for a Python int)."""
    v = unary_operand(x, what)
    try:
        d = decide(v.graph.policy, FLOAT_FUNCTION, [v.ptype])
    except (PromotionError, DomainError) as e:
        raise with_op(what, e) from None
    return convert(v, d.target, keep_weak=d.result_weak)


def _float_function(name: str, what: str) -> Callable[[TensorValueLike], Value]:
    def op(x: TensorValueLike) -> Value:
        return _unary(name, float_operand(x, what))
    op.__name__ = op.__qualname__ = what
    op.__doc__ = _FLOAT_FUNCTION_DOC.format(what=what, op=name, out=_FLOAT_FUNCTION_EXAMPLES[what])
    return op


_FLOAT_FUNCTION_DOC = """Elementwise ``{what}``, computed in floating point (StableHLO's ``{op}``).

    Integers and bool become the policy's float first (``{what}`` of an int16 value is float32
    under ``jax``, as ``jnp.{what}``); a weak value stays weak.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s shape, of ``x``'s dtype if it is inexact, else of the float the policy
        decides.

    Raises:
        DomainError: The policy has no float for ``x``'s dtype (``jax-lax`` computes integers as
            integers, and ``{what}`` is not defined for them).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("{what}", input_types=[TensorType(DType.int16, [2])]) as g:
        ...     y = ops.{what}(g.inputs[0])
        ...     g.output(y)
        >>> y.dtype
        DType.float32
        >>> (out,) = g.compile()(np.array([0, 1], np.int16))
        >>> np.round(out, 4)
        array({out}, dtype=float32)
    """
_FLOAT_FUNCTION_EXAMPLES = {"exp": "[1.    , 2.7183]", "log": "[-inf,   0.]", "log1p": "[0.    , 0.6931]",
                            "sqrt": "[0., 1.]", "rsqrt": "[inf,  1.]", "tanh": "[0.    , 0.7616]",
                            "sin": "[0.    , 0.8415]", "cos": "[1.    , 0.5403]", "sigmoid": "[0.5   , 0.7311]",
                            "erf": "[0.    , 0.8427]", "acos": "[1.5708, 0.    ]", "asin": "[0.    , 1.5708]",
                            "atan": "[0.    , 0.7854]", "acosh": "[nan,  0.]", "asinh": "[0.    , 0.8814]",
                            "atanh": "[ 0., inf]", "cosh": "[1.    , 1.5431]", "sinh": "[0.    , 1.1752]",
                            "tan": "[0.    , 1.5574]", "expm1": "[0.    , 1.7183]"}


exp = _float_function("stablehlo.exponential", "exp")
log = _float_function("stablehlo.log", "log")
sqrt = _float_function("stablehlo.sqrt", "sqrt")
rsqrt = _float_function("stablehlo.rsqrt", "rsqrt")
tanh = _float_function("stablehlo.tanh", "tanh")
sin = _float_function("stablehlo.sine", "sin")
cos = _float_function("stablehlo.cosine", "cos")
log1p = _float_function("stablehlo.log_plus_one", "log1p")
sigmoid = _float_function("stablehlo.logistic", "sigmoid")
erf = _float_function("chlo.erf", "erf")
acos = _float_function("chlo.acos", "acos")
asin = _float_function("chlo.asin", "asin")
atan = _float_function("chlo.atan", "atan")
acosh = _float_function("chlo.acosh", "acosh")
asinh = _float_function("chlo.asinh", "asinh")
atanh = _float_function("chlo.atanh", "atanh")
cosh = _float_function("chlo.cosh", "cosh")
sinh = _float_function("chlo.sinh", "sinh")
tan = _float_function("chlo.tan", "tan")
expm1 = _float_function("stablehlo.exponential_minus_one", "expm1")


def _rounding(name: str, what: str) -> Callable[[TensorValueLike], Value]:
    def op(x: TensorValueLike) -> Value:
        v, direct = checked_unary_operand(x, what)
        if not direct:
            return v  # integers are already whole (jnp.floor returns them unchanged)
        return _unary(name, v)
    op.__name__ = op.__qualname__ = what
    op.__doc__ = _ROUNDING_DOC.format(what=what, op=name, out=_ROUNDING_EXAMPLES[what])
    return op


_ROUNDING_DOC = """Elementwise ``{what}`` (StableHLO's ``{op}``); the identity on integers and bool.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype and shape (``x`` itself when it is an integer or bool).

    Raises:
        DomainError: ``x`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("{what}", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.{what}(g.inputs[0]))
        >>> g.compile()(np.array([-1.5, 0.5, 2.5, 2.7], np.float32))
        [array({out}, dtype=float32)]
    """
_ROUNDING_EXAMPLES = {"floor": "[-2.,  0.,  2.,  2.]", "ceil": "[-1.,  1.,  3.,  3.]",
                      "round": "[-2.,  0.,  2.,  3.]"}


floor = _rounding("stablehlo.floor", "floor")
ceil = _rounding("stablehlo.ceil", "ceil")
round = _rounding("stablehlo.round_nearest_even", "round")  # NumPy and MAX round half to even


def trunc(x: TensorValueLike) -> Value:
    """Elementwise rounding toward zero; the identity on integers and bool.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype and shape.

    Raises:
        DomainError: ``x`` is complex.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("trunc", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(ops.trunc(g.inputs[0]))
        >>> g.compile()(np.array([-1.5, 0.5, 2.7], np.float32))
        [array([-1.,  0.,  2.], dtype=float32)]
    """
    v, _ = checked_unary_operand(x, "trunc")
    if not v.storage.is_inexact:
        return v
    return where(less(v, constant_value(v.graph, 0, v.storage)), ceil(v), floor(v))


def is_nan(x: TensorValueLike) -> Value:
    """Where ``x`` is NaN (false everywhere for integers and bool).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A bool value of ``x``'s shape.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("is_nan", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(ops.is_nan(g.inputs[0]))
        >>> g.compile()(np.array([1.0, np.nan, np.inf], np.float32))
        [array([False,  True, False])]
    """
    v = unary_operand(x, "is_nan")
    return not_equal(v, v)


def is_inf(x: TensorValueLike) -> Value:
    """Where ``x`` is +inf or -inf (false everywhere for integers and bool).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A bool value of ``x``'s shape.

    Raises:
        DomainError: ``x`` is complex (test its real and imaginary parts).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("is_inf", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(ops.is_inf(g.inputs[0]))
        >>> g.compile()(np.array([1.0, np.nan, -np.inf], np.float32))
        [array([False, False,  True])]
    """
    v, _ = checked_unary_operand(x, "is_inf")
    if not v.storage.is_inexact:
        return not_equal(v, v)
    if not v.storage.has_inf:  # float8_e4m3fn, float4: nothing is infinite (x < x is false for NaN too)
        return less(v, v)
    return equal(abs(v), constant_value(v.graph, float("inf"), v.storage))


def negative(x: TensorValueLike) -> Value:
    """Elementwise ``-x`` (MAX's name: ``negate``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype and shape (weak when ``x`` is).

    Raises:
        DomainError: ``x`` is bool (use :func:`logical_not`, or cast first).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("negative", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.negative(g.inputs[0]))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([ 7,  1, -2, -5], dtype=int32)]
    """
    v, _ = checked_unary_operand(x, "unary -")
    return _unary("stablehlo.negate", v)


def abs(x: TensorValueLike) -> Value:
    """Elementwise absolute value; a complex value's magnitude is real (complex64 gives float32).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype (the matching float for a complex ``x``) and shape; an unsigned
        ``x`` is returned as it is.

    Raises:
        DomainError: ``x`` is bool.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("abs", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.abs(g.inputs[0]))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([7, 1, 2, 5], dtype=int32)]
    """
    v, direct = checked_unary_operand(x, "abs")
    if not direct:  # unsigned
        return v
    if v.storage.is_complex:
        return _unary("stablehlo.abs", v, DType.float32 if v.storage is DType.complex64 else DType.float64)
    return _unary("stablehlo.abs", v)


def sign(x: TensorValueLike) -> Value:
    """Elementwise sign: -1, 0 or 1 (NaN stays NaN).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype and shape.

    Raises:
        DomainError: ``x`` is bool.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("sign", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.sign(g.inputs[0]))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([-1, -1,  1,  1], dtype=int32)]
    """
    v, direct = checked_unary_operand(x, "sign")
    if not direct:  # unsigned
        return cast(not_equal(v, constant_value(v.graph, 0, v.storage)), v.storage)
    return _unary("stablehlo.sign", v)


def invert(x: TensorValueLike) -> Value:
    """Elementwise ``~x``: bitwise not on integers, logical not on bool (also ``bitwise_not``).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype and shape.

    Raises:
        DomainError: ``x`` is a float or complex value.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("invert", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.invert(g.inputs[0]))
        >>> g.compile()(np.array([-7, -1, 2, 5], np.int32))
        [array([ 6,  0, -3, -6], dtype=int32)]
    """
    v, _ = checked_unary_operand(x, "~")
    return _unary("stablehlo.not", v)


bitwise_not = invert


def _bools(what: str, *xs: TensorValueLike) -> None:
    """MAX's logical ops take bool operands only (``&``, ``|``, ``^`` and ``~`` also work bitwise on integers)."""
    for x in xs:
        dtype = x.storage if isinstance(x, Value) else None
        if dtype is not None and not dtype.is_bool or dtype is None and not isinstance(x, bool):
            shown = dtype.name if dtype is not None else repr(x)
            raise OperandDTypeError(f"{what}: Inputs must be bools: {what} needs bool operands, not {shown}; compare first (x != 0) or use the "
                                 "bitwise operators & | ^ ~")


def logical_and(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise logical and of two bool operands (MAX's ``ops.logical_and``).

    Args:
        lhs: A bool graph value, or a Python bool.
        rhs: A bool graph value, or a Python bool.

    Returns:
        A bool value of the operands' broadcast shape.

    Raises:
        DomainError: An operand is not bool (compare first, ``x != 0``, or use the bitwise
            ops ``&``, ``|``, ``^``, which also take integers).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("logical_and", input_types=[TensorType(DType.bool, [4])] * 2) as g:
        ...     g.output(ops.logical_and(*g.inputs))
        >>> g.compile()(np.array([0, 0, 1, 1], bool), np.array([0, 1, 0, 1], bool))
        [array([False, False, False,  True])]
    """
    _bools("logical_and", lhs, rhs)
    return bitwise_and(lhs, rhs)


def logical_or(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise logical or of two bool operands.

    Args:
        lhs: A bool graph value, or a Python bool.
        rhs: A bool graph value, or a Python bool.

    Returns:
        A bool value of the operands' broadcast shape.

    Raises:
        DomainError: An operand is not bool (compare first, ``x != 0``, or use the bitwise
            ops ``&``, ``|``, ``^``, which also take integers).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("logical_or", input_types=[TensorType(DType.bool, [4])] * 2) as g:
        ...     g.output(ops.logical_or(*g.inputs))
        >>> g.compile()(np.array([0, 0, 1, 1], bool), np.array([0, 1, 0, 1], bool))
        [array([False,  True,  True,  True])]
    """
    _bools("logical_or", lhs, rhs)
    return bitwise_or(lhs, rhs)


def logical_xor(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """Elementwise logical exclusive or of two bool operands.

    Args:
        lhs: A bool graph value, or a Python bool.
        rhs: A bool graph value, or a Python bool.

    Returns:
        A bool value of the operands' broadcast shape.

    Raises:
        DomainError: An operand is not bool (compare first, ``x != 0``, or use the bitwise
            ops ``&``, ``|``, ``^``, which also take integers).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("logical_xor", input_types=[TensorType(DType.bool, [4])] * 2) as g:
        ...     g.output(ops.logical_xor(*g.inputs))
        >>> g.compile()(np.array([0, 0, 1, 1], bool), np.array([0, 1, 0, 1], bool))
        [array([False,  True,  True, False])]
    """
    _bools("logical_xor", lhs, rhs)
    return bitwise_xor(lhs, rhs)


def logical_not(x: TensorValueLike) -> Value:
    """Elementwise logical not of a bool operand.

    Args:
        x: A bool graph value, or a Python bool.

    Returns:
        A bool value of ``x``'s shape.

    Raises:
        DomainError: ``x`` is not bool (use :func:`invert` for a bitwise not of integers).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("logical_not", input_types=[TensorType(DType.bool, [2])]) as g:
        ...     g.output(ops.logical_not(g.inputs[0]))
        >>> g.compile()(np.array([False, True]))
        [array([ True, False])]
    """
    _bools("logical_not", x)
    return invert(x)


# MAX's names for the same ops
sub = subtract
mul = multiply
div = divide
floor_div = floor_divide
pow = power
negate = negative


def cast(x: TensorValueLike, dtype: DTypeLike) -> Value:
    """An explicit conversion of ``x`` to ``dtype``; the result is strongly typed.

    A complex value converts to a real dtype through its real part, and to bool as "non-zero",
    as in NumPy and JAX.

    Args:
        x: A graph value, or a Python scalar or NumPy value (then a constant of ``dtype``).
        dtype: The target dtype: a :class:`~latticecast.DType` or any spelling
            :meth:`DType.parse <latticecast.DType.parse>` takes (``"int16"``, ``"i16"``, ...).

    Returns:
        A value of ``dtype`` with ``x``'s shape (``x`` itself when it already is one).

    Raises:
        UnknownDTypeError: ``dtype`` names no dtype.
        LiteralRangeError: A Python scalar ``x`` does not fit ``dtype``.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("cast", input_types=[TensorType(DType.int8, [3])]) as g:
        ...     y = ops.cast(g.inputs[0], DType.float16)
        >>> y.dtype
        DType.float16
    """
    g = graph_of(x)
    d = g.policy.canonical(DType.parse(dtype))
    assert isinstance(d, DType)
    v = operand(x, g)
    if isinstance(v, Literal):
        return constant_value(g, v.value, d)
    if v.storage is d and not v.is_weak:
        return v
    if v.storage.is_complex and not d.is_complex:
        # as JAX lowers it: StableHLO leaves a convert from complex undefined, and XLA crashes folding
        # one on a constant (refused by the runtime's guards)
        if d.is_bool:  # true where either part is non-zero, as in NumPy and JAX
            return not_equal(v, constant_value(g, 0, v.storage))
        v = _part(v, "real")  # the real part, as NumPy and JAX convert
        if v.storage is d:
            return v
    return convert(v, d)


def _skipping_nan(x: TensorValueLike, y: TensorValueLike, largest: bool) -> Value:
    """MAX's elementwise ``max(x, y)``/``min(x, y)``: a NaN loses to a number (NumPy's ``fmax``/``fmin``);
    :func:`maximum`/:func:`minimum` keep NumPy's NaN-propagating meaning."""
    p = promote(STABLEHLO["stablehlo.maximum" if largest else "stablehlo.minimum"], "max" if largest else "min",
                x, y)
    target = p.decision.target
    if not target.is_inexact or target.is_complex:
        return (maximum if largest else minimum)(*p.values)
    # the NaN test reads each operand at the promoted type, so it is converted here, not by the pass
    a, b = (convert(v, target) for v in p.values)
    return where(bitwise_or((greater if largest else less)(a, b), not_equal(b, b)), a, b)


def max(x: TensorValueLike, y: TensorValueLike) -> Value:  # noqa: A001  # MAX's ops.elementwise.max
    """MAX's ``ops.elementwise.max(x, y)``: the elementwise maximum after promotion, a NaN losing to a
    number (NumPy's ``fmax``); ``ops.max(x, y)`` is this, ``ops.max(x)`` the reduction.

    Args:
        x: An operand: a graph value, a Python or NumPy number, an array.
        y: The other.

    Returns:
        A value of the promoted dtype and the broadcast shape.

    Raises:
        PromotionError: The policy defines no promotion of ``x`` and ``y``.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType
        >>> from latticecast.graph.ops import elementwise
        >>> with Graph("fmax", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(elementwise.max(g.inputs[0], 1.0))
        >>> g.compile()(np.array([0.0, np.nan, 2.0], np.float32))[0].tolist()
        [1.0, 1.0, 2.0]
    """
    return _skipping_nan(x, y, True)


def min(x: TensorValueLike, y: TensorValueLike) -> Value:  # noqa: A001  # MAX's ops.elementwise.min
    """MAX's ``ops.elementwise.min(x, y)``: the elementwise minimum after promotion, a NaN losing to a
    number (NumPy's ``fmin``).

    Args:
        x: An operand: a graph value, a Python or NumPy number, an array.
        y: The other.

    Returns:
        A value of the promoted dtype and the broadcast shape.

    Raises:
        PromotionError: The policy defines no promotion of ``x`` and ``y``.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType
        >>> from latticecast.graph.ops import elementwise
        >>> with Graph("fmin", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(elementwise.min(g.inputs[0], 1.0))
        >>> g.compile()(np.array([0.0, np.nan, 2.0], np.float32))[0].tolist()
        [0.0, 1.0, 1.0]
    """
    return _skipping_nan(x, y, False)
