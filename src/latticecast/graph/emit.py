"""Emitting ops into a graph: constants, broadcasts, converts, and promoted binary ops.

The graph builder computes every promotion at build time (it needs the result
type, and a user wants an error on the line that caused it), but it leaves the
operands as they are: the IR it emits is the mixed-dtype IR that ``implicit-cast``
legalises. Python scalars become *weak* constants (``latticecast.weak``) in the
policy's storage type for them, already range-checked against the type they
promote to.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
from jaxlib.mlir import ir

from ..dtypes import DType
from ..errors import LiteralRangeError, PromotionError
from ..policies.base import literal_problem
from ..weak import PType, Weak, dtype_of
from ..dialect_utils.op_table import PROMOTABLE, WEAK_ATTR
from .graph import Graph, current_graph
from .types import GraphError
from .value import Value

__all__ = ["Literal", "create", "broadcast_shapes", "broadcast_to", "convert", "constant_value",
           "binary", "emit_literal", "operand", "graph_of", "promote", "realize"]

_UNIT: dict[ir.Context, ir.Attribute] = {}


class Literal:
    """A Python scalar waiting to meet a graph value: weakly typed, range-checked on use."""

    __slots__ = ("value", "ptype")

    def __init__(self, value: bool | int | float | complex, ptype: PType) -> None:
        self.value = value
        self.ptype = ptype

    shape: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return f"Literal({self.value!r}: {self.ptype})"


def graph_of(*xs: Any) -> "Graph":
    """The graph the operands belong to (all the same one), or the current graph."""
    found = None
    for x in xs:
        if isinstance(x, Value):
            if found is None:
                found = x.graph
            elif x.graph is not found:
                raise GraphError(f"cannot combine values of graphs {found.name!r} and {x.graph.name!r}; "
                                 "a value belongs to the graph that made it")
    g = found if found is not None else current_graph()
    g.check_open()
    return g


def operand(x: Any, g: "Graph") -> "Value | Literal":
    """A graph value for ``x``: Python scalars stay literals, arrays become constants."""
    if isinstance(x, Value):
        if x.graph is not g:
            raise GraphError(f"value from graph {x.graph.name!r} used in graph {g.name!r}")
        return x
    if isinstance(x, Literal):
        return x
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return Literal(x, g.policy.literal_type(x))
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return constant_value(g, x, None)
    raise TypeError(f"cannot use {type(x).__name__} {x!r} as a tensor value; use a graph value, a Python "
                    "scalar, a NumPy array or a list")


def create(g: "Graph", name: str, result: ir.Type, operands: Sequence[ir.Value],
           attributes: dict[str, ir.Attribute] | None = None, *, weak: bool = False) -> ir.Value:
    if weak:
        attributes = dict(attributes or {})
        attributes[WEAK_ATTR] = _unit(g)
    op = ir.Operation.create(name, results=[result], operands=list(operands), attributes=attributes,
                             loc=g.location(), ip=g.ip)
    return op.result


def _unit(g: "Graph") -> ir.Attribute:
    attr = _UNIT.get(g.context)
    if attr is None:
        with g.context:
            attr = _UNIT[g.context] = ir.UnitAttr.get()
    return attr


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    first = shapes[0]
    if all(s == first for s in shapes):
        return first
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise GraphError("shapes " + ", ".join(str(list(s)) for s in shapes) +
                         " cannot be broadcast together (NumPy's rules: trailing dimensions must be "
                         "equal or 1)") from None


def broadcast_to(v: "Value", shape: tuple[int, ...]) -> "Value":
    """``v`` broadcast to ``shape`` as NumPy does, by ``stablehlo.broadcast_in_dim``."""
    if v.shape == shape:
        return v
    if broadcast_shapes(v.shape, shape) != shape:
        raise GraphError(f"cannot broadcast shape {list(v.shape)} to {list(shape)}")
    g = v.graph
    dims = list(range(len(shape) - len(v.shape), len(shape)))
    with g.context:
        attrs = {"broadcast_dimensions": ir.DenseI64ArrayAttr.get(dims)}
    r = create(g, "stablehlo.broadcast_in_dim", g.tc.tensor(v.storage, shape), [v.ir], attrs, weak=v.is_weak)
    return Value(g, r, v.ptype, shape)


def convert(v: "Value", dtype: DType, *, keep_weak: bool = False) -> "Value":
    """An explicit ``stablehlo.convert`` (strong, unless ``keep_weak``)."""
    g = v.graph
    weak = keep_weak and v.is_weak
    if v.storage is dtype and (weak or not v.is_weak):
        return v
    r = create(g, "stablehlo.convert", g.tc.tensor(dtype, v.shape), [v.ir], weak=weak)
    return Value(g, r, g.policy.canonical(Weak(dtype)) if weak else dtype, v.shape)


def emit_literal(g: "Graph", lit: Literal, target: DType, shape: tuple[int, ...]) -> "Value":
    """A weak constant for ``lit`` that will promote to ``target``: checked against ``target`` now,
    stored in the policy's type for the literal (the pass re-types it)."""
    g.policy.check_literal(lit.value, target)
    if isinstance(lit.ptype, Weak):
        storage = g.policy.materialize(lit.ptype)
        if literal_problem(lit.value, storage) is None and storage not in (DType.tensor_float32, DType.address):
            attr = g.tc.dense_attr(np.asarray(lit.value, dtype=storage.np_dtype), storage, shape)
            r = create(g, "stablehlo.constant", g.tc.tensor(storage, shape), [], {"value": attr}, weak=True)
            return Value(g, r, lit.ptype, shape)
    # a strong literal (a JAX bool), or one its weak storage cannot hold: build it at the target
    dtype = target if isinstance(lit.ptype, Weak) else dtype_of(lit.ptype)
    return _constant(g, np.asarray(lit.value), dtype, shape)


def _constant(g: "Graph", values: np.ndarray, dtype: DType, shape: tuple[int, ...]) -> "Value":
    if dtype in (DType.tensor_float32, DType.address):
        host = DType.float32 if dtype is DType.tensor_float32 else DType.uint64
        stored = _constant(g, values, host, shape)
        return convert(stored, dtype)
    attr = g.tc.dense_attr(values.astype(dtype.np_dtype), dtype, shape)
    r = create(g, "stablehlo.constant", g.tc.tensor(dtype, shape), [], {"value": attr})
    return Value(g, r, dtype, shape)


def constant_value(g: "Graph", value: Any, dtype: DType | None) -> "Value":
    """A strong constant from an array, list or scalar (``g.constant``)."""
    if isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic):
        if dtype is None:
            dtype = g.policy.materialize(g.policy.literal_type(value))
        problem = literal_problem(value, dtype)
        if problem:
            raise LiteralRangeError(f"constant {problem}", policy=g.policy.name, rhs=dtype)
        return _constant(g, np.asarray(value), dtype, ())
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        raise GraphError(f"cannot make a constant of {type(value).__name__} {value!r}: it is a ragged "
                         "or non-numeric sequence") from None
    if array.dtype == object:
        raise GraphError("cannot make a constant of a ragged or non-numeric sequence")
    if dtype is None:
        if isinstance(value, (list, tuple)) and array.dtype.kind in "iufcb":
            kind_default = {"i": "default_int", "u": "default_int", "f": "default_float",
                            "c": "default_complex"}.get(array.dtype.kind)
            dtype = DType.bool if array.dtype.kind == "b" else getattr(g.policy, kind_default)
            if dtype is None:
                raise GraphError(f"policy {g.policy.name!r} has no {array.dtype.kind}-kind dtype for {value!r}")
        else:
            dtype = DType.parse(array.dtype)
        dtype = g.policy.materialize(g.policy.canonical(dtype))
    else:
        g.policy.canonical(dtype)
        _check_fits(array, dtype)
    return _constant(g, array, dtype, tuple(array.shape))


def _check_fits(array: np.ndarray, dtype: DType) -> None:
    """Values given for an explicit dtype must be representable (no silent wrap)."""
    if array.size == 0 or array.dtype.kind not in "biuf":
        if array.dtype.kind == "c" and not dtype.is_complex:
            raise LiteralRangeError(f"constant has complex values but dtype {dtype.name} is not complex")
        return
    if array.dtype.kind == "f" and not dtype.is_inexact:
        if not np.all(np.isfinite(array)) or np.any(array != np.round(array)):
            raise LiteralRangeError(f"constant has non-integer values; they do not fit {dtype.name}")
    lo, hi = array.min(), array.max()
    for v in (lo, hi):
        problem = literal_problem(v.item() if not isinstance(v.item(), float) or dtype.is_inexact
                                  else int(v.item()), dtype)
        if problem:
            raise LiteralRangeError(f"constant {problem}")


def binary(opname: "str | Callable[[DType], str]", x: Any, y: Any, *, symbol: str | None = None,
           attributes: dict[str, ir.Attribute] | None = None) -> "Value":
    """``opname(x, y)`` with NumPy broadcasting and the graph policy's promotion.

    ``opname`` may be a function of the promoted dtype (``>>`` is arithmetic for
    signed and logical for unsigned integers).
    """
    g = graph_of(x, y)
    a, b = operand(x, g), operand(y, g)
    what = symbol or (opname if isinstance(opname, str) else "op")
    join = promote(g, a.ptype, b.ptype, what)
    target = g.policy.materialize(join)
    name = opname if isinstance(opname, str) else opname(target)
    spec = PROMOTABLE[name]
    if not spec.admits(target):
        raise PromotionError(
            f"{what} needs {spec.requirement}, but {g.policy.type_name(a.ptype)} and "
            f"{g.policy.type_name(b.ptype)} promote to {target.name} under policy '{g.policy.name}'",
            lhs=a.ptype, rhs=b.ptype, policy=g.policy.name)
    shape = broadcast_shapes(a.shape, b.shape)
    av, bv = realize(g, a, target, shape), realize(g, b, target, shape)
    result_dtype = DType.bool if spec.result == "bool" else target
    weak = isinstance(join, Weak) and spec.result == "same"
    r = create(g, name, g.tc.tensor(result_dtype, shape), [av.ir, bv.ir], attributes, weak=weak)
    return Value(g, r, join if spec.result == "same" else result_dtype, shape)


def promote(g: "Graph", a: PType, b: PType, what: str) -> PType:
    """The policy's join, with the operation named in the error."""
    try:
        return g.policy.promote_types(a, b)
    except PromotionError as e:
        raise type(e)(f"{what}: {e}", lhs=e.lhs, rhs=e.rhs, policy=e.policy, cast_to=e.cast_to) from None


def realize(g: "Graph", x: "Value | Literal", target: DType, shape: tuple[int, ...]) -> "Value":
    """``x`` in the IR at ``shape``: a literal becomes a weak constant checked against
    ``target``; a value is broadcast."""
    if isinstance(x, Literal):
        return emit_literal(g, x, target, shape)
    return x if x.shape == shape else broadcast_to(x, shape)
