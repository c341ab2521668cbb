"""Re-infer every value's element type under a policy: a program under another promotion system.

The ``implicit-cast`` pass checks the result types a program declares. This analysis ignores
them wherever promotion decides them, and asks the policy instead, through the whole program:

- a promoting op (:data:`~latticecast.promotion.op_rules.STABLEHLO`) gets :func:`~latticecast.promotion.op_rules.decide`'s
  result for its operands' *inferred* types (so a change propagates), with PyTorch's 0-d rule for a
  rank-sensitive policy (an operand of rank 0, or a broadcast of one marked implicit);
- data movement and the unary ops that keep their operand's type
  (:data:`~latticecast.promotion.op_rules.WEAK_TRANSPARENT`) take their first operand's type, weak when all are;
- a constant is its declared type, weak where it carries ``latticecast.weak``;
- a ``stablehlo.if``/``case`` result is its first branch's yield, a ``stablehlo.while`` result and
  body argument the carried operand's type (nothing promotes across a region boundary);
- a ``func.call`` result is the callee's output for the argument types of the call;
- an op whose declared result has its operand's element type (``reduce``, ``gather``, ``sort``, a
  ``custom_call``) keeps following it: its result takes that operand's inferred type;
- every other op (``convert``, ``iota``, ``compare``'s ``i1``, ...) keeps its declared result type.

The inference is sparse: it starts where a policy has something to decide (an op whose promoted
operands differ in type or are weak, a weak constant), and follows only what changes, in program
order, so a legal module costs one walk. What it gives is used twice: by :func:`compare`
(``latticecast compare``, ``Graph.compare``, :func:`latticecast.retarget`), which lists the ops whose
dtype differs between two policies, and by the pass's ``retype-results`` mode (:func:`retype_results`),
which rewrites the declared result types to the inferred ones before the pass converts operands.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from jaxlib.mlir import ir

from ..dialect_utils.diagnostics import location_parts
from ..dialect_utils.types import TypeCache, type_cache
from ..promotion.dtypes import DType
from ..errors import LatticecastError
from ..promotion.op_rules import CONSTANT_LIKE, STABLEHLO, WEAK_ATTR, WEAK_TRANSPARENT, OpPromotion, OpRule, decide
from ..promotion.weak import PType, Weak, weak_of
from .base import top_level_functions
from .rank import BROADCASTS, zero_dim_flag, zero_dim_readings

if TYPE_CHECKING:
    from ..policies import Policy

__all__ = ["Inference", "infer_types", "TypeChange", "Comparison", "compare", "retype_results", "Program"]

_NOT_A_TENSOR = (TypeError, ValueError, LatticecastError)
"""What reading a value's dtype raises for a value that is not a tensor of a latticecast dtype."""
_REGION_RESULTS = frozenset({"stablehlo.if", "stablehlo.case"})
_DECLARED = frozenset({"stablehlo.convert", "stablehlo.bitcast_convert", "stablehlo.iota", "stablehlo.rng",
                       "stablehlo.rng_bit_generator", "stablehlo.real", "stablehlo.imag", "stablehlo.is_finite",
                       "stablehlo.get_dimension_size", "stablehlo.popcnt", "stablehlo.count_leading_zeros",
                       "stablehlo.while", "stablehlo.if", "stablehlo.case", "func.call", "func.return",
                       "stablehlo.return", "stablehlo.optimization_barrier", "stablehlo.after_all",
                       "stablehlo.create_token", "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.send",
                       "stablehlo.recv"})
"""Ops whose results never follow an operand's element type (they have their own rule here, or a dtype
of their own)."""


class Program:
    """A module read once for inference: its functions, every op's place in program order, and where
    a policy has something to decide (the *sites*: promoted ops with mixed or weak operands, weak
    constants and arguments).

    Args:
        module: The module (or its operation).
        sites: The sites, when the caller knows them (``lift-implicit-casts`` does); by default a walk
            finds them.
    """

    def __init__(self, module: "ir.Module | ir.Operation", sites: "Iterable[ir.Operation] | None" = None, *,
                 position: "dict[ir.Operation, int] | None" = None,
                 calls: "dict[str, list[ir.Operation]] | None" = None,
                 weak: "tuple[Policy, Iterable[tuple[ir.Value[ir.Type], DType | None]]] | None" = None,
                 literals: "Iterable[tuple[ir.Value[ir.Type], DType | None]]" = ()) -> None:
        root = module.operation if isinstance(module, ir.Module) else module
        self.root: ir.Operation = root
        self.tc: TypeCache = type_cache(root.context)
        self.functions = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in top_level_functions(root)}
        self.position: dict[ir.Operation, int] = {}
        self.sites: list[ir.Operation] = []
        self.calls: dict[str, list[ir.Operation]] = {}
        """The ``func.call`` ops of each callee."""
        self.written_under: "Policy | None" = None
        """The policy whose types the module declares (it was lifted under it), if known."""
        self.weak: list[tuple[ir.Value[ir.Type], DType | None]] = []
        """The values weak under :attr:`written_under`, each with its declared dtype where the caller
        knows it (``None``: read it)."""
        self.literals: list[tuple[ir.Value[ir.Type], DType | None]] = []
        """Weak literals and the data movement that carries them to the sites that read them (which
        are sites), with their dtypes as :attr:`weak` has them: weak under every policy, so an inference
        starts with them weak, visiting none."""
        if position is not None and sites is not None and calls is not None:  # what a lift read already
            self.position, self.calls = position, calls
            self.sites.extend(sites)
        else:
            self._walk(sites)
        if weak is not None:
            self.written_under, values = weak
            self.weak = list(values)
        self.literals = list(literals)

    def _walk(self, known: "Iterable[ir.Operation] | None") -> None:
        position, sites, calls = self.position, self.sites, self.calls
        counter = [0]
        rules, constants = STABLEHLO, CONSTANT_LIKE
        find = known is None

        def visit(op: ir.Operation) -> ir.WalkResult:
            counter[0] += 1
            position[op] = counter[0]
            name = op.name
            if name == "func.call" and "callee" in op.attributes:
                calls.setdefault(ir.FlatSymbolRefAttr(op.attributes["callee"]).value, []).append(op)
            elif find:
                if name in rules:
                    operands = op.operands
                    if len(operands) >= 2:
                        first = operands[0].type
                        if any(v.type != first for v in operands) or WEAK_ATTR in op.attributes:
                            sites.append(op)
                        elif name == "stablehlo.select" and len(operands) == 3 and operands[1].type != operands[2].type:
                            sites.append(op)
                elif name in constants and WEAK_ATTR in op.attributes:
                    sites.append(op)
            return ir.WalkResult.ADVANCE

        self.root.walk(visit, ir.WalkOrder.PRE_ORDER)
        if known is not None:
            sites.extend(known)

    def in_order(self, ops: Iterable[ir.Operation]) -> list[ir.Operation]:
        """``ops`` in program order (a lift knows the places of promoted ops only: then a walk that stops
        once it has seen them all places every one)."""
        ops = list(ops)
        if all(op in self.position for op in ops):
            return sorted(ops, key=lambda o: self.position[o])
        wanted = set(ops)
        found: dict[ir.Operation, int] = {}

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op in wanted:
                found[op] = len(found)
                if len(found) == len(wanted):
                    return ir.WalkResult.INTERRUPT
            return ir.WalkResult.ADVANCE

        self.root.walk(visit, ir.WalkOrder.PRE_ORDER)
        return sorted(ops, key=lambda o: found.get(o, len(found)))

    @property
    def mixed(self) -> bool:
        """Whether any op has something for a policy to decide: a mixed-dtype or weak operand, or a weak
        argument. ``False`` for a legal module whose promotions are already written as converts."""
        return bool(self.sites) or any(_weak_arguments(f) for f in self.functions.values())

    def declared(self, value: ir.Value[ir.Type]) -> DType | None:
        """``value``'s declared dtype; ``None`` for a value that is not a tensor of a latticecast dtype."""
        info = self.tensor_info(value)
        return None if info is None else info[0]

    def tensor_info(self, value: ir.Value[ir.Type]) -> "tuple[DType, tuple[int | None, ...]] | None":
        """``value``'s declared dtype and shape (:meth:`~latticecast.dialect_utils.types.TypeCache.tensor_info`);
        ``None`` for a value that is not a tensor of a latticecast dtype."""
        try:
            return self.tc.tensor_info(value.type)
        except _NOT_A_TENSOR:
            return None


@dataclass
class Inference:
    """Every tensor value's element type under one policy (weak where the value is weakly typed).

    Attributes:
        policy: The policy the types were inferred under.
        types: The inferred type of each value whose type differs from the declared one, or is weak;
            every other value has its declared type (:meth:`type_of`).
        refusals: Ops whose promotion the policy refuses, with the reason (their result keeps its
            declared type, so the analysis goes on).
        outputs: Each function's inferred output types, by symbol name.
        followed: The values typed because their op keeps an operand's element type (``reduce``):
            what :func:`retype_results` leaves alone.
    """

    policy: "Policy"
    types: dict[ir.Value[ir.Type], PType] = field(default_factory=dict)
    refusals: list[tuple[ir.Operation, str]] = field(default_factory=list)
    outputs: dict[str, list[PType]] = field(default_factory=dict)
    followed: set[ir.Value[ir.Type]] = field(default_factory=set)
    program: Program | None = None

    def type_of(self, value: ir.Value[ir.Type]) -> PType | None:
        """``value``'s type under the policy (weak or not); ``None`` for a value that is not a tensor of a
        latticecast dtype."""
        found = self.types.get(value)
        if found is not None:
            return found
        return self.program.declared(value) if self.program is not None else None

    def dtype(self, value: ir.Value[ir.Type]) -> DType | None:
        """The dtype ``value`` ends up with (a weak type materialised by the policy's rule)."""
        t = self.type_of(value)
        if t is None:
            return None
        return self.policy.materialize(t) if isinstance(t, Weak) else t


def infer_types(module: "ir.Module | ir.Operation | Program", policy: "Policy", *, follow: bool = True) -> Inference:
    """Infer the element type of every value of ``module``'s functions under ``policy``.

    Args:
        module: A module (or its operation) holding ``func.func`` ops, or a :class:`Program` read from one.
        policy: The policy whose promotion decides the types.
        follow: Let an op whose result has its operand's element type (``reduce``) follow it; without,
            such an op keeps its declared type (what a rewrite that cannot retype it needs).

    Returns:
        The :class:`Inference`.

    Example:
        >>> from latticecast import policy
        >>> from latticecast.passes.infer_types import compare, infer_types
        >>> from latticecast.dialect_utils.context import make_context
        >>> from latticecast.dialect_utils.parsing import parse_module
        >>> m = parse_module('func.func @f(%a: tensor<2xi32>, %b: tensor<2xf16>) -> tensor<2xf16> {'
        ...           '  %0 = "stablehlo.add"(%a, %b) : (tensor<2xi32>, tensor<2xf16>) -> tensor<2xf16>'
        ...           '  return %0 : tensor<2xf16> }', make_context(lenient=True), lenient=True)
        >>> [policy("numpy").type_name(t) for t in infer_types(m, policy("numpy")).outputs["f"]]
        ['f64']
    """
    program = module if isinstance(module, Program) else Program(module)
    inferrer = _Inferrer(program, policy)
    inferrer.follow = follow
    inferrer.run()
    return inferrer.result


class _Inferrer:
    """The sparse inference: a queue of ops, each visited again whenever an operand's type changes,
    until nothing changes (the sites first, in program order; an op's result depends on its operands
    only, and SSA values flow forwards, so the queue empties)."""

    def __init__(self, program: Program, policy: "Policy") -> None:
        self.program = program
        self.policy = policy
        self.result = Inference(policy, program=program)
        self.queue: deque[ir.Operation] = deque()
        self.queued: set[ir.Operation] = set()
        self.refused: dict[ir.Operation, str] = {}
        self.calls: dict[tuple[str, tuple[PType | None, ...]], list[PType]] = {}
        self.busy: set[str] = set()
        self.nested = False  # a callee's inference for one call's argument types: its callers are not its own
        self.follow = True
        self.outcomes: dict[tuple[object, ...], PType | LatticecastError] = {}
        """Each result type (or refusal) decided, by rule, operand types, 0-d flags and declared result type."""

    def run(self) -> None:
        program = self.program
        for func in program.functions.values():
            block = _entry(func)
            if block is None:
                continue
            for i in _weak_arguments(func):
                if i < len(block.arguments):
                    arg = block.arguments[i]
                    t = program.declared(arg)
                    if t is not None:
                        self.set(arg, weak_of(t))
        types = self.result.types
        for value, t in program.literals:  # a Python literal is weak under every policy: no op to visit for it
            if t is None:
                t = program.declared(value)
            if t is not None:
                types[value] = weak_of(t)
        for op in program.sites:
            if op.name in CONSTANT_LIKE:
                if op.results[0] in types:
                    continue
                t = program.declared(op.results[0])
                if t is not None:
                    self.set(op.results[0], weak_of(t))
            else:  # the sites are distinct: queued unmarked (an op queued again before its visit is visited twice)
                self.queue.append(op)
        self.drain()
        self.result.refusals = list(self.refused.items())
        for name, func in program.functions.items():
            self.result.outputs[name] = [t for t in (self.result.type_of(v) for v in _returned(func)) if t is not None]

    # -- the queue ---------------------------------------------------------------------------------

    def push(self, op: ir.Operation) -> None:
        if op in self.queued:
            return
        self.queued.add(op)
        self.queue.append(op)

    def set(self, value: ir.Value[ir.Type], t: PType, declared: "DType | None | bool" = False) -> None:
        """``value`` has type ``t``: record it (only where it differs from the declared type, or is weak)
        and queue the ops that read it. ``declared``: ``value``'s declared dtype, when the caller read it."""
        types = self.result.types
        if declared is False:
            declared = self.program.declared(value)
        old = types.get(value)
        if isinstance(t, Weak) or t is not declared:
            if old == t:
                return
            types[value] = t
        else:
            if old is None:
                return
            del types[value]
        for use in value.uses:
            self.push(use.owner.operation)

    def _operands(self, values: "list[ir.Value[ir.Type]]") -> \
            "tuple[tuple[PType, ...], tuple[bool | str, ...] | None] | None":
        """The inferred types of an op's promoted operands and, under a rank-sensitive policy, how it
        ranks them (:func:`.rank.zero_dim_flag`), each operand's type read once; ``None`` when one is
        not a tensor of a latticecast dtype."""
        types, program = self.result.types, self.program
        ranked = self.policy.rank_sensitive
        out: list[PType] = []
        flags: list[bool | str] = []
        for v in values:
            t = types.get(v)
            if t is None or ranked:
                info = program.tensor_info(v)
                if t is None:
                    if info is None:
                        return None
                    t = info[0]
                if ranked:
                    flags.append(zero_dim_flag(v, None if info is None else len(info[1])))
            out.append(t)
        return tuple(out), (tuple(flags) if ranked else None)

    def _outcome(self, rule: OpRule, types: "tuple[PType, ...]", flags: "tuple[bool | str, ...] | None",
                 declared: "DType | None") -> "PType | LatticecastError":
        """The type of the result of an op of ``rule`` (its declared one where the decision accepts it,
        as a dot's accumulation type), or the policy's refusal. Made once per key: a module repeats a
        few keys over and over (a transformer's 1,250 promoted ops have a handful)."""
        key = (rule.name, types, flags, declared)  # a rule's name is its decision's (op_rules.decide)
        found = self.outcomes.get(key)
        if found is None:
            decision = self._decision(rule, types, flags, declared)
            if isinstance(decision, LatticecastError):
                found = decision
            elif isinstance(declared, DType) and decision.accepts_result(declared, self.policy) and \
                    not decision.result_weak:
                found = declared
            else:
                found = decision.result_ptype
            self.outcomes[key] = found
        return found

    def _decision(self, rule: OpRule, types: "tuple[PType, ...]", flags: "tuple[bool | str, ...] | None",
                  declared: "DType | None") -> "OpPromotion | LatticecastError":
        """The policy's decision for an op of ``rule`` (or its refusal); under a rank-sensitive policy
        with the operands read as the pass reads them (an unmarked broadcast of a 0-d tensor: the 0-d
        tensor, unless the declared result type admits only the dimensioned reading;
        :func:`.rank.zero_dim_readings`)."""
        first: OpPromotion | None = None
        problem: LatticecastError | None = None
        for reading in zero_dim_readings(flags):
            try:
                decision = decide(self.policy, rule, types, reading)
            except LatticecastError as e:
                problem = problem or e
                continue
            if flags is None or not isinstance(declared, DType) or decision.accepts_result(declared, self.policy):
                return decision
            first = first or decision
        if first is None:
            assert problem is not None
            return problem
        return first

    def drain(self) -> None:
        queue, queued = self.queue, self.queued
        while queue:
            op = queue.popleft()
            if queued:  # empty while only the sites, queued unmarked, are visited (hashing an op is not free)
                queued.discard(op)
            self.visit(op)

    # -- one op --------------------------------------------------------------------------------------

    def visit(self, op: ir.Operation) -> None:
        name = op.name
        results = op.results
        if name == "func.return":  # the callers see the new outputs
            func = None if self.nested else _function_of(op)
            if func is not None:
                for call in self.program.calls.get(ir.StringAttr(func.attributes["sym_name"]).value, ()):
                    self.push(call)
            return
        if not results and name != "stablehlo.return":
            return
        rule = STABLEHLO.get(name)
        type_of = self.result.type_of
        if rule is not None:
            if not results:
                return
            operands = op.operands
            chosen = list(operands) if rule.operands is None else \
                [operands[i] for i in rule.operands if i < len(operands)]
            read = self._operands(chosen)
            if read is None:
                return
            result = results[0]
            declared = self.program.declared(result)
            outcome = self._outcome(rule, read[0], read[1], declared)
            if isinstance(outcome, LatticecastError):
                self.refused[op] = str(outcome)
                return
            if self.refused:
                self.refused.pop(op, None)
            self.set(result, outcome, declared)
        elif name in WEAK_TRANSPARENT and len(op.operands):
            ts = [type_of(v) for v in op.operands]
            t = ts[0]
            if t is not None:
                if isinstance(t, Weak) and not all(isinstance(x, Weak) for x in ts):
                    t = t.dtype
                self.set(results[0], t)
        elif name == "stablehlo.while":
            self._while(op)
        elif name == "stablehlo.return":
            parent = op.parent
            if parent is not None and parent.operation.name in _REGION_RESULTS:
                self._region_results(parent.operation)
        elif name in _REGION_RESULTS:
            self._region_results(op)
        elif name == "func.call" and "callee" in op.attributes:
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            if callee in self.program.functions:
                for r, t in zip(results, self.call(callee, [type_of(v) for v in op.operands])):
                    self.set(r, t)
        elif self.follow and name not in _DECLARED and name not in CONSTANT_LIKE:
            self._follow(op)

    def _follow(self, op: ir.Operation) -> None:
        """An op whose result has its operand's element type keeps following it (``reduce``: operand i
        and result i; anything else: the first operand)."""
        operands, results = op.operands, op.results
        declared, type_of = self.program.declared, self.result.type_of
        pairs = list(zip(operands, results)) if len(results) > 1 else [(operands[0], results[0])] if len(operands) else []
        for v, r in pairs:
            d = declared(r)
            if d is None or declared(v) is not d:
                continue
            t = type_of(v)
            if t is None:
                continue
            t = t.dtype if isinstance(t, Weak) else t
            self.result.followed.add(r)
            self.set(r, t)

    def _while(self, op: ir.Operation) -> None:
        type_of = self.result.type_of
        operand_types = [type_of(v) for v in op.operands]
        for region in op.regions:
            for block in region.blocks:
                for arg, t in zip(block.arguments, operand_types):
                    if t is not None:
                        self.set(arg, t)
        for r, t in zip(op.results, operand_types):
            if t is not None:
                self.set(r, t)

    def _region_results(self, op: ir.Operation) -> None:
        if not op.regions or not op.regions[0].blocks:
            return
        block = op.regions[0].blocks[0]
        ops = list(block.operations)
        yielded = ops[-1].operands if ops else []
        for r, v in zip(op.results, yielded):
            t = self.result.type_of(v)
            if t is not None:
                self.set(r, t)

    def call(self, name: str, arguments: list[PType | None]) -> list[PType]:
        """The outputs of function ``name`` for arguments of these types (each signature inferred once;
        a recursive call gives the declared outputs)."""
        func = self.program.functions[name]
        key = (name, tuple(arguments))
        found = self.calls.get(key)
        if found is not None:
            return found
        declared = [self.program.declared(v) for v in _returned(func)]
        block = _entry(func)
        if name in self.busy or block is None:
            return [t for t in declared if t is not None]
        if all(a is self.program.declared(arg) for a, arg in zip(arguments, block.arguments)):
            # its own signature: the function's own inference (its return queues this call again)
            return [t for t in (self.result.type_of(v) for v in _returned(func)) if t is not None]
        self.busy.add(name)
        sub = _Inferrer(self.program, self.policy)
        sub.busy, sub.nested, sub.follow = self.busy, True, self.follow
        for arg, t in zip(block.arguments, arguments):
            if t is not None:
                sub.set(arg, t)
        for op in self.program.sites:
            if op.parent is not None and _function_of(op) == func:
                sub.push(op)
        sub.drain()
        self.busy.discard(name)
        outputs = [t for t in (sub.result.type_of(v) for v in _returned(func)) if t is not None]
        self.calls[key] = outputs
        return outputs


def _entry(func: ir.Operation) -> ir.Block | None:
    if not func.regions or not func.regions[0].blocks:
        return None
    block: ir.Block = func.regions[0].blocks[0]
    return block


def _weak_arguments(func: ir.Operation) -> list[int]:
    if "arg_attrs" not in func.attributes:
        return []
    return [i for i, attrs in enumerate(ir.ArrayAttr(func.attributes["arg_attrs"])) if WEAK_ATTR in ir.DictAttr(attrs)]


def _function_of(op: ir.Operation) -> ir.Operation | None:
    p = op.parent
    while p is not None and p.operation.name != "func.func":
        p = p.operation.parent
    return p.operation if p is not None else None


def _returned(func: ir.Operation) -> list[ir.Value[ir.Type]]:
    """What ``func`` returns (its terminator read directly: a block of a million ops is not listed)."""
    block = _entry(func)
    if block is None:
        return []
    try:  # an empty block, or one without a terminator, raises (len(block.operations) would count them all)
        last = ir.InsertionPoint.at_block_terminator(block).ref_operation
    except (ValueError, RuntimeError):
        return []
    return list(last.operands) if last is not None and last.name == "func.return" else []


@dataclass(frozen=True)
class TypeChange:
    """One op result whose dtype differs between two policies (``None``: the policy refuses the op).

    ``location`` is where the op is (``file:line:col``, or the location's text); ``op_ref`` the op itself,
    for a report that wants more of it (its source line).
    """

    op: str
    location: str
    this: DType | None
    other: DType | None
    op_ref: ir.Operation | None = field(default=None, compare=False, repr=False)


@dataclass
class Comparison:
    """A program under two policies: what :func:`compare` found.

    Attributes:
        this: The first policy's inference.
        other: The second policy's inference.
        changes: The op results whose dtype differs, in program order.
        outputs: Per function whose outputs differ: the outputs under each policy.
        mixed: Whether the program had anything for a policy to decide. ``False`` for a legal module
            whose promotions are already written as converts: nothing was compared, and :meth:`render`
            says so instead of "0 ops differ".
    """

    this: Inference
    other: Inference
    changes: list[TypeChange]
    outputs: dict[str, tuple[list[DType], list[DType]]]
    mixed: bool = True

    def render(self) -> str:
        """The report as text: one line per differing op, then the outputs that change."""
        a, b = self.this.policy, self.other.policy
        if not self.mixed:
            return (f"nothing to compare: the program has no mixed-dtype op and no weak value, so its promotions "
                    f"are already written as stablehlo.convert ops (it has been legalised) and {a.name} and "
                    f"{b.name} have nothing left to decide; name the policy that wrote it with --from (for "
                    f"example --from jax or --from torch) to lift its promotions first\n")
        lines = []
        for c in self.changes:
            mine = "refused" if c.this is None else a.type_name(c.this)
            theirs = "refused" if c.other is None else b.type_name(c.other)
            lines.append(f"{c.location}: '{c.op}': {a.name} {mine}, {b.name} {theirs}")
        if not self.changes:
            lines.append(f"every op has the same dtype under {a.name} and {b.name}")
        for name, (mine_out, theirs_out) in self.outputs.items():
            lines.append(f"@{name} outputs: {a.name} ({', '.join(a.type_name(t) for t in mine_out)}), "
                         f"{b.name} ({', '.join(b.type_name(t) for t in theirs_out)})")
        n, m = len(self.changes), len(self.outputs)
        lines.append(f"{n} op{' differs' if n == 1 else 's differ'} in dtype; {m} function"
                     f"{' changes its' if m == 1 else 's change their'} outputs")
        return "\n".join(lines) + "\n"


def compare(module: "ir.Module | ir.Operation | Program", policy: "Policy", other: "Policy") -> Comparison:
    """Infer ``module``'s types under two policies and list where they differ.

    Args:
        module: The program (or a :class:`Program` read from it: ``Program(module, lifted.sites)`` for a
            module ``lift-implicit-casts`` lifted, whose sites the lift knows).
        policy: The first policy.
        other: The policy to compare it with.

    Returns:
        The :class:`Comparison`.

    Example:
        >>> from latticecast import policy
        >>> from latticecast.passes.infer_types import compare, infer_types
        >>> from latticecast.dialect_utils.context import make_context
        >>> from latticecast.dialect_utils.parsing import parse_module
        >>> m = parse_module('func.func @f(%a: tensor<2xi32>, %b: tensor<2xf16>) -> tensor<2xf16> {'
        ...           '  %0 = "stablehlo.add"(%a, %b) : (tensor<2xi32>, tensor<2xf16>) -> tensor<2xf16>'
        ...           '  return %0 : tensor<2xf16> }', make_context(lenient=True), lenient=True)
        >>> c = compare(m, policy("jax"), policy("numpy"))
        >>> [(x.this.name, x.other.name) for x in c.changes]
        [('float16', 'float64')]
    """
    program = module if isinstance(module, Program) else Program(module)
    if program.written_under is policy:  # its declared types are policy's own (the law): nothing to infer
        first = Inference(policy, {v: weak_of(t) for v, known in program.weak
                                   if (t := known if known is not None else program.declared(v)) is not None},
                          program=program)
        for name, func in program.functions.items():
            first.outputs[name] = [first.types.get(v) or t for v in _returned(func)
                                   if (t := program.declared(v)) is not None]
    else:
        first = infer_types(program, policy)
    second = infer_types(program, other)
    refused_a = {op: None for op, _ in first.refusals}
    refused_b = {op: None for op, _ in second.refusals}
    # the ops that may differ: a refusal, or a value of an op whose dtype does (a value in neither
    # inference has its declared type under both); only those are put in program order
    candidates: dict[ir.Operation, None] = {**refused_a, **refused_b}
    a_types, b_types = first.types, second.types

    def literal(value: ir.Value[ir.Type], op: "ir.Operation | ir.OpView") -> bool:
        """A literal, weak on both sides: it has no dtype of its own until an op promotes it."""
        return isinstance(a_types.get(value), Weak) and isinstance(b_types.get(value), Weak) \
            and op.name not in STABLEHLO

    materialized: dict[tuple[bool, PType], DType] = {}  # a literal module has a few weak types, many times over
    for value in (*a_types, *(v for v in b_types if v not in a_types)):
        ta, tb = a_types.get(value), b_types.get(value)
        if ta is None or tb is None:
            differs = first.dtype(value) != second.dtype(value)
        elif isinstance(ta, Weak) or isinstance(tb, Weak):
            mine, theirs = materialized.get((True, ta)), materialized.get((False, tb))
            if mine is None:
                mine = materialized[True, ta] = policy.materialize(ta) if isinstance(ta, Weak) else ta
            if theirs is None:
                theirs = materialized[False, tb] = other.materialize(tb) if isinstance(tb, Weak) else tb
            differs = mine != theirs
        else:
            differs = ta != tb
        if differs:
            owner = value.owner
            if not isinstance(owner, ir.Block) and not literal(value, owner):
                candidates[owner.operation] = None
    changes: list[TypeChange] = []
    for op in program.in_order(candidates):
        for r in op.results:
            if literal(r, op):
                continue
            mine = None if op in refused_a else first.dtype(r)
            theirs = None if op in refused_b else second.dtype(r)
            if mine != theirs:
                changes.append(TypeChange(op.name, _where(op.location), mine, theirs, op))
                break
    outputs: dict[str, tuple[list[DType], list[DType]]] = {}
    for name, mine_out in first.outputs.items():
        a = [policy.materialize(t) if isinstance(t, Weak) else t for t in mine_out]
        b = [other.materialize(t) if isinstance(t, Weak) else t for t in second.outputs.get(name, [])]
        if a != b:
            outputs[name] = (a, b)
    return Comparison(first, second, changes, outputs, program.mixed)


def _where(loc: ir.Location) -> str:
    parts = location_parts(loc)
    return f"{parts[0]}:{parts[1]}:{parts[2]}" if parts else str(loc)


def retype_results(module: "ir.Module | ir.Operation", policy: "Policy") -> int:
    """Give every result of a promoted op or of data movement the element type :func:`infer_types`
    infers under ``policy`` (a weak one its weak type's dtype: the pass settles what stays weak), and
    refresh the function signatures.

    Where such a value reaches an op whose own types are fixed (``reduce``, ``while``, a region's
    ``return``, ``func.call``, ``custom_call``), a ``stablehlo.convert`` back to the written type goes
    before it, so that the program still verifies: that op keeps computing in the type the program
    was written for (a comparison lists it as it would change).

    This is ``implicit-cast{retype-results}``'s first step; the pass then converts operands as usual.

    Args:
        module: The program, rewritten in place.
        policy: The policy whose promotion decides the types.

    Returns:
        How many values were retyped.
    """
    from ..dialect_utils.placement import after_definition
    from .lower_dtypes import refresh_function_type

    root = module.operation if isinstance(module, ir.Module) else module
    inference = infer_types(root, policy, follow=False)
    tc = type_cache(root.context)
    retyped: list[tuple[ir.Value[ir.Type], ir.Type]] = []
    for value, t in inference.types.items():
        owner = value.owner
        if isinstance(owner, ir.Block):
            continue
        if isinstance(t, Weak):  # a weak result takes its dtype (the pass settles what stays weak)
            t = t.dtype
        name = owner.operation.name
        if name not in STABLEHLO and name not in WEAK_TRANSPARENT:
            continue
        try:
            declared = tc.tensor_info(value.type)[0]
        except _NOT_A_TENSOR:
            continue
        if declared is not t:
            retyped.append((value, value.type))
            value.set_type(tc.with_element(value.type, t))
    with root.context:
        for value, written in retyped:
            back = None
            for use in list(value.uses):
                user = use.owner.operation
                name = user.name
                if name in STABLEHLO or name in WEAK_TRANSPARENT or name in _RETYPED_FREELY:
                    continue
                if back is None:
                    ip, loc = after_definition(value)
                    back = ir.Operation.create("stablehlo.convert", results=[written], operands=[value], loc=loc,
                                               ip=ip).result
                user.operands[use.operand_number] = back
    if retyped:
        for func in top_level_functions(root):
            refresh_function_type(func)
    return len(retyped)


_RETYPED_FREELY = frozenset({"func.return", "stablehlo.convert"})
"""Users that take a retyped value as it is: a function's return (its signature follows) and a convert."""
