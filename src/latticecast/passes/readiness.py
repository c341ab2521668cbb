"""What a module still needs before it is StableHLO that PJRT runs, read from the IR itself.

A module that fails the verifier or the runtime's strict parser gets a hint naming the fix: run
``implicit-cast`` (an op mixes element types), lower MAX's dtypes (PJRT has no ``index``,
``tf32`` or ``!latticecast.address`` buffers), or lower another dialect to StableHLO. Each is
decided here by reading the module (parsed leniently, where the strict parser refused it), never
by the words of MLIR's messages, which change between releases and say nothing about the fix.
``latticecast-opt`` and the runtime (:mod:`latticecast.runtime.source`) ask the same questions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from jaxlib.mlir import ir

from ..dialect_utils.diagnostics import MLIRParseError
from ..dialect_utils.parsing import parse_module
from ..promotion.op_rules import STABLEHLO

__all__ = ["MixedOp", "mixed_ops", "unrunnable_element_types", "unrunnable_types_quoted", "foreign_ops",
           "parse_leniently", "EscapingUse", "escaping_uses"]

UNRUNNABLE = ("index", "tf32", "!latticecast.address")
"""Element types the implicit-cast pass lowers (to ``ui64``, ``f32``, ``ui64``) because PJRT has no
buffers of them."""


@dataclass(frozen=True)
class MixedOp:
    """An op that promotes (:data:`~latticecast.promotion.op_rules.STABLEHLO`) whose promoted operands
    have different element types, which StableHLO's verifier refuses: the implicit-cast pass decides
    its dtype.

    Attributes:
        name: The op's name (``stablehlo.add``).
        element_types: The element types of its promoted operands, then of its results, each once,
            in the order its signature names them (``("i16", "f32")``).
    """

    name: str
    element_types: tuple[str, ...]


def parse_leniently(text: str, source_name: str = "-", first_line: int = 1,
                    context: ir.Context | None = None) -> ir.Module | None:
    """``text`` parsed as the graph builder's context parses it (mixed element types and other
    dialects allowed), or ``None`` when it does not parse even so.

    Args:
        text: MLIR text.
        source_name: The file it came from, for locations.
        first_line: The line of that file where ``text`` starts.
        context: A lenient context to parse in (default: this thread's).

    Returns:
        The module, or ``None``.

    Example:
        >>> parse_leniently("func.func @f(%a: tensor<2xi8>) -> tensor<2xi8> { return %a : tensor<2xi8> }") is None
        False
        >>> parse_leniently("func.func @f(") is None
        True
    """
    try:
        return parse_module(text, context, lenient=True, source_name=source_name, first_line=first_line)
    except MLIRParseError:
        return None


def _element(t: ir.Type) -> str | None:
    """The element type of a tensor type, spelt as MLIR prints it; ``None`` for any other type."""
    try:
        return str(ir.ShapedType(t).element_type)
    except ValueError:  # not a shaped type (a token, a function type, ...)
        return None


def _walk(module: ir.Module | ir.Operation) -> list[ir.Operation]:
    ops: list[ir.Operation] = []
    root = module.operation if isinstance(module, ir.Module) else module

    def visit(op: ir.Operation) -> ir.WalkResult:
        ops.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return ops


def mixed_ops(module: ir.Module | ir.Operation) -> list[MixedOp]:
    """The promoting ops of ``module`` whose operands mix element types, in program order.

    Args:
        module: The module (parsed leniently: a strict parse refuses such ops).

    Returns:
        One :class:`MixedOp` per such op.

    Example:
        >>> m = parse_leniently('func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {\\n'
        ...     '  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>\\n'
        ...     '  return %0 : tensor<4xf32>\\n}')
        >>> mixed_ops(m)
        [MixedOp(name='stablehlo.add', element_types=('i16', 'f32'))]
    """
    found = []
    for op in _walk(module):
        rule = STABLEHLO.get(op.name)
        if rule is None or rule.mixed_is_legal:  # dot_general's f8E4M3FN x f8E5M2 verifies as it is
            continue
        values = list(op.operands)
        if rule.operands is not None:  # select's predicate is not promoted with its branches
            values = [values[i] for i in rule.operands if i < len(values)]
        operands = [e for e in (_element(v.type) for v in values) if e is not None]
        if len(set(operands)) < 2:
            continue
        results = [e for e in (_element(r.type) for r in op.results) if e is not None]
        found.append(MixedOp(op.name, tuple(dict.fromkeys(operands + results))))
    return found


def unrunnable_element_types(module: ir.Module | ir.Operation) -> list[str]:
    """The element types in ``module`` that PJRT has no buffers of (:data:`UNRUNNABLE`), each once.

    Args:
        module: The module.

    Returns:
        Their spellings, in the order they first appear (arguments, then results of each op).

    Example:
        >>> m = parse_leniently("func.func @f(%a: tensor<2xindex>) -> tensor<2xindex> { return %a : tensor<2xindex> }")
        >>> unrunnable_element_types(m)
        ['index']
    """
    seen: dict[str, None] = {}
    for op in _walk(module):
        values = [a for region in op.regions for block in region.blocks for a in block.arguments]
        for t in [v.type for v in values] + [r.type for r in op.results]:
            element = _element(t)
            if element is not None and element in UNRUNNABLE:
                seen[element] = None
    return list(seen)


def unrunnable_types_quoted(messages: Sequence[str], context: ir.Context) -> list[str]:
    """The unrunnable element types (:data:`UNRUNNABLE`) of the types that MLIR's messages quote, for a
    module that does not parse even leniently (StableHLO's verifier refuses a ``tf32`` result inside
    the body, and says which type: ``but got 'tensor<2xtf32>'``). Each quoted span that parses as a
    type is read as one; the decision is its element type's, not the message's words.

    Args:
        messages: The diagnostics' messages.
        context: A lenient context to parse the types in (``!latticecast.address`` is not registered).

    Returns:
        Their spellings, each once.

    Example:
        >>> from latticecast.dialect_utils.context import default_context
        >>> unrunnable_types_quoted(["result #0 must be ranked tensor of float values, but got 'tensor<2xtf32>'"],
        ...                         default_context())
        ['tf32']
    """
    seen: dict[str, None] = {}
    for message in messages:
        for quoted in message.split("'")[1::2]:  # MLIR quotes the type it refuses
            try:
                t = ir.Type.parse(quoted, context)
            except (ir.MLIRError, ValueError):  # a name, an op, text that is no type
                continue
            element = _element(t)
            if element is not None and element in UNRUNNABLE:
                seen[element] = None
    return list(seen)


def foreign_ops(module: ir.Module | ir.Operation) -> list[str]:
    """The names of ops in ``module`` that its context has no dialect for, each once.

    Args:
        module: The module (parsed leniently: a strict context refuses such ops).

    Returns:
        Their names, in program order.

    Example:
        >>> m = parse_leniently('func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\\n'
        ...     '  %0 = "mydialect.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>\\n  return %0 : tensor<2xf32>\\n}')
        >>> foreign_ops(m)
        ['mydialect.op']
    """
    found: dict[str, None] = {}
    for op in _walk(module):
        if not op.context.is_registered_operation(op.name):
            found[op.name] = None
    return list(found)


@dataclass(frozen=True)
class EscapingUse:
    """A value made inside a region (a branch of ``stablehlo.if``, a loop body) and used outside it,
    which MLIR refuses (the definition does not dominate the use).

    Attributes:
        made_by: The name of the op that made the value.
        inside: The name of the op whose region holds it (``stablehlo.if``).
        used_by: The name of the op outside that region that uses it.
    """

    made_by: str
    inside: str
    used_by: str


def _blocks_around(op: ir.Operation) -> list[ir.Block]:
    """The blocks that hold ``op``, innermost first, up to the module."""
    found: list[ir.Block] = []
    while True:
        try:
            block = op.block
        except ValueError:  # the top: an op in no block
            return found
        found.append(block)
        parent = op.parent
        if parent is None:
            return found
        op = parent.operation


def escaping_uses(module: ir.Module | ir.Operation) -> list[EscapingUse]:
    """The uses in ``module`` of a value outside the region it was made in, in program order.

    Args:
        module: The module.

    Returns:
        One :class:`EscapingUse` per such use.

    Example:
        >>> m = parse_leniently('''func.func @f(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = "stablehlo.if"(%p) ({
        ...     %1 = stablehlo.negate %a : tensor<2xf32>
        ...     stablehlo.return %1 : tensor<2xf32>
        ...   }, {
        ...     stablehlo.return %a : tensor<2xf32>
        ...   }) : (tensor<i1>) -> tensor<2xf32>
        ...   return %0 : tensor<2xf32>
        ... }''')
        >>> escaping_uses(m)
        []
    """
    found = []
    for op in _walk(module):
        around: list[ir.Block] | None = None
        for value in op.operands:
            owner = value.owner
            if isinstance(owner, ir.Block):
                home = owner
            else:
                home = owner.operation.block
            if around is None:
                around = _blocks_around(op)
            if any(home == b for b in around):
                continue
            made = owner.operation if not isinstance(owner, ir.Block) else None
            holder = home.owner
            found.append(EscapingUse(made.name if made is not None else "a block argument",
                                     holder.name if holder is not None else "?", op.name))
    return found
