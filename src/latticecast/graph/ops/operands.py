"""The builder's adapter over ``op_rules``: operands in, promoted IR operands and the op's decision out.

Every builder op that promotes calls :func:`promote`: it turns what the user passed
into graph values (Python scalars stay weak :class:`Literal` s until the decision is
known; NumPy arrays and scalars become strongly typed constants, except under a policy
that makes them weak, MAX 26.7's, where a NumPy scalar is a :class:`Literal` of the
Python number it holds and an array a :class:`WeakArray`), asks
:func:`latticecast.promotion.op_rules.decide`, broadcasts the operands to a common shape, and
emits each literal and weak array as a weak constant checked against the type it
promotes to. The operands themselves are left unconverted: the IR the builder writes
is the mixed-dtype IR that ``implicit-cast`` legalises with the same decision.

Errors carry the op as the user wrote it: ``+: no implicit promotion of i8 and u64
under policy 'array-api': ...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence, cast, overload
from typing import Literal as _Literally  # Literal is this module's Python-scalar operand

import numpy as np
from jaxlib.mlir import ir

from ...promotion.dims import AlgebraicDim, StaticDim, SymbolicDim, is_static, static_dims
from ...promotion.dtypes import DType, UnknownDTypeError
from ...errors import MAX_COMPILE_FAILURE, DomainError, GraphError, LiteralRangeError, PromotionError
from ...promotion.op_rules import (EXPLICIT_BROADCAST_ATTR, IMPLICIT_BROADCAST_ATTR, UNARY, Needs, OpPromotion, OpRule,
                         check_unary, decide)
from ...passes.value_sharding import copy_sharding
from ...promotion.value_fit import Scalar, array_problem, candidates, convert_array, scalar_problem
from ...promotion.weak import PType, Weak
from ..current import current_graph
from ..value import TensorValueLike, Value
from ..weight import Weight
from .dynamic import shape_value

if TYPE_CHECKING:
    from ...promotion.dims import Dim
    from ...policies.base import Policy
    from ..graph import Graph

__all__ = ["Literal", "WeakArray", "graph_of", "operand", "numpy_operator_operand", "promote", "decide_operands",
           "checked_unary_operand",
           "realize", "Promoted", "emit_literal", "emit_weak_array", "constant_value", "as_value", "broadcast_shapes",
           "broadcast", "convert", "unary_operand", "with_op"]


class Literal:
    """A Python scalar waiting to meet a graph value: weakly typed, range-checked on use."""

    __slots__ = ("value", "ptype")
    shape: tuple[int, ...] = ()

    def __init__(self, value: Scalar, ptype: PType) -> None:
        self.value = value
        self.ptype = ptype

    def __repr__(self) -> str:
        return f"Literal({self.value!r}: {self.ptype})"


class WeakArray:
    """A NumPy array waiting to meet a graph value where the policy makes NumPy values weak
    (``policy.numpy_values.weak``: MAX 26.7),
    checked against the dtype it promotes to and emitted once the op's decision is known, as a
    :class:`Literal` is. MAX receives an array in one of two ways, and checks it by other rules in each:

    * whole (``elementwise`` false): ``x + array`` and ``ops.add(array, x)`` give MAX the array, which
      ``dtype_promotion._promote_to_strong`` converts to the graph value's dtype. It promotes as
      ``policy.numpy_values.array_type`` says, is checked by ``policy.numpy_values.array_problem`` (MAX's array
      rules), and is emitted in its own dtype marked ``latticecast.weak = "array"``, so that the pass
      checks it by the same rules.
    * element by element (``elementwise`` true): ``array + x`` runs NumPy's ``ndarray.__add__`` first,
      whose object loop hands MAX one Python scalar at a time. It promotes as a literal of its kind,
      every element is checked by the literal rules, and it is emitted as a literal's weak constant.
    """

    __slots__ = ("values", "dtype", "ptype", "elementwise")

    def __init__(self, values: np.ndarray, policy: "Policy", *, elementwise: bool) -> None:
        dtype = _array_dtype(values)
        self.values = values
        self.dtype = dtype  # the array's own
        self.elementwise = elementwise
        self.ptype: PType = (policy.literals.type_of(_python_zero(dtype)) if elementwise else
                             policy.numpy_values.array_type(cast(DType, policy.canonical(dtype))))  # a dtype's is one

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.values.shape)

    def check(self, policy: "Policy", target: DType) -> None:
        """Raise :class:`LiteralRangeError` where the policy refuses the array as ``target``."""
        if self.elementwise:  # each element as the Python scalar NumPy's object loop hands over
            for value in candidates(self.values, target):
                policy.literals.check(value, target)
        else:
            policy.numpy_values.check_array(self.values, target)

    def __repr__(self) -> str:
        return f"WeakArray({self.values!r}: {self.ptype}{', elementwise' if self.elementwise else ''})"


def _array_dtype(values: np.ndarray) -> DType:
    """The dtype of a NumPy array given as an operand, or a :class:`GraphError` naming what it holds."""
    try:
        return DType.parse(values.dtype)
    except (UnknownDTypeError, TypeError, ValueError):
        raise GraphError(f"cannot use a NumPy array of dtype {values.dtype} as a tensor value: it holds no numbers "
                         "of a dtype latticecast knows; convert it first (np.asarray(array, dtype))") from None


def _python_zero(dtype: DType) -> Scalar:
    """A Python number of ``dtype``'s kind: what NumPy's object loop makes of each element."""
    return False if dtype.is_bool else 0 if dtype.is_integral() else 0j if dtype.is_complex else 0.0


Operand = "Value | Literal | WeakArray"


def graph_of(*xs: object) -> "Graph":
    """The graph the operands belong to (all the same one), or the current graph."""
    found = None
    for x in xs:
        if isinstance(x, Value):
            if found is None:
                found = x.graph
            elif x.graph is not found:
                raise GraphError(f"cannot combine values of graphs {found.name!r} and {x.graph.name!r}; "
                                 "a value belongs to the graph that made it")
    if found is None:
        from ..weight import Weight  # a Weight becomes a value of the graph being built

        weights = [x for x in xs if isinstance(x, Weight)]
        if weights:
            return weights[0].value().graph  # its error names the Weight (MAX's: no parent graph)
    g = found if found is not None else current_graph()
    g.check_open()
    return g


@overload
def operand(x: TensorValueLike, g: "Graph", *, promotes: _Literally[False] = False) -> "Value | Literal": ...
@overload
def operand(x: TensorValueLike, g: "Graph", *, promotes: bool) -> "Value | Literal | WeakArray": ...


def operand(x: TensorValueLike, g: "Graph", *, promotes: bool = False) -> "Value | Literal | WeakArray":
    """A graph operand for ``x``: Python scalars stay literals, NumPy values and lists become constants.

    ``promotes``: ``x`` is an operand of an op that promotes its operands (``+``, ``/``, ``ops.max``,
    ``where``'s values). There, under a policy that makes NumPy values weak (MAX 26.7), a NumPy scalar
    is a :class:`Literal` of the Python number it holds and a NumPy array a :class:`WeakArray`.
    Elsewhere, and under every other policy, a NumPy value is a strongly typed constant of its own
    dtype (as MAX's ``TensorValue(array)`` is: ``ops.concat``, ``ops.matmul`` and unary ops convert no
    NumPy value to another's dtype), and a :class:`WeakArray` becomes that constant too.
    """
    if isinstance(x, Value):
        if x.graph is not g:
            raise GraphError(f"value from graph {x.graph.name!r} used in graph {g.name!r}")
        return x
    if isinstance(x, Literal):
        return x
    if isinstance(x, Weight):
        return g.add_weight(x)
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        if x.__class__ is StaticDim:
            x = int(x)
        return Literal(x, g.policy.literals.type_of(x))
    if isinstance(x, (SymbolicDim, AlgebraicDim)):  # its size when the graph runs, as MAX: int64[1]
        from .dynamic import vector_value
        return Value(g, vector_value(g, [g.dim_value(x)]), DType.int64, (1,))
    if isinstance(x, WeakArray):
        return x if promotes else constant_value(g, x.values, None)
    if isinstance(x, np.generic) and promotes:
        rules = g.policy.numpy_values
        if rules.scalars_are_python:  # MAX 26.7 and PyTorch read a NumPy scalar as the Python number it holds
            value = rules.scalar(x)
            return Literal(value, g.policy.literals.type_of(value))
        rules.scalar_type(x)  # a system with no NumPy scalars (the Array API) refuses one here
    if isinstance(x, np.ndarray) and promotes and g.policy.numpy_values.weak:
        return WeakArray(x, g.policy, elementwise=False)
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return constant_value(g, x, None)
    raise TypeError(f"cannot use {type(x).__name__} {x!r} as a tensor value; use a graph value, a Python "
                    "scalar, a NumPy array or a list")


def numpy_operator_operand(x: object, g: "Graph") -> object:
    """What reaches a graph value when NumPy's operator runs first (``array + x`` calls
    ``ndarray.__add__``, ``np.float32(0.5) + x`` the NumPy scalar's), under a policy that makes NumPy
    values weak: MAX's values do not stop NumPy, whose object loop hands MAX each element as a Python
    scalar. So a NumPy scalar is the Python scalar NumPy makes of it (a NumPy bool a Python bool, which
    MAX takes as an int, unlike ``x + np.bool_``), and an array a :class:`WeakArray` of Python scalars.
    MAX's result is then a NumPy object array of graph values; latticecast's is the one graph value
    those elements make. Under other policies, and for other operands, ``x`` is returned as it is.
    """
    if not g.policy.numpy_values.weak:
        return x
    if isinstance(x, np.generic):
        value = x.item()
        return value if isinstance(value, (bool, int, float, complex)) else x
    if isinstance(x, np.ndarray):
        return WeakArray(x, g.policy, elementwise=True)
    return x


def with_op(symbol: str, e: "PromotionError | DomainError") -> "PromotionError | DomainError":
    """``e`` with the op as the user wrote it in front (``+: ...``)."""
    return type(e)(f"{symbol}: {e}", lhs=e.lhs, rhs=e.rhs, policy=e.policy, cast_to=e.cast_to)


@dataclass(frozen=True)
class Promoted:
    """The operands of one op, promoted: ``values`` (broadcast, literals emitted), its ``decision``
    and the common ``shape``."""

    values: tuple[Value, ...]
    decision: OpPromotion
    shape: Sequence[int | Dim]


_SCALARS = (bool, int, float, complex)


# x and y are Any deliberately: this hot path tests ``__class__ is`` (faster than isinstance), which does not narrow
def fast_operands(rule: OpRule, symbol: str, x: Any, y: Any) -> "tuple[OpPromotion, Value, Value] | None":
    """The decision and the operands for the builder's common binary ops: two values of one graph
    and one shape, or a value and a Python scalar (``x - 1``); ``None`` for anything else (it takes
    :func:`promote`: broadcasts, NumPy values, which a policy may make weak, and lists).

    The op decisions are ``op_rules``' (one memo per policy, shared with the pass, which the graph
    reads as ``op_decisions``), and a graph keeps its literal constants per (literal, type, shape)
    and what a literal operand made of each (op, side, other operand's type and shape) it met, so a
    chain of a million ops asks the policy a handful of questions, and each op costs a few
    dictionary lookups here. Two values found to have equal shapes share one shape object from then
    on (a value's ``_shape`` is never changed in place), so the next comparison of the two is by identity.
    """
    if x.__class__ is Value:
        g = x.graph
        if y.__class__ is Value:
            if y.graph is not g:
                return None
            if x._shape is not y._shape:  # not .shape: that is a fresh copy per read
                if x._shape != y._shape:
                    return None
                y._shape = x._shape
            if g.policy.rank_sensitive:
                return None
            if g._closed:
                g.check_open()
            decision = g.op_decisions.get((rule.name, (x.ptype, y.ptype), None))
            if decision is None:
                decision = decide_operands(g, rule, symbol, (x, y))
            return decision, x, y
        if y.__class__ not in _SCALARS:
            return None
        value, scalar, side = x, y, 1
    elif y.__class__ is Value and x.__class__ in _SCALARS:
        g = y.graph
        value, scalar, side = y, x, 0
    else:
        return None
    if g.policy.rank_sensitive:
        return None
    if g._closed:
        g.check_open()
    cls = scalar.__class__
    key = (rule.name, side, value.ptype, cls, scalar if cls is int or cls is bool else repr(scalar), value._shape)
    found = g.literal_operands.get(key)
    if found is None:
        decision, constant, reusable = _literal_operand(g, rule, symbol, value, scalar, side)
        if reusable:
            g.literal_operands[key] = (decision, constant)
    else:
        decision, constant = found
    return (decision, constant, value) if side == 0 else (decision, value, constant)


def _literal_operand(g: "Graph", rule: OpRule, symbol: str, value: Value, scalar: Scalar,
                     side: int) -> tuple[OpPromotion, Value, bool]:
    """:func:`fast_operands` for ``value`` and the Python scalar ``scalar`` (on the left when ``side``
    is 0): the decision, the literal's constant, and whether the graph may reuse both for the same
    (op, side, literal, value type and shape): the constant is the graph's shared weak constant."""
    lit = _literal(g, scalar)
    ops = (lit, value) if side == 0 else (value, lit)
    decision = g.op_decisions.get((rule.name, (ops[0].ptype, ops[1].ptype), None))
    if decision is None:
        decision = decide_operands(g, rule, symbol, ops)
    shared = _shared_literal(g, lit, decision.target, value._shape)
    if shared is not None:
        return decision, shared, True
    return decision, emit_literal(g, lit, decision.target, value._shape), False


def _literal(g: "Graph", value: Scalar) -> Literal:
    """``value`` as a literal of ``g``, its type as the policy gives it (asked once per literal)."""
    key = _literal_key(value)
    ptype = g.literal_types.get(key)
    if ptype is None:
        ptype = g.literal_types[key] = g.policy.literals.type_of(value)
    return Literal(value, ptype)


def promote(rule: OpRule, symbol: str, *xs: TensorValueLike, graph: "Graph | None" = None) -> Promoted:
    """Decide ``rule`` for ``xs`` under the graph's policy and realise the operands at one shape.

    The builder's hot path: values of the graph at one shape (the common case) go straight
    through; literals, constants and broadcasts take the general path.
    """
    g = graph or graph_of(*xs)
    ops = [x if x.__class__ is Value and x.graph is g else operand(x, g, promotes=True) for x in xs]
    decision = decide_operands(g, rule, symbol, ops)
    shape: Sequence[int | Dim] = ops[0].shape
    for o in ops:
        if o.shape != shape:
            shape = broadcast_shapes(*(o.shape for o in ops))
            break
    values = tuple([o if o.__class__ is Value and o.shape == shape else realize(g, o, decision.target, shape)
                    for o in ops])
    return Promoted(values, decision, shape)


def decide_operands(g: "Graph", rule: OpRule, symbol: str,
                    ops: Sequence["Value | Literal | WeakArray"]) -> OpPromotion:
    """:func:`latticecast.promotion.op_rules.decide` for graph operands, the error prefixed with the op (a
    rank-sensitive policy is told which operands are 0-d tensors)."""
    zero_dim = [o.__class__ is Value and not o.shape for o in ops] if g.policy.rank_sensitive else None
    try:
        return decide(g.policy, rule, [o.ptype for o in ops], zero_dim)
    except DomainError as e:
        # MAX 26.7 builds - / ** @ // % of bools and its compiler then refuses them (measured)
        if g.defers_refusals_to_compile and rule.needs in (Needs.NUMERIC, Needs.REAL) and all(
                g.policy.materialize(o.ptype) is DType.bool for o in ops):
            g.refuse_compile(f"{symbol} of bool operands: {MAX_COMPILE_FAILURE}", ops_beyond_stablehlo=True)
            return OpPromotion(rule, DType.bool, DType.bool, DType.bool, False)
        raise with_op(symbol, e) from None
    except PromotionError as e:
        raise with_op(symbol, e) from None


def realize(g: "Graph", x: "Value | Literal | WeakArray", target: DType, shape: Sequence[int | Dim]) -> Value:
    """``x`` in the IR at ``shape``: a literal or a weak array becomes a weak constant checked against
    ``target``."""
    if isinstance(x, Literal):
        return emit_literal(g, x, target, shape)
    if isinstance(x, WeakArray):
        return emit_weak_array(g, x, target, shape)
    return x if x.shape == shape else broadcast(x, shape, implicit=True)


def unary_operand(x: TensorValueLike, what: str) -> Value:
    """The one operand of a unary op as a value (a Python scalar becomes its weak constant)."""
    g = graph_of(x)
    v = operand(x, g)
    if isinstance(v, Literal):
        v = emit_literal(g, v, g.policy.materialize(v.ptype), ())
    return v


def checked_unary_operand(x: TensorValueLike, name: str) -> tuple[Value, bool]:
    """The operand of the unary op or reduction ``name`` (a key of :data:`latticecast.promotion.op_rules.UNARY`),
    checked against the op's domain there: the one place the builder asks which dtypes a unary op takes.

    Returns the value, and whether StableHLO's op takes its dtype as it is (``False``: the builder
    computes the op another way, as ``floor`` of an integer is the integer). Raises
    :class:`~latticecast.DomainError` for a dtype the op is not defined for, naming the fix.
    """
    rule = UNARY[name]
    v = unary_operand(x, rule.name)
    return v, check_unary(rule, v.storage)


def as_value(x: TensorValueLike, graph: "Graph", *, materialize: bool = False) -> Value:
    """``x`` as a value of ``graph``; a Python scalar becomes a weak constant (``materialize``)."""
    v = operand(x, graph)
    if isinstance(v, Literal):
        if not materialize:
            raise GraphError(f"{x!r} is a Python scalar, not a graph value")
        return emit_literal(graph, v, graph.policy.materialize(v.ptype), ())
    return v


# -- constants -----------------------------------------------------------------------------------


def _literal_key(value: Scalar) -> tuple[type, object]:
    """A dictionary key that tells apart literals Python calls equal: ``1``, ``1.0`` and ``True``
    (by type), and ``0.0`` and ``-0.0`` (by their text)."""
    cls = value.__class__
    return (cls, value if cls is int or cls is bool else repr(value))


def emit_literal(g: "Graph", lit: Literal, target: DType, shape: Sequence[int | Dim]) -> Value:
    """A weak constant for ``lit`` that will promote to ``target``: checked against ``target`` now
    (with the policy's literal rules), stored in the policy's type for the literal (the pass
    re-types it).

    A graph makes one constant per (literal, type, shape) and reuses it, as MLIR's ``cse``
    would: ``x - 1`` a thousand times is one constant that the pass re-types once. Ops are
    only ever appended, and a region's constants are forgotten when it is left
    (:meth:`Graph.building_in`), so the first use's constant dominates the later ones.
    """
    shared = _shared_literal(g, lit, target, shape)
    if shared is not None:
        return shared
    dims = static_dims(shape)
    if dims is None:  # a constant has a static shape: broadcast it when the graph runs
        return broadcast(emit_literal(g, lit, target, ()), shape)
    # a strong literal (a JAX bool), or one its weak storage cannot hold: build it at the target
    dtype = target if isinstance(lit.ptype, Weak) else lit.ptype
    return _constant(g, _host_array(lit.value, dtype), dtype, dims)


def _shared_literal(g: "Graph", lit: Literal, target: DType, shape: Sequence[int | Dim]) -> Value | None:
    """:func:`emit_literal`'s check of ``lit`` against ``target``, then the graph's one weak constant for
    ``lit`` at ``shape`` (made on first use); ``None`` where the literal is built anew at each use (a
    strong literal, one its weak storage cannot hold, or a shape that is not static)."""
    key = _literal_key(lit.value)
    if (key, target) not in g.checked_literals:
        g.policy.literals.check(lit.value, target)
        g.checked_literals.add((key, target))
    if not isinstance(lit.ptype, Weak):
        return None
    dims = static_dims(shape)
    if dims is None:
        return None
    storage = g.policy.materialize(lit.ptype)
    if (target.is_inexact and storage.is_inexact and target.is_complex == storage.is_complex
            and target.bitwidth > storage.bitwidth and target.has_dense_constants):
        storage = target  # 0.1 - float64 (PyTorch's float32 default): 0.1 as a double, not float32's 0.1
    if scalar_problem(lit.value, storage) is not None or not storage.has_dense_constants:
        return None
    found = g.literal_constants.get((key, lit.ptype, shape, storage))
    if found is None:
        attr = g.tc.dense_attr(np.asarray(lit.value, dtype=storage.np_dtype), storage, dims)
        op = g._add_op("stablehlo.constant", [g.tc.tensor(storage, shape)], [], {"value": attr}, weak=True)
        found = g.literal_constants[(key, lit.ptype, shape, storage)] = Value(g, op.result, lit.ptype, shape)
    return found


def emit_weak_array(g: "Graph", arr: WeakArray, target: DType, shape: Sequence[int | Dim]) -> Value:
    """A weak constant for ``arr`` that will promote to ``target``, broadcast to ``shape``: checked against
    ``target`` now (:meth:`WeakArray.check`), and stored as the pass reads it. A whole array keeps its own
    dtype, since MAX's array rules ask what it is (``latticecast.weak = "array"``); elements handed over one
    at a time are stored as the policy stores a literal of their kind, or, where that cannot hold them
    (``uint64`` above int64's range), built at ``target`` (their check passed). One constant per use: an
    array, unlike a literal, is not looked up again."""
    arr.check(g.policy, target)
    values = arr.values
    if arr.elementwise:
        storage = g.policy.materialize(arr.ptype)
        if array_problem(values, storage) is not None or not storage.has_dense_constants:
            return broadcast(_constant(g, convert_array(values, target), target, arr.shape), shape)
    else:
        storage = arr.dtype
    attr = g.tc.dense_attr(values.astype(storage.np_dtype), storage, arr.shape)
    op = g._add_op("stablehlo.constant", [g.tc.tensor(storage, arr.shape)], [], {"value": attr},
                   weak=arr.elementwise, weak_array=not arr.elementwise)
    return broadcast(Value(g, op.result, arr.ptype, arr.shape, storage=storage), shape)


def _host_array(value: Scalar, dtype: DType) -> np.ndarray:
    """A checked Python number as ``dtype``'s host array (ints above int64 go through float)."""
    if dtype.is_inexact and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return np.asarray(value, dtype=dtype.np_dtype)


def _constant(g: "Graph", values: np.ndarray, dtype: DType, shape: tuple[int, ...]) -> Value:
    if not is_static(shape):  # one value, broadcast to a symbolic shape when the graph runs
        return broadcast(_constant(g, values, dtype, ()), shape)
    if not dtype.has_dense_constants:  # tf32, address: build the stored dtype and convert
        stored = _constant(g, values, dtype.stored_as, shape)
        return convert(stored, dtype)
    attr = g.tc.dense_attr(values.astype(dtype.np_dtype), dtype, shape)
    op = g._add_op("stablehlo.constant", [g.tc.tensor(dtype, shape)], [], {"value": attr})
    return Value(g, op.result, dtype, shape)


def constant_value(g: "Graph", value: object, dtype: DType | None) -> Value:
    """A strong constant from an array, list or scalar (``g.constant``); values must fit ``dtype``."""
    if isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic):
        if dtype is None:
            dtype = g.policy.materialize(g.policy.literals.type_of(value))
        g.policy.canonical(dtype)
        problem = scalar_problem(value, dtype)
        if problem:
            raise LiteralRangeError(f"constant {problem}", policy=g.policy.name, rhs=dtype)
        return _constant(g, _host_array(value, dtype), dtype, ())
    try:
        array = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        raise GraphError(f"cannot make a constant of {type(value).__name__} {value!r}: it is a ragged "
                         "or non-numeric sequence") from None
    if array.dtype == object or array.dtype.kind not in "biufcV":
        raise GraphError(f"cannot make a constant of a ragged or non-numeric sequence ({array.dtype})")
    if dtype is None:
        if isinstance(value, (list, tuple)) and array.dtype.kind in "iufc":
            default = {"i": g.policy.default_int, "u": g.policy.default_int, "f": g.policy.default_float,
                       "c": g.policy.default_complex}[array.dtype.kind]
            if default is None:
                raise GraphError(f"policy {g.policy.name!r} has no {array.dtype.kind}-kind dtype for {value!r}")
            dtype = default
        else:
            dtype = DType.parse(array.dtype)
        dtype = g.policy.materialize(g.policy.canonical(dtype))
    else:
        g.policy.canonical(dtype)
        problem = array_problem(array, dtype)
        if problem:
            raise LiteralRangeError(f"constant {problem}", policy=g.policy.name, rhs=dtype)
    return _constant(g, array, dtype, tuple(array.shape))


# -- shapes and conversions ----------------------------------------------------------------------


def broadcast_shapes(*shapes: Sequence[int | Dim], names: Sequence[str] = ()) -> Sequence[int | Dim]:
    """The common shape of ``shapes`` by NumPy's rules, or a :class:`GraphError` naming them.

    A symbolic dimension broadcasts against itself and against 1, never against another
    size or name (as in MAX: they may differ when the graph runs). ``names`` name the shapes'
    values in the error (default: ``lhs`` and ``rhs``, as MAX's binary ops)."""
    first = shapes[0]
    if all(s == first for s in shapes):
        return first
    rank = max(len(s) for s in shapes)
    out: list[int | Dim] = []
    for i in range(rank, 0, -1):
        d: int | Dim = 1
        source = -1
        for k, s in enumerate(shapes):
            if len(s) < i:
                continue
            x = s[-i]
            if x == 1 and isinstance(x, int):
                continue
            if d == 1 and isinstance(d, int):
                d, source = x, k
            elif x != d:
                raise GraphError(_broadcast_problem(shapes, i, source, k, names))
        out.append(d)
    return tuple(out)


def _broadcast_problem(shapes: Sequence[Sequence[int | Dim]], i: int, j: int, k: int,
                       names: Sequence[str]) -> str:
    """Why shapes ``j`` and ``k`` do not broadcast at their ``i``-th dimension from the end: MAX's
    wording, then latticecast's."""
    if not names:
        names = ("lhs", "rhs") if len(shapes) == 2 else tuple(f"#{n}" for n in range(len(shapes)))
    a, b = shapes[j][-i], shapes[k][-i]
    said = " and ".join(f"input {names[n]} (shape [{', '.join(map(str, shapes[n]))}]) dimension at axis "
                        f"{len(shapes[n]) - i} (value {shapes[n][-i]})" for n in (j, k))
    said += " are neither equivalent nor broadcastable"
    listed = ", ".join("[" + ", ".join(map(str, s)) + "]" for s in shapes)
    if isinstance(a, int) and isinstance(b, int):
        return (f"{said[0].upper()}{said[1:]}: shapes {listed} cannot be broadcast together (NumPy's rules: "
                "trailing dimensions must be equal or 1)")
    return (f"{said[0].upper()}{said[1:]}: shapes {listed} cannot be broadcast together: dimensions {a} and {b} "
            "are neither equal nor 1 (as in MAX, a symbolic dimension broadcasts only against itself and 1); if "
            "they are equal when the graph runs, say so with x.rebind([...])")


def broadcast(v: Value, shape: Sequence[int | Dim], *, implicit: bool = False) -> Value:
    """``v`` broadcast to ``shape`` as NumPy does: ``stablehlo.broadcast_in_dim``, or
    ``dynamic_broadcast_in_dim`` when a dimension is symbolic. ``implicit``: an operator broadcasts
    its operand (``x + z``), not the user (``z.broadcast_to``). Under a rank-sensitive policy the
    broadcast of a 0-d value is marked ``latticecast.implicit_broadcast`` or, when the program asked
    for it, ``latticecast.explicit_broadcast``, so that the pass ranks it as the builder did: the 0-d
    tensor it was, or the dimensioned tensor it became (PyTorch's dimension categories)."""
    if v.shape == shape:
        return v
    if len(shape) < len(v.shape) or broadcast_shapes(v.shape, shape) != shape:
        raise GraphError(f"cannot broadcast shape [{', '.join(map(str, v.shape))}] to "
                         f"[{', '.join(map(str, shape))}]")
    g = v.graph
    dims = list(range(len(shape) - len(v.shape), len(shape)))
    with g.context:
        attrs: dict[str, ir.Attribute] = {"broadcast_dimensions": ir.DenseI64ArrayAttr.get(dims)}
        if not v.shape and g.policy.rank_sensitive:
            attrs[IMPLICIT_BROADCAST_ATTR if implicit else EXPLICIT_BROADCAST_ATTR] = ir.UnitAttr.get()
    result = [g.tc.tensor(v.storage, shape)]
    if is_static(shape) and is_static(v.shape):
        op = g._add_op("stablehlo.broadcast_in_dim", result, [v.ir], attrs, weak=v.is_weak)
    else:
        op = g._add_op("stablehlo.dynamic_broadcast_in_dim", result, [v.ir, shape_value(g, shape)], attrs,
                       weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)


def convert(v: Value, dtype: DType, *, keep_weak: bool = False, make_weak: bool = False) -> Value:
    """An explicit ``stablehlo.convert``: strong, unless ``keep_weak`` (and ``v`` is weak) or
    ``make_weak`` (JAX's ``promote_dtypes_inexact`` makes every operand weak when their promotion
    is: ``True / 2`` divides weak floats)."""
    g = v.graph
    weak = (keep_weak and v.is_weak) or make_weak
    if v.storage is dtype and v.is_weak == weak:
        return v
    op = g._add_op("stablehlo.convert", [g.tc.tensor(dtype, v.shape)], [v.ir], weak=weak)
    if g.layout is not None:  # a sharded graph: the convert keeps its operand's layout, as the pass's do
        with g.context:
            copy_sharding(v.ir, op)
    return Value(g, op.result, g.policy.canonical(Weak(dtype)) if weak else dtype, v.shape, storage=dtype)

