"""Re-infer every value's element type under a policy: a program under another promotion system.

The ``implicit-cast`` pass checks the result types a program declares. This analysis ignores
them wherever promotion decides them, and asks the policy instead, through the whole program:

- a promoting op (:data:`~latticecast.op_rules.STABLEHLO`) gets :func:`~latticecast.op_rules.decide`'s
  result for its operands' *inferred* types (so a change propagates);
- data movement and the unary ops that keep their operand's type
  (:data:`~latticecast.op_rules.WEAK_TRANSPARENT`) take their first operand's type, weak when all are;
- a constant is its declared type, weak where it carries ``latticecast.weak``;
- a ``stablehlo.if``/``case`` result is its first branch's yield, a ``stablehlo.while`` result and
  body argument the carried operand's type (nothing promotes across a region boundary);
- a ``func.call`` result is the callee's inferred output;
- every other op (``convert``, ``iota``, ``reduce``, ...) keeps its declared result type.

What it gives is used twice: by :func:`compare` (``latticecast compare``, ``Graph.compare``), which
lists the ops whose dtype differs between two policies, and by the pass's ``retype-results`` mode
(:func:`retype_results`), which rewrites the declared result types to the inferred ones before the pass
converts operands: what a frontend that writes mixed IR without result types needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlib.mlir import ir

from ..dialect_utils.diagnostics import location_parts
from ..dialect_utils.types import type_cache
from ..dtypes import DType
from ..errors import LatticecastError
from ..op_rules import CONSTANT_LIKE, STABLEHLO, WEAK_ATTR, WEAK_TRANSPARENT, decide
from ..weak import PType, Weak
from .base import top_level_functions

if TYPE_CHECKING:
    from ..policies import Policy

__all__ = ["Inference", "infer_types", "TypeChange", "Comparison", "compare", "retype_results"]

_REGION_RESULTS = frozenset({"stablehlo.if", "stablehlo.case"})


@dataclass
class Inference:
    """Every tensor value's element type under one policy (weak where the value is weakly typed).

    Attributes:
        policy: The policy the types were inferred under.
        types: The inferred type of each value the analysis reached.
        refusals: Ops whose promotion the policy refuses, with the reason (their result keeps its
            declared type, so the analysis goes on).
        outputs: Each function's inferred output types, by symbol name.
    """

    policy: "Policy"
    types: dict[ir.Value[ir.Type], PType] = field(default_factory=dict)
    refusals: list[tuple[ir.Operation, str]] = field(default_factory=list)
    outputs: dict[str, list[PType]] = field(default_factory=dict)

    def dtype(self, value: ir.Value[ir.Type]) -> DType | None:
        """The dtype ``value`` ends up with (a weak type materialised by the policy's rule)."""
        t = self.types.get(value)
        if t is None:
            return None
        return self.policy.materialize(t) if isinstance(t, Weak) else t


def _functions(module: ir.Operation) -> dict[str, ir.Operation]:
    """The module's functions by symbol name."""
    return {ir.StringAttr(f.attributes["sym_name"]).value: f for f in top_level_functions(module)}


def infer_types(module: "ir.Module | ir.Operation", policy: "Policy") -> Inference:
    """Infer the element type of every value of ``module``'s functions under ``policy``.

    Args:
        module: A module (or its operation) holding ``func.func`` ops.
        policy: The policy whose promotion decides the types.

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
    root = module.operation if isinstance(module, ir.Module) else module
    inference = _Inferrer(root, policy)
    inference.run()
    return inference.result


class _Inferrer:
    def __init__(self, root: ir.Operation, policy: "Policy") -> None:
        self.root = root
        self.policy = policy
        self.tc = type_cache(root.context)
        self.functions = _functions(root)
        self.result = Inference(policy)
        self.busy: set[str] = set()

    def run(self) -> None:
        for name in self.functions:
            self.function(name)

    def declared(self, value: ir.Value[ir.Type]) -> PType | None:
        try:
            return self.tc.tensor_info(value.type)[0]
        except (TypeError, ValueError, LatticecastError):
            return None

    def type_of(self, value: ir.Value[ir.Type]) -> PType | None:
        found = self.result.types.get(value)
        if found is not None:
            return found
        if isinstance(value.owner, ir.Block):           # a block argument of a region op
            parent = value.owner.owner
            number = ir.BlockArgument(value).arg_number
            if parent is not None and parent.name == "stablehlo.while" and number < len(parent.operands):
                t = self.type_of(parent.operands[number])
                if t is not None:
                    self.result.types[value] = t
                    return t
        return self.declared(value)

    def function(self, name: str) -> list[PType]:
        if name in self.result.outputs:
            return self.result.outputs[name]
        func = self.functions[name]
        if name in self.busy or not func.regions or not func.regions[0].blocks:   # recursion: as declared
            return [t for t in (self.declared(v) for v in _returned(func)) if t is not None]
        self.busy.add(name)
        block = func.regions[0].blocks[0]
        weak_args: set[int] = set()
        if "arg_attrs" in func.attributes:
            weak_args = {i for i, attrs in enumerate(ir.ArrayAttr(func.attributes["arg_attrs"]))
                         if WEAK_ATTR in ir.DictAttr(attrs)}
        for i, arg in enumerate(block.arguments):
            t = self.declared(arg)
            if t is not None:
                self.result.types[arg] = Weak(t) if i in weak_args and isinstance(t, DType) else t
        func.walk(self.visit, ir.WalkOrder.POST_ORDER)
        outputs = [t for t in (self.type_of(v) for v in _returned(func)) if t is not None]
        self.result.outputs[name] = outputs
        self.busy.discard(name)
        return outputs

    def visit(self, op: ir.Operation) -> ir.WalkResult:
        name = op.name
        results = op.results
        if not results or name == "func.func":
            return ir.WalkResult.ADVANCE
        types = self.result.types
        rule = STABLEHLO.get(name)
        if name in CONSTANT_LIKE:
            t = self.declared(results[0])
            if t is not None:
                types[results[0]] = Weak(t) if WEAK_ATTR in op.attributes and isinstance(t, DType) else t
        elif rule is not None:
            operands = list(op.operands)
            chosen = operands if rule.operands is None else [operands[i] for i in rule.operands
                                                                if i < len(operands)]
            operand_types = [self.type_of(v) for v in chosen]
            if any(t is None for t in operand_types):
                return ir.WalkResult.ADVANCE
            try:
                decision = decide(self.policy, rule, [t for t in operand_types if t is not None])
            except LatticecastError as e:
                self.result.refusals.append((op, str(e)))
                return ir.WalkResult.ADVANCE
            declared = self.declared(results[0])
            if isinstance(declared, DType) and decision.accepts_result(declared, self.policy) and \
                    not decision.result_weak:
                types[results[0]] = declared     # a dot's declared accumulation type
            else:
                types[results[0]] = decision.result_ptype
        elif name in WEAK_TRANSPARENT and op.operands:
            first = [self.type_of(v) for v in op.operands]
            if first and first[0] is not None:
                t = first[0]
                if isinstance(t, Weak) and not all(isinstance(x, Weak) for x in first):
                    t = t.dtype
                types[results[0]] = t
        elif name == "stablehlo.while":
            for r, v in zip(results, op.operands):
                t = self.type_of(v)
                if t is not None:
                    types[r] = t
        elif name in _REGION_RESULTS and op.regions and op.regions[0].blocks:
            block = op.regions[0].blocks[0]
            yielded = list(block.operations)[-1].operands if len(block.operations) else []
            for r, v in zip(results, yielded):
                t = self.type_of(v)
                if t is not None:
                    types[r] = t
        elif name == "func.call" and "callee" in op.attributes:
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            if callee in self.functions:
                for r, t in zip(results, self.function(callee)):
                    types[r] = t
        return ir.WalkResult.ADVANCE


def _returned(func: ir.Operation) -> list[ir.Value[ir.Type]]:
    if not func.regions or not func.regions[0].blocks:
        return []
    ops = list(func.regions[0].blocks[0].operations)
    return list(ops[-1].operands) if ops and ops[-1].name == "func.return" else []


@dataclass(frozen=True)
class TypeChange:
    """One op result whose dtype differs between two policies (``None``: the policy refuses the op)."""

    op: str
    location: str
    this: DType | None
    other: DType | None


@dataclass
class Comparison:
    """A program under two policies: what :func:`compare` found.

    Attributes:
        this: The first policy's inference.
        other: The second policy's inference.
        changes: The op results whose dtype differs, in program order.
        outputs: Per function whose outputs differ: the outputs under each policy.
    """

    this: Inference
    other: Inference
    changes: list[TypeChange]
    outputs: dict[str, tuple[list[DType], list[DType]]]

    def render(self) -> str:
        """The report as text: one line per differing op, then the outputs that change."""
        a, b = self.this.policy, self.other.policy
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


def compare(module: "ir.Module | ir.Operation", policy: "Policy", other: "Policy") -> Comparison:
    """Infer ``module``'s types under two policies and list where they differ.

    Args:
        module: The program.
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
    root = module.operation if isinstance(module, ir.Module) else module
    first, second = infer_types(root, policy), infer_types(root, other)
    refused_a = {op for op, _ in first.refusals}
    refused_b = {op for op, _ in second.refusals}
    changes: list[TypeChange] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        for r in op.results:
            if r not in first.types and r not in second.types and op not in refused_a and op not in refused_b:
                continue
            if isinstance(first.types.get(r), Weak) and isinstance(second.types.get(r), Weak):
                continue  # weak on both sides: it has no dtype of its own until an op promotes it
            mine = None if op in refused_a else first.dtype(r)
            theirs = None if op in refused_b else second.dtype(r)
            if mine != theirs:
                parts = location_parts(op.location)
                where = f"{parts[0]}:{parts[1]}:{parts[2]}" if parts else str(op.location)
                changes.append(TypeChange(op.name, where, mine, theirs))
                break
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    outputs: dict[str, tuple[list[DType], list[DType]]] = {}
    for name, mine in first.outputs.items():
        a = [policy.materialize(t) if isinstance(t, Weak) else t for t in mine]
        b = [other.materialize(t) if isinstance(t, Weak) else t for t in second.outputs.get(name, [])]
        if a != b:
            outputs[name] = (a, b)
    return Comparison(first, second, changes, outputs)


def retype_results(module: "ir.Module | ir.Operation", policy: "Policy") -> int:
    """Give every strongly typed value the element type :func:`infer_types` infers under ``policy``
    (weak values keep theirs: the pass settles them), and refresh the function signatures.

    This is ``implicit-cast{retype-results}``'s first step; the pass then converts operands as usual.

    Args:
        module: The program, rewritten in place.
        policy: The policy whose promotion decides the types.

    Returns:
        How many values were retyped.
    """
    from .lower_dtypes import refresh_function_type

    root = module.operation if isinstance(module, ir.Module) else module
    inference = infer_types(root, policy)
    tc = type_cache(root.context)
    changed = 0
    for value, t in inference.types.items():
        if isinstance(t, Weak) or isinstance(value.owner, ir.Block):
            continue
        try:
            declared = tc.tensor_info(value.type)[0]
        except (TypeError, ValueError, LatticecastError):
            continue
        if declared is not t:
            value.set_type(tc.with_element(value.type, t))
            changed += 1
    if changed:
        for func in _functions(root).values():
            refresh_function_type(func)
    return changed
