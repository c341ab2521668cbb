"""The ``lift-implicit-casts`` pass: the inverse of ``implicit-cast``.

A module that reaches a compiler has been through one system's promotion rules: JAX and
torch-mlir write every promotion as a ``stablehlo.convert``, so there is nothing left for a
policy to decide. Under the policy ``P`` that wrote it, this pass takes out exactly the converts
that ``P``'s ``implicit-cast`` would insert, and gives back the mixed-dtype program:

- a convert feeding a promoted operand goes when the pass, run on the op without it, writes it back
  (:mod:`.reading` asks the pass's own planner), in the same place: one convert per (value, type)
  right after the value's definition, as the pass writes them, or a convert of the op's own right
  before the op and its broadcasts, as JAX and torch-mlir write them (the op is then marked
  ``latticecast.convert_at_use``); a 0-d or size-1 operand converted, then broadcast, is lifted with
  its broadcast (marked ``latticecast.implicit_broadcast``);
- a splat constant in the dtype that the policy gives a Python scalar there becomes a weak literal
  again (``latticecast.weak``), with the convert that torch-mlir writes after such a constant;
- every other convert stays: ``astype``, a narrowing, a convert feeding anything but the op that
  needed it, one with several users that do not all need it, a promotion of a mixed dot that
  StableHLO allows (unless the frontend converted it at the op).

The law, tested on every module of the project's JAX and torch-mlir corpora:
``implicit-cast(lift(M, P), P)`` prints exactly ``M`` when ``P`` wrote ``M``, and lifting never
removes a convert that changes a value under ``P``. The lifted module is mixed (StableHLO's
verifier rejects it): run ``implicit-cast`` under any policy next, which is what retargeting is,
or print it (it prints in the generic form, which latticecast's lenient parser reads back).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ...dialect_utils.types import type_cache
from ...promotion.op_rules import CONSTANT_LIKE, CONVERT_AT_USE_ATTR, EXPLICIT_BROADCAST_ATTR, IMPLICIT_BROADCAST_ATTR, WEAK_ATTR
from ..base import LatticecastPass, PassResult
from ..implicit_cast.planning import Planner
from ..infer_types import Program
from ..options import LiftOptions
from .reading import AT_USE, Literal, Proposal, Reader, settle

__all__ = ["LiftImplicitCastsPass", "LiftOptions", "LiftResult", "run_lift"]


@dataclass
class LiftResult(PassResult):
    """What one lift did: ``lifted`` converts taken out, ``literals`` weak literals restored, ``ops`` the
    promoted ops it lifted (in program order) and ``constants`` the weak literals: the sites where a
    policy has something to decide (:class:`~latticecast.passes.infer_types.Program`)."""

    lifted: int = 0
    literals: int = 0
    ops: list[ir.Operation] = field(default_factory=list)
    constants: list[ir.Operation] = field(default_factory=list)
    program: Program | None = None
    """The lifted module read for :func:`~latticecast.passes.infer_types.compare`: its sites, its ops in
    program order and its weak values under the lift's policy, as the lift found them (no second walk)."""

    @property
    def sites(self) -> list[ir.Operation]:
        """The lifted ops and the weak literals."""
        return self.ops + self.constants


class LiftImplicitCastsPass(LatticecastPass):
    """The pass, for jaxlib's ``PassManager``: ``LiftImplicitCastsPass(policy="torch").add_to(pm)``."""

    argument = LiftOptions.pass_name
    description = LiftOptions.pass_description
    Options = LiftOptions
    options: LiftOptions

    def run(self, root: ir.Operation) -> LiftResult:
        return run_lift(root, self.options)


def run_lift(root: "ir.Operation | ir.Module", options: LiftOptions | None = None) -> LiftResult:
    """Lift ``root`` (a module, or any op) in place, outside a PassManager.

    Args:
        root: The module (or op) whose promotions to take out.
        options: The pass's options (default: policy ``jax``).

    Returns:
        What was lifted (:class:`LiftResult`).

    Example:
        >>> import latticecast as lc
        >>> from latticecast.passes.lift import run_lift
        >>> from latticecast.passes import LiftOptions
        >>> m = lc.parse('''func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = stablehlo.convert %a : (tensor<2xi8>) -> tensor<2xf32>
        ...   %1 = stablehlo.add %0, %b : tensor<2xf32>
        ...   return %1 : tensor<2xf32>
        ... }''')
        >>> run_lift(m, LiftOptions(policy="jax")).lifted
        1
        >>> "stablehlo.convert" in str(m)
        False
    """
    op = root.operation if isinstance(root, ir.Module) else root
    op = op.operation if hasattr(op, "operation") else op
    options = options or LiftOptions()
    with op.context, ir.Location.unknown():
        tc = type_cache(op.context)
        reader = Reader(options.policy, tc, Planner(options.policy, tc))
        reader.read(op)
        proposals = settle(reader)
        result = _apply(proposals, tc, reader, not options.policy.rank_sensitive)
        weak = [(v, dtype) for v, (_, dtype) in reader.weak.items()]
        literals = [(v, dtype) for v, (cause, dtype) in reader.weak.items()
                    if dtype is not None or cause.name in CONSTANT_LIKE]  # a literal, or a constant marked weak
        result.program = Program(op, result.ops, position=reader.position, calls=reader.calls,
                                 weak=(options.policy, weak), literals=literals)
        return result


def _apply(proposals: list[Proposal], tc: "object", reader: Reader, mark_implicit: bool = False) -> LiftResult:
    """Rewrite the module as ``proposals`` say, and count it (the ``reader``'s positions of ops and weak
    values follow the ops it replaces). ``mark_implicit``: mark the broadcasts of 0-d values that the
    frontend's location shows the op made itself (:func:`_made_by`)."""
    from ...dialect_utils.types import TypeCache

    assert isinstance(tc, TypeCache)
    result = LiftResult()
    position, weak = reader.position, reader.weak
    # An op hashes by what it holds (its operands, attributes and location), not by its identity, so a
    # lifted op is a key of ``position`` again once it is rewritten: its place is taken out first.
    places = [position.pop(proposal.op, None) for proposal in proposals]
    erase: dict[ir.Operation, None] = {}
    replaced: dict[ir.Operation, ir.Operation] = {}
    broadcasts: dict[ir.Operation, ir.Value[ir.Type]] = {}
    literals: dict[ir.Operation, Literal] = {}
    unit = ir.UnitAttr.get()
    for proposal in proposals:
        op = proposal.op
        operands = op.operands
        for c in proposal.converts:
            if c.broadcast is None:
                operands[c.position] = c.source
            else:
                new = broadcasts.get(c.broadcast)
                if new is None:
                    b = c.broadcast
                    attrs = {name: b.attributes[name] for name in b.attributes}
                    attrs[IMPLICIT_BROADCAST_ATTR] = unit
                    dtype = tc.tensor_info(c.source.type)[0]
                    made = ir.Operation.create(b.name, results=[tc.with_element(b.results[0].type, dtype)],
                                               operands=[c.source], attributes=attrs, loc=b.location,
                                               ip=ir.InsertionPoint.after(b))
                    new = broadcasts[b] = made.result
                    erase[b] = None
                    replaced[b] = made
                operands[c.position] = new
            erase[c.convert] = None
            result.lifted += 1
        for lit in proposal.literals:
            literals.setdefault(lit.const, lit)
        if proposal.style == AT_USE:
            op.attributes[CONVERT_AT_USE_ATTR] = _marker(proposal, unit)
        for b in proposal.explicit:
            b.attributes[EXPLICIT_BROADCAST_ATTR] = unit
        if mark_implicit and isinstance(op.location, ir.NameLoc):  # else no broadcast has the op's name
            where = op.location
            for v in op.operands:
                owner = v.owner
                if not isinstance(owner, ir.Block) and _made_by(owner.operation, op, where):
                    owner.operation.attributes[IMPLICIT_BROADCAST_ATTR] = unit
        result.ops.append(op)
    for const, lit in literals.items():
        const.attributes[WEAK_ATTR] = unit
        result.literals += 1
        result.constants.append(const)
        if lit.convert is not None:
            for old, new_link in _unconvert(lit, tc):
                erase[old] = None
                replaced[old] = new_link
            erase[lit.convert] = None
    for proposal, place in zip(proposals, places):
        if place is not None:
            position[proposal.op] = place
    for old, new_op in replaced.items():
        if old in position:
            position[new_op] = position[old]
        for r_old, r_new in zip(old.results, new_op.results):
            if r_old in weak:
                weak[r_new] = weak[r_old]
    for op in erase:
        position.pop(op, None)
        for r in op.results:
            weak.pop(r, None)
    converts = [op for op in erase if op.name == "stablehlo.convert"]
    for op in erase:  # broadcasts before the converts they read
        if op.name != "stablehlo.convert":
            op.erase()
    for op in converts:
        op.erase()
    return result


def _made_by(broadcast: ir.Operation, user: ir.Operation, where: ir.Location) -> bool:
    """Whether ``broadcast`` broadcasts a 0-d value for ``user`` alone, as the frontend's location shows
    the op's own lowering made it (JAX gives the broadcasts of ``x * s`` the multiply's location): then
    it is an implicit broadcast, and a rank-sensitive policy (PyTorch) reads ``s`` as the 0-d tensor it
    is. A plain ``file:line:col`` (MLIR text) shows nothing, and ``jnp.broadcast_to`` has its own line.
    ``where``: ``user``'s location (a name location)."""
    if broadcast.name != "stablehlo.broadcast_in_dim" or len(broadcast.operands) != 1 \
            or IMPLICIT_BROADCAST_ATTR in broadcast.attributes or EXPLICIT_BROADCAST_ATTR in broadcast.attributes:
        return False
    source = broadcast.operands[0].type
    if source.typeid != ir.RankedTensorType.static_typeid or ir.RankedTensorType(source).rank != 0:
        return False
    if broadcast.location != where:  # a name location, as the user's is
        return False
    return all(use.owner.operation == user for use in broadcast.results[0].uses)


def _marker(proposal: Proposal, unit: ir.Attribute) -> ir.Attribute:
    """``latticecast.convert_at_use`` for the op: a unit attribute when the converts taken out had the
    op's own location (or only positions in the text); else, per convert in the order the pass makes
    them, the name its location gave it beside the op's (JAX names the convert of ``x * 0.5`` at the
    multiply's Python line ``jit(f)/convert_element_type``), so that ``implicit-cast`` gives its converts
    the same locations."""
    names = [_renamed(proposal.op.location, c.location) for c in proposal.sequence]
    if not any(names):
        return unit
    return ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])


def _renamed(user: ir.Location, convert: ir.Location) -> str:
    """The last component of ``convert``'s name where it is ``user``'s location renamed so (a name
    location of the same place whose name differs in its last ``/`` component only); else ``""``."""
    if user == convert or not isinstance(user, ir.NameLoc) or not isinstance(convert, ir.NameLoc):
        return ""
    if user.child_loc != convert.child_loc:
        return ""
    prefix, _, _ = user.name_str.rpartition("/")
    head, _, leaf = convert.name_str.rpartition("/")
    return leaf if head == prefix and leaf else ""


def _unconvert(lit: Literal, tc: "object") -> list[tuple[ir.Operation, ir.Operation]]:
    """A literal written in one dtype and converted (torch-mlir's wrapped scalar): the data movement
    after the convert again in the constant's own dtype, reading the constant. Returns each op
    replaced with its replacement (the old ones, unused now, are for the caller to erase)."""
    from ...dialect_utils.types import TypeCache

    assert isinstance(tc, TypeCache) and lit.convert is not None
    convert = lit.convert
    convert.results[0].replace_all_uses_with(lit.value)
    stack = [lit.const]
    seen: set[ir.Operation] = set()
    pairs: list[tuple[ir.Operation, ir.Operation]] = []
    while stack:
        producer = stack.pop()
        for use in list(producer.results[0].uses):
            link = use.owner.operation
            if link.name == "stablehlo.convert" or link in seen or len(link.operands) != 1 or \
                    link.results[0].type == tc.with_element(link.results[0].type, lit.dtype):
                continue
            seen.add(link)
            attrs = {name: link.attributes[name] for name in link.attributes}
            new = ir.Operation.create(link.name, results=[tc.with_element(link.results[0].type, lit.dtype)],
                                      operands=[link.operands[0]], attributes=attrs, loc=link.location,
                                      ip=ir.InsertionPoint.after(link))
            link.results[0].replace_all_uses_with(new.result)
            pairs.append((link, new))
            stack.append(new)
    return pairs
