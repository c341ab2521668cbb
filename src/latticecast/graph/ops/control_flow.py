"""Control flow: conditionals and loops, as ``stablehlo.if``, ``stablehlo.case`` and ``stablehlo.while``.

Two families of names share ``latticecast.ops`` (which is also ``latticecast.max.ops``):

* MAX 26.7's, with MAX's signatures: ``cond(pred, out_types, then_fn, else_fn)`` and
  ``while_loop(initial_values, predicate, body)``;
* JAX's, with ``jax.lax``'s signatures: ``lax_cond(pred, true_fun, false_fun, *operands)``,
  ``lax_while_loop(cond_fun, body_fun, init_val)``, ``fori_loop(lower, upper, body_fun, init_val)``
  and ``switch(index, branches, *operands)``.

``cond`` and ``while_loop`` keep MAX's signatures, so a MAX program runs unchanged; JAX's
``cond`` and ``while_loop`` take their arguments in another order and are ``lax_cond`` and
``lax_while_loop`` here. ``fori_loop`` and ``switch`` have no MAX namesake and keep JAX's names.

The functions passed in are called once while the graph is built (``while_loop``'s body twice when
a loop-carried value is a Python scalar, as JAX does). Their ops go into the op's regions, which
see every value of the graph built before them; a value made inside a region must not be used
after it.

**Promotion does not cross a region boundary.** MAX (``TypeError: Results don't match expected
types``) and JAX (``cond branches must have equal output types``, ``while_loop body function carry
input and carry output must have equal types``) both require a branch's results to have the op's
types and a loop body's results to have the carried values' types, weakly typed values included:
``lax.cond(p, lambda: x_f16, lambda: 2.0)`` is an error in JAX 0.10 and 0.12. So latticecast
refuses a mismatch with :class:`~latticecast.RegionTypeError`, naming the cast to write, under
every policy. Inside a region, ops promote as everywhere else (``x * 0.5 + 1`` on a float16 carry
stays float16). The one promotion at a boundary is JAX's ``while_loop`` rule: a loop-carried
value that starts as a Python scalar takes the dtype the body gives it (``lax.while_loop(c, lambda
v: v + x_f16, 0.0)`` carries float16). MAX refuses a Python scalar there; latticecast takes it as
JAX does, under every policy. Weakness survives a boundary where JAX's does: a carried value that
starts weak and keeps its dtype stays weak (``fori_loop``'s index over Python-int bounds is, so
``acc + i`` keeps ``acc``'s dtype), and so does a result of ``lax_cond`` or ``switch`` that every
branch returns weak.

``implicit-cast`` applies the same rules to IR (see :mod:`latticecast.passes.implicit_cast`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence, TypeAlias, cast

import numpy as np
from jaxlib.mlir import ir

from ...promotion.dims import Dim, SymbolicDim
from ...promotion.dtypes import DType
from ...errors import GraphError, RegionTypeError
from ...promotion.tensor_type import TensorType, as_tensor_type
from ..value import TensorValueLike, Value
from .operands import Literal, as_value, constant_value, convert, emit_literal, graph_of, operand

__all__ = ["cond", "while_loop", "lax_cond", "lax_while_loop", "fori_loop", "switch"]

if TYPE_CHECKING:
    from ..graph import Graph

Shape = Sequence["int | Dim"]
Slot = tuple[DType, Shape]
"""What a region boundary fixes for one value: its dtype and shape."""

Carry: TypeAlias = Any
"""A loop's carry or a branch's results in the caller's own structure (a value, a Python scalar, or a tuple
or list of them; ``None`` for none): ``Any``, as ``jax.lax``'s own signatures type a pytree, so that the caller
reads the result as the structure it built without narrowing a union."""

Branch = Callable[..., object]
"""A function that builds a region: called with the region's values, it returns ``None``, a value, a Python
scalar, or a tuple or list of them (read by :func:`_items`, checked at run time)."""

_NO_PROMOTION = ("no promotion crosses a region boundary (MAX and JAX both require equal types there)")


# -- the op's signature: MAX's names ----------------------------------------------------------------


def cond(pred: TensorValueLike, out_types: "Sequence[TensorType | tuple[object, ...]] | None", then_fn: Callable[[], object],
         else_fn: Callable[[], object]) -> list[Value]:
    """Run ``then_fn`` if ``pred`` holds, else ``else_fn`` (MAX's ``ops.cond``; ``stablehlo.if``).

    Both branches are built; one runs. Each returns ``None``, a value, or a list of values, which
    must have exactly ``out_types`` (dtype and shape): no promotion crosses the boundary.

    Args:
        pred: A bool scalar graph value (or a Python bool).
        out_types: The :class:`~latticecast.TensorType` of each result (MAX's ``TensorType`` too);
            ``None`` or ``[]`` for none.
        then_fn: Called with no arguments, returns the results where ``pred`` is true.
        else_fn: The same where ``pred`` is false.

    Returns:
        The results, one value per entry of ``out_types`` (strongly typed).

    Raises:
        RegionTypeError: ``pred`` is not a bool scalar, or a branch returns another number of values
            or another dtype or shape than ``out_types``.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("cond", input_types=[TensorType(DType.bool, []), TensorType(DType.float16, [2])],
        ...            policy="max-python") as g:
        ...     p, x = g.inputs
        ...     (r,) = ops.cond(p, [TensorType(DType.float16, [2])], lambda: x * 2, lambda: x - 1)
        ...     g.output(r)
        >>> g.compile()(np.bool_(False), np.array([1, 3], np.float16))[0].tolist()
        [0.0, 2.0]
    """
    g = graph_of(pred)
    p = _predicate(g, pred, "cond: pred", integers=False)
    slots = [_slot(t, f"cond: out_types[{i}]") for i, t in enumerate(out_types or ())]
    holder = _holder(g, 2)
    for region, fn, name in zip(holder.regions, (then_fn, else_fn), ("then_fn", "else_fn")):
        with g.building_in(ir.Block.create_at_start(region, [], [])):
            results = _values(g, fn(), f"cond: {name}")
            _check(results, slots, f"cond: {name}", "out_types")
            _yield(g, results)
    return _emit(g, "stablehlo.if", [p.ir], holder, slots)


def while_loop(initial_values: TensorValueLike | Iterable[TensorValueLike], predicate: Branch,
               body: Branch) -> list[Value]:
    """Run ``body`` while ``predicate`` holds (MAX's ``ops.while_loop``; ``stablehlo.while``).

    ``predicate`` and ``body`` take the loop-carried values as arguments; ``predicate`` returns
    a bool scalar, ``body`` the next values, each of the dtype and shape it carries. A Python
    scalar among ``initial_values`` takes the dtype the body gives it (JAX's rule; MAX refuses
    Python scalars there).

    Args:
        initial_values: A value, or an iterable of values (Python scalars too); at least one.
        predicate: ``predicate(*values)``: whether to run the body again.
        body: ``body(*values)``: the next values, as a value or a list of values.

    Returns:
        The values when ``predicate`` first fails (weakly typed where a Python scalar's value kept
        its dtype).

    Raises:
        GraphError: ``initial_values`` is empty.
        RegionTypeError: ``predicate`` returns no bool scalar, or ``body`` returns another number of
            values or another dtype or shape than it carries.

    Example:
        >>> from latticecast import DType, Graph, ops
        >>> with Graph("decode", policy="max-python") as g:
        ...     i = ops.constant(0, DType.int32)
        ...     h = ops.constant(1.0, DType.float16)
        ...     n, state = ops.while_loop([i, h], lambda i, h: i < 3, lambda i, h: [i + 1, h * 0.5 + 1])
        ...     g.output(n, state)
        >>> [a.item() for a in g.compile()()]
        [3, 1.875]
    """
    values = _items(initial_values)
    if not values:
        raise GraphError("while_loop needs at least one loop-carried value (MAX: 'While loops must have at least "
                         "one iteration value'); carry a counter if the loop has no other state")
    return _while(values, predicate, body, "while_loop")


# -- JAX's names and signatures -------------------------------------------------------------------


def lax_cond(pred: TensorValueLike, true_fun: Branch, false_fun: Branch, *operands: TensorValueLike) -> Carry:
    """JAX's ``lax.cond(pred, true_fun, false_fun, *operands)`` (``stablehlo.if``).

    Both branches take ``operands`` and must return the same structure (a value, or a tuple or
    list of values) with the same dtypes and shapes, which are the result's. ``pred`` may be a
    number, read as ``pred != 0``, as JAX reads it.

    Args:
        pred: A bool or numeric scalar.
        true_fun: ``true_fun(*operands)``: the results where ``pred`` holds.
        false_fun: ``false_fun(*operands)``: the results elsewhere.
        *operands: The branches' arguments.

    Returns:
        What the branches return: one value, or a tuple or list of values (weakly typed where both
        branches' are, as in JAX).

    Raises:
        RegionTypeError: ``pred`` is not a scalar number, or the branches disagree on the number,
            dtypes or shapes of their results.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("lax_cond", input_types=[TensorType(DType.int32, []), TensorType(DType.float32, [])]) as g:
        ...     n, x = g.inputs
        ...     g.output(ops.lax_cond(n, lambda v: v + 1, lambda v: v * 10, x))
        >>> g.compile()(np.int32(0), np.float32(2))[0].item()
        20.0
    """
    g = graph_of(pred, *operands)
    p = _predicate(g, pred, "lax_cond: pred", integers=True)
    args = [as_value(x, g, materialize=True) for x in operands]
    holder = _holder(g, 2)
    slots: list[Slot] | None = None
    weak: list[bool] = []
    structure: Callable[[Sequence[Value]], Carry] = _single
    for region, fn, name in zip(holder.regions, (true_fun, false_fun), ("true_fun", "false_fun")):
        with g.building_in(ir.Block.create_at_start(region, [], [])):
            returned = fn(*args)
            results = _values(g, returned, f"lax_cond: {name}")
            if slots is None:
                slots = [(v.storage, v.shape) for v in results]
                weak = [v.is_weak for v in results]
                structure = _structure(returned)
            else:
                _check(results, slots, "lax_cond: false_fun", "true_fun's results")
                weak = [w and v.is_weak for w, v in zip(weak, results)]
            _yield(g, results)
    assert slots is not None
    return structure(_emit(g, "stablehlo.if", [p.ir], holder, slots, weak))


def lax_while_loop(cond_fun: Callable[[Carry], object], body_fun: Callable[[Carry], object], init_val: Carry) -> Carry:
    """JAX's ``lax.while_loop(cond_fun, body_fun, init_val)`` (``stablehlo.while``).

    ``init_val`` is a value (or Python scalar) or a tuple or list of them; ``cond_fun`` and
    ``body_fun`` take one argument of that structure, and ``body_fun`` returns the same structure
    with the same dtypes and shapes. A Python scalar in ``init_val`` takes the dtype the body gives
    it, as in JAX.

    Args:
        cond_fun: ``cond_fun(carry)``: a bool scalar, whether to run the body again.
        body_fun: ``body_fun(carry)``: the next carry.
        init_val: The first carry.

    Returns:
        The carry when ``cond_fun`` first fails, in ``init_val``'s structure (weakly typed where a
        Python scalar's value kept its dtype, as in JAX).

    Raises:
        RegionTypeError: ``cond_fun`` returns no bool scalar, or ``body_fun`` returns another
            structure, dtype or shape than it carries.

    Example:
        >>> from latticecast import DType, Graph, ops
        >>> with Graph("lax_while_loop") as g:
        ...     x = ops.constant(1.0, DType.float16)
        ...     g.output(ops.lax_while_loop(lambda c: c < 100, lambda c: c * 3, x))
        >>> g.compile()()[0].item()
        243.0
    """
    flat = _flatten(init_val)
    rebuild = _structure(init_val)
    results = _while(flat, lambda *xs: cond_fun(rebuild(xs)), lambda *xs: _flatten(body_fun(rebuild(xs))),
                     "lax_while_loop")
    return rebuild(results)


def fori_loop(lower: TensorValueLike, upper: TensorValueLike, body_fun: Callable[[Value, Carry], object],
              init_val: Carry) -> Carry:
    """JAX's ``lax.fori_loop(lower, upper, body_fun, init_val)``: ``body_fun(i, val)`` for ``i`` from
    ``lower`` up to ``upper`` (``stablehlo.while``).

    ``lower`` and ``upper`` are integer scalars: two Python ints count in the policy's default
    integer dtype, weakly typed (``acc + i`` keeps ``acc``'s dtype), a Python int and a value in the
    value's dtype (the int must fit it), two values must share their dtype, as in JAX.

    Args:
        lower: The first index.
        upper: The bound, not included.
        body_fun: ``body_fun(i, val)``: the next ``val``, in ``init_val``'s structure, dtypes and shapes.
        init_val: The first ``val``: a value, a Python scalar, or a tuple or list of them.

    Returns:
        The last ``val`` (``init_val`` when ``upper <= lower``).

    Raises:
        RegionTypeError: A bound is not an integer scalar, the bounds have different dtypes, or
            ``body_fun`` returns another structure, dtype or shape than it carries.
        LiteralRangeError: A Python int bound does not fit the other bound's dtype.

    Example:
        >>> from latticecast import DType, Graph, ops
        >>> with Graph("fori_loop") as g:
        ...     total = ops.fori_loop(0, 5, lambda i, acc: acc + i, ops.constant(0, DType.int32))
        ...     g.output(total)
        >>> g.compile()()[0].item()
        10
    """
    flat = _flatten(init_val)
    g = graph_of(lower, upper, *flat)
    lo, hi = _bounds(g, lower, upper)
    rebuild = _structure(init_val)

    def body(i: Value, *xs: Value) -> list[object]:
        return [i + 1, *_flatten(body_fun(i, rebuild(xs)))]

    results = _while([lo, *flat], lambda i, *xs: i < hi, body, "fori_loop")
    return rebuild(results[1:])


def switch(index: TensorValueLike, branches: Sequence[Branch], *operands: TensorValueLike) -> Carry:
    """JAX's ``lax.switch(index, branches, *operands)``: ``branches[index](*operands)``
    (``stablehlo.case``).

    ``index`` is clamped to ``[0, len(branches) - 1]`` and converted to int32, as in JAX. Every
    branch must return the same structure, dtypes and shapes.

    Args:
        index: An integer scalar.
        branches: The callables to choose from; at least one.
        *operands: Their arguments.

    Returns:
        What the chosen branch returns: a value, or a tuple or list of values (weakly typed where
        every branch's is, as in JAX).

    Raises:
        GraphError: ``branches`` is empty.
        RegionTypeError: ``index`` is not an integer scalar, or the branches disagree on the number,
            dtypes or shapes of their results.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("switch", input_types=[TensorType(DType.int32, [])]) as g:
        ...     (k,) = g.inputs
        ...     g.output(ops.switch(k, [lambda: ops.constant(10, DType.int8), lambda: ops.constant(20, DType.int8)]))
        >>> [g.compile()(np.int32(n))[0].item() for n in (-4, 0, 1, 7)]
        [10, 10, 20, 20]
    """
    branches = list(branches)
    if not branches:
        raise GraphError("switch needs at least one branch (JAX: 'Empty branch sequence'); pass a list of callables")
    g = graph_of(index, *operands)
    k = as_value(index, g, materialize=True)
    if k.shape or not k.storage.is_integral() or k.storage.is_bool:
        raise RegionTypeError(f"switch: index must be an integer scalar, not {_describe(k.storage, k.shape)} "
                              "(JAX: 'Index type must be an integer'); convert it: index.cast(DType.int32)")
    if k.storage is not DType.int32:
        k = convert(k, DType.int32)
    lo = constant_value(g, 0, DType.int32)
    hi = constant_value(g, len(branches) - 1, DType.int32)
    k = Value(g, g._add_op("stablehlo.clamp", [g.tc.tensor(DType.int32, ())], [lo.ir, k.ir, hi.ir]).result,
              DType.int32, ())
    args = [as_value(x, g, materialize=True) for x in operands]
    holder = _holder(g, len(branches))
    slots: list[Slot] | None = None
    weak: list[bool] = []
    structure: Callable[[Sequence[Value]], Carry] = _single
    for n, (region, fn) in enumerate(zip(holder.regions, branches)):
        with g.building_in(ir.Block.create_at_start(region, [], [])):
            returned = fn(*args)
            results = _values(g, returned, f"switch: branches[{n}]")
            if slots is None:
                slots = [(v.storage, v.shape) for v in results]
                weak = [v.is_weak for v in results]
                structure = _structure(returned)
            else:
                _check(results, slots, f"switch: branches[{n}]", "branches[0]'s results")
                weak = [w and v.is_weak for w, v in zip(weak, results)]
            _yield(g, results)
    assert slots is not None
    return structure(_emit(g, "stablehlo.case", [k.ir], holder, slots, weak))


# -- the loop ----------------------------------------------------------------------------------------


def _while(initial: Sequence[TensorValueLike], predicate: Branch, body: Branch, what: str) -> list[Value]:
    """``stablehlo.while`` over ``initial``; ``predicate(*carry)`` and ``body(*carry)``.

    A weakly typed initial value (a Python scalar, or a value computed from Python scalars only) is
    first carried as weak, as JAX traces it; where the body then gives it another dtype, it is
    converted to that dtype (JAX's ``_promote_weak_typed_input``). The regions are then built once
    more with every carried value strongly typed, as the IR's block arguments are.
    """
    g = graph_of(*initial)
    inits = [as_value(x, g, materialize=True) for x in initial]
    if any(v.is_weak for v in inits):
        holder = _holder(g, 1)
        block, args = _block(g, holder.regions[0], inits)
        with g.building_in(block):
            traced = _values(g, body(*args), f"{what}: body")
        for n, (v, r) in enumerate(zip(inits, traced)):
            if v.is_weak and r.shape == v.shape and r.storage is not v.storage:
                inits[n] = convert(v, r.storage)
        del holder, block, args, traced
    slots: list[Slot] = [(v.storage, v.shape) for v in inits]
    holder = _holder(g, 2)
    block, args = _block(g, holder.regions[0], inits)
    with g.building_in(block):
        _yield(g, [_predicate(g, predicate(*args), f"{what}: the predicate", integers=False)])
    block, args = _block(g, holder.regions[1], inits)
    with g.building_in(block):
        results = _values(g, body(*args), f"{what}: body")
        _check(results, slots, f"{what}: body", "the loop-carried values")
        _yield(g, results)
    return _emit(g, "stablehlo.while", [v.ir for v in inits], holder, slots, [v.is_weak for v in inits])


def _bounds(g: "Graph", lower: TensorValueLike, upper: TensorValueLike) -> tuple[Value, Value]:
    """``fori_loop``'s bounds as two integer scalars of one dtype (JAX's rules)."""
    lo, hi = operand(lower, g), operand(upper, g)
    for x, name in ((lo, "lower"), (hi, "upper")):
        kind_ok = (isinstance(x.value, int) and not isinstance(x.value, bool) if isinstance(x, Literal)
                   else x.storage.is_integral() and not x.storage.is_bool)
        if not kind_ok or x.shape:
            got = repr(x.value) if isinstance(x, Literal) else _describe(x.storage, x.shape)
            raise RegionTypeError(f"fori_loop: {name} must be an integer scalar, not {got}; pass a Python int or "
                                  "an integer scalar value")
    if isinstance(lo, Value) and isinstance(hi, Value):
        if lo.storage is not hi.storage:
            raise RegionTypeError(f"fori_loop: lower is {lo.storage.name} and upper is {hi.storage.name} (JAX: "
                                  "'lower and upper arguments to fori_loop must have equal types'); cast one: "
                                  f"upper.cast(DType.{lo.storage.name})")
        return lo, hi
    if isinstance(lo, Value):
        assert isinstance(hi, Literal)
        return lo, constant_value(g, hi.value, lo.storage)
    if isinstance(hi, Value):
        return constant_value(g, lo.value, hi.storage), hi
    dtype = g.policy.materialize(lo.ptype)  # two Python ints: a weakly typed index, as JAX's
    return emit_literal(g, lo, dtype, ()), emit_literal(g, hi, dtype, ())


# -- building regions ---------------------------------------------------------------------------


def _holder(g: "Graph", regions: int) -> ir.Operation:
    """A detached op whose regions hold the blocks while they are built: the real op is made once its
    result types are known and the blocks pass their checks, so a refused branch leaves no op behind."""
    return ir.Operation.create("stablehlo.if", regions=regions, loc=g.loc)


def _block(g: "Graph", region: ir.Region, carry: Sequence[Value]) -> tuple[ir.Block, list[Value]]:
    """A block of ``region`` with an argument of each carried value's type, and those arguments as
    values. A weakly typed carried value (a Python scalar's) stays weak, as JAX traces it: its
    argument is seen through a ``stablehlo.convert`` to its own type marked weak, which tells the pass
    so and which the pass removes."""
    types = [g.tc.tensor(v.storage, v.shape) for v in carry]
    block = ir.Block.create_at_start(region, types, [g.loc] * len(types))
    args = [Value(g, a, v.storage, v.shape) for a, v in zip(block.arguments, carry)]
    if any(v.is_weak for v in carry):
        with g.building_in(block):
            args = [convert(a, a.storage, make_weak=True) if v.is_weak else a for a, v in zip(args, carry)]
    return block, args


def _yield(g: "Graph", values: Sequence[Value]) -> None:
    g._add_op("stablehlo.return", [], [v.ir for v in values])


def _emit(g: "Graph", name: str, operands: Sequence[ir.Value[ir.Type]], holder: ir.Operation,
          slots: Sequence[Slot], weak: Sequence[bool] = ()) -> list[Value]:
    """The op itself, through the graph's one door, with the holder's blocks moved into its regions;
    the results where ``weak`` says so are weakly typed (seen through a convert marked weak, as in
    :func:`_block`)."""
    op = g._add_op(name, [g.tc.tensor(d, s) for d, s in slots], operands, regions=len(holder.regions))
    for source, target in zip(holder.regions, op.regions):
        for block in list(source.blocks):
            block.append_to(target)
    results = [Value(g, r, d, s) for r, (d, s) in zip(op.results, slots)]
    return [convert(v, v.storage, make_weak=True) if w else v for v, w in zip(results, weak)] if any(weak) \
        else results


def _items(x: object) -> list[TensorValueLike]:
    """MAX's reading of what a branch or body returns (and of ``while_loop``'s initial values): ``None``
    is nothing, an iterable several values, anything else one (a NumPy array is one value, a constant)."""
    if x is None:
        return []
    if isinstance(x, Iterable) and not isinstance(x, (np.ndarray, str, bytes)):
        return list(x)
    return [cast(TensorValueLike, x)]  # unchecked here: as_value refuses what is not a tensor value


def _values(g: "Graph", returned: object, what: str) -> list[Value]:
    """What a branch or body returned (:func:`_items`), as graph values (a Python scalar becomes its
    weak constant, of the policy's dtype for it)."""
    items = _items(returned)
    try:
        return [as_value(x, g, materialize=True) for x in items]
    except TypeError as e:
        raise RegionTypeError(f"{what} returned something that is not a tensor value: {e}") from None


def _check(results: Sequence[Value], slots: Sequence[Slot], what: str, against: str) -> None:
    if len(results) != len(slots):
        raise RegionTypeError(f"{what} returned {len(results)} value(s), but {against} are {len(slots)}: "
                              f"[{', '.join(_describe(*s) for s in slots)}]; return one value for each")
    for n, (v, (dtype, shape)) in enumerate(zip(results, slots)):
        if v.storage is dtype and v.shape == shape:
            continue
        if v.storage is not dtype:
            literal = " (a Python scalar takes the policy's dtype for it)" if v.is_weak else ""
            fix = f"cast it: value.cast(DType.{dtype.name}){literal}"
        else:
            fix = "reshape or broadcast it"
        raise RegionTypeError(f"{what}: result {n} is {_describe(v.storage, v.shape)}, but {against} have "
                              f"{_describe(dtype, shape)} there; {_NO_PROMOTION}: {fix}")


def _predicate(g: "Graph", pred: object, what: str, *, integers: bool) -> Value:
    """A bool scalar to branch or loop on (``integers``: a number reads as ``!= 0``, as JAX's ``cond``)."""
    try:
        p = as_value(cast(TensorValueLike, pred), g, materialize=True)  # refused below if it is none
    except TypeError as e:
        raise RegionTypeError(f"{what} must be a bool scalar: {e}") from None
    if p.shape:
        raise RegionTypeError(f"{what} must be a scalar, not {_describe(p.storage, p.shape)}; reduce it (e.g. "
                              "ops.reduce_max) or index one element")
    if p.storage.is_bool:
        return p
    if integers and not p.storage.is_complex:
        return p != 0
    raise RegionTypeError(f"{what} must be a bool scalar (bool[]), not {_describe(p.storage, p.shape)}; compare it "
                          "first (x != 0)")


def _slot(t: object, what: str) -> Slot:
    try:
        tt = as_tensor_type(t)
    except GraphError as e:
        raise RegionTypeError(f"{what}: {e}") from None
    return tt.dtype, tt.shape


def _describe(dtype: DType, shape: Shape) -> str:
    return f"{dtype.name}[{', '.join(map(str, shape))}]"


def _flatten(tree: Carry) -> list[TensorValueLike]:
    """A loop's carry as a flat list: a tuple or list is its items, anything else one value."""
    return list(tree) if isinstance(tree, (list, tuple)) else [tree]


def _single(values: Sequence[Value]) -> Carry:
    return values[0] if len(values) == 1 else list(values)


def _structure(tree: object) -> Callable[[Sequence[object]], Carry]:
    """How to give flat values ``tree``'s structure back: a tuple, a list, or one value."""
    if isinstance(tree, tuple):
        return tuple
    if isinstance(tree, list):
        return list
    if tree is None:
        return lambda values: None
    return lambda values: values[0]
