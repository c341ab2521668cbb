"""Reading a legal module for the promotions a policy made: which converts ``implicit-cast`` would write.

For every promoted op (:data:`~latticecast.promotion.op_rules.STABLEHLO`) the reader finds what may have
been an implicit promotion (:class:`Candidates`):

- a ``stablehlo.convert`` feeding one of its promoted operands (:class:`Convert`), or feeding a
  ``broadcast_in_dim`` that only the op reads (JAX and torch-mlir convert a 0-d or size-1 operand,
  then broadcast it);
- a splat constant, seen through data movement, that a Python scalar may have been
  (:class:`Literal`): in the dtype the op computes in (JAX writes ``x * 0.5`` so), or in the dtype
  the policy gives a Python scalar of its kind, converted where it is read (torch-mlir writes
  ``a + 2.5`` as a ``tensor<1xf64>`` converted, reshaped and broadcast).

It then asks the pass's own :class:`~latticecast.passes.implicit_cast.planning.Planner` what
``implicit-cast`` would do with the op lifted, and keeps a reading only when the pass would write
back exactly what the module has, in the same place: one convert per (value, type) right after
the value's definition, as the pass writes them (:data:`SHARED`), or a convert of the op's own
right before the op and its broadcasts, as JAX and torch-mlir write them (:data:`AT_USE`, marked
``latticecast.convert_at_use``). Everything else is a convert the program's author wrote
(``astype``, a narrowing, a convert that feeds anything but the op that needed it, or one with
several users that do not all need it) and stays.

Weakness flows as the pass makes it flow: a weak literal makes an op's result weak where the
policy says so (JAX's ``int32 * 0.5`` is a weak float), and data movement and the unary ops of
:data:`~latticecast.promotion.op_rules.WEAK_TRANSPARENT` keep it. So the reading is made in program order,
with the weak values that the readings before it make, and what is shared is settled together
(:func:`settle`): a convert is lifted only when every op that reads it lifts it, a weak value
only when every promoted op that meets it reads the module as it is.
"""

from __future__ import annotations

import functools
import operator
import re
from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ...dialect_utils.constants import constant_values
from ...dialect_utils.placement import prologue
from ...dialect_utils.types import TypeCache, static_shape
from ...promotion.dtypes import DType
from ...promotion.op_rules import CONSTANT_LIKE, IMPLICIT_BROADCAST_ATTR, RETYPABLE, STABLEHLO, WEAK_ATTR, WEAK_TRANSPARENT, OpRule
from ...policies import Policy
from ..rank import zero_dim_flag
from ..implicit_cast.planning import Plan, Planner

__all__ = ["Convert", "Literal", "Candidates", "Proposal", "Reader", "settle", "AT_USE", "SHARED"]

AT_USE = "at-use"
"""A proposal's style: the op converts its own operands, right before it (JAX's and torch-mlir's way)."""
SHARED = "shared"
"""A proposal's style: one convert per (value, type), right after the value's definition (the pass's way)."""

_BROADCAST = "stablehlo.broadcast_in_dim"
_CONVERT = "stablehlo.convert"
_TOWARDS_SITES = frozenset(STABLEHLO) | RETYPABLE | {_CONVERT}
"""What a constant's first user must be for it to reach a promoted operand."""

_PROMOTED, _CONVERT_KIND, _CONSTANT_KIND, _CALL_KIND = range(4)
_KINDS: dict[str, int] = {**{name: _PROMOTED for name in STABLEHLO}, **{name: _CONSTANT_KIND for name in CONSTANT_LIKE},
                          _CONVERT: _CONVERT_KIND, "func.call": _CALL_KIND}
"""What the walk does with an op, by name (one lookup per op): most ops are none of these."""
_TYPE = operator.attrgetter("type")


@dataclass(eq=False, slots=True)
class Convert:
    """A convert that may be an implicit promotion of promoted operand ``k`` (op operand ``position``).

    ``broadcast``: the ``broadcast_in_dim`` between the convert and the op (converted, then broadcast).
    """

    k: int
    position: int
    convert: ir.Operation
    source: ir.Value[ir.Type]
    source_dtype: DType
    target: DType
    broadcast: ir.Operation | None = None
    uses: frozenset[tuple[ir.Operation, int]] = frozenset()
    """Every use of the convert (of the broadcast, when there is one): read once, while finding it."""


@dataclass(eq=False, slots=True)
class Literal:
    """A splat constant that may be a Python scalar, reaching promoted operand ``k`` through ``links``
    (data movement, nearest the constant first); ``convert``: the convert right after the constant
    (torch-mlir's wrapped scalar, written in the dtype PyTorch gives it and converted)."""

    k: int
    position: int
    const: ir.Operation
    value: ir.Value[ir.Type]
    dtype: DType
    links: tuple[ir.Operation, ...]
    convert: ir.Operation | None = None
    reach: "Reach | None" = None
    """Where the constant goes (shared by the constant's literals)."""


@dataclass(eq=False, slots=True)
class Reach:
    """Everything a splat constant reaches through data movement (and at most one convert): the
    promoted operands it ends at, the converts after it, and whether it ends anywhere else."""

    ends: set[tuple[ir.Operation, int]] = field(default_factory=set)
    converts: set[ir.Operation] = field(default_factory=set)
    elsewhere: bool = False


@dataclass(eq=False, slots=True)
class Candidates:
    """What may have been promoted at one promoted op (possibly nothing: its weak operands still count)."""

    op: ir.Operation
    rule: OpRule
    positions: tuple[int, ...]
    values: tuple[ir.Value[ir.Type], ...]
    """The promoted operands, as the module has them (read once: the readings all start from them)."""
    types: tuple[ir.Type, ...]
    """Their types."""
    result_type: ir.Type
    converts: list[Convert] = field(default_factory=list)
    literals: list[Literal] = field(default_factory=list)

    @classmethod
    def of(cls, op: ir.Operation, rule: OpRule, positions: tuple[int, ...],
           operands: "ir.OpOperandList[ir.Type]") -> "Candidates":
        """The (so far empty) candidates of ``op``, its promoted operands read."""
        values = tuple(map(operands.__getitem__, positions))
        return cls(op, rule, positions, values, tuple(map(_TYPE, values)), op.results[0].type)


@dataclass(eq=False, slots=True)
class Proposal:
    """What to lift at one op: ``converts`` and weak ``literals``, in ``style``; ``weak_result``: the
    pass makes the op's result weak."""

    candidates: Candidates
    converts: tuple[Convert, ...]
    literals: tuple[Literal, ...]
    style: str
    weak_result: bool = False
    sequence: tuple[ir.Operation, ...] = ()
    """The converts the pass makes before the op (:data:`AT_USE`), in the order it makes them."""
    explicit: tuple[ir.Operation, ...] = ()
    """Broadcasts the program wrote itself before the op's converts: marked ``latticecast.explicit_broadcast``."""

    @property
    def op(self) -> ir.Operation:
        return self.candidates.op


class Reader:
    """The candidates of one module, and the readings that the pass's planner confirms."""

    def __init__(self, policy: Policy, tc: TypeCache, planner: Planner) -> None:
        self.policy = policy
        self.tc = tc
        self.planner = planner
        self.next_op: dict[ir.Operation, ir.Operation] = {}
        """The op visited right after each convert: its next op in the block (a convert has no region)."""
        self.prev_op: dict[ir.Operation, ir.Operation | None] = {}
        """The op visited right before each convert (``None`` at the start of the walk)."""
        self.sites: list[Candidates] = []
        """The promoted ops with candidates, in program order."""
        self.position: dict[ir.Operation, int] = {}
        """The place of each promoted op in program order."""
        self.calls: dict[str, list[ir.Operation]] = {}
        """The ``func.call`` ops of each callee."""
        self.marked: list[ir.Value[ir.Type]] = []
        """Values the module already marks weak (``latticecast.weak``)."""
        self.forbidden: set[ir.Operation] = set()
        """Converts and constants ruled out, and ops whose result must not become weak (:func:`settle`)."""
        self.weak: dict[ir.Value[ir.Type], tuple[ir.Operation, DType | None]] = {}
        """The weak values of the reading so far, each with what made it weak (a constant or an op) and,
        for a literal and the data movement that carries it, its dtype (the constant's, after the lift):
        so that what the lift hands :func:`~latticecast.passes.infer_types.compare` needs no type read."""
        self.touched: dict[ir.Operation, None] = {}
        """The promoted ops a weak value reached (in the order it reached them)."""

    # -- the walk ----------------------------------------------------------------------------------

    def read(self, root: ir.Operation) -> None:
        """One walk over ``root`` (the place of every promoted op, the neighbours of every convert, the
        calls), then the candidates, found forwards from the converts and the splat constants."""
        next_op, prev_op, marked, calls = self.next_op, self.prev_op, self.marked, self.calls
        position = self.position
        converts: list[ir.Operation] = []
        constants: list[ir.Operation] = []
        kind_of = _KINDS.get
        advance = ir.WalkResult.ADVANCE
        previous: ir.Operation | None = None  # the op visited last
        pending: ir.Operation | None = None  # a convert whose next op is the one visited now

        def visit(op: ir.Operation) -> ir.WalkResult:
            nonlocal previous, pending
            if pending is not None:
                next_op[pending] = op
                pending = None
            kind = kind_of(op.name)
            if kind == _PROMOTED:
                position[op] = len(position)
            elif kind is not None:
                if kind == _CONVERT_KIND:
                    prev_op[op] = previous
                    pending = op
                    converts.append(op)
                elif kind == _CONSTANT_KIND:
                    constants.append(op)
                elif "callee" in op.attributes:
                    calls.setdefault(ir.FlatSymbolRefAttr(op.attributes["callee"]).value, []).append(op)
            previous = op
            return advance

        root.walk(visit, ir.WalkOrder.PRE_ORDER)
        found: dict[ir.Operation, Candidates] = {}
        for c in converts:
            self._from_convert(c, found)
        for const in constants:
            if WEAK_ATTR in const.attributes:
                marked.extend(const.results)
            self._from_constant(const, found)
        self.sites = sorted(found.values(), key=lambda site: position.get(site.op, 0))

    def _dtype(self, value: ir.Value[ir.Type]) -> DType | None:
        return self._element(value.type)

    def _element(self, t: ir.Type) -> DType | None:
        try:
            return self.tc.tensor_info(t)[0]
        except TypeError:
            return None

    def _site(self, op: ir.Operation, found: dict[ir.Operation, Candidates]) -> Candidates | None:
        """``op``'s candidates so far (made on first use), or ``None`` if it has no promoted operands to lift."""
        site = found.get(op)
        if site is None:
            rule = STABLEHLO[op.name]
            operands = op.operands
            positions = rule.operands if rule.operands is not None else tuple(range(len(operands)))
            if len(positions) < 2 or len(operands) <= positions[-1] or len(op.results) != 1:
                return None
            site = found[op] = Candidates.of(op, rule, positions, operands)
        return site

    def _from_convert(self, c: ir.Operation, found: dict[ir.Operation, Candidates]) -> None:
        """The promoted operands ``c`` feeds, directly or through a broadcast that only one op reads."""
        operands, results = c.operands, c.results
        if len(operands) != 1 or len(results) != 1:
            return
        source, result = operands[0], results[0]
        source_type, result_type = source.type, result.type
        if source_type == result_type:
            return  # an identity convert: the pass never writes one
        a, b = self._element(source_type), self._element(result_type)
        if a is None or b is None or a is b:
            return
        uses = _users(result)
        every = frozenset(uses)
        for user, n in uses:
            name = user.name
            if name in STABLEHLO:
                site = self._site(user, found)
                if site is not None and n in site.positions:
                    site.converts.append(Convert(site.positions.index(n), n, c, source, a, b, None, every))
            elif name == _BROADCAST and len(uses) == 1 and len(user.operands) == 1:
                further = _users(user.results[0])
                if not further:
                    return
                target = further[0][0]
                if target.name not in STABLEHLO or any(op != target for op, _ in further):
                    return
                site = self._site(target, found)
                if site is None:
                    return
                everywhere = frozenset(further)
                for _, m in further:
                    if m in site.positions:
                        site.converts.append(Convert(site.positions.index(m), m, c, source, a, b, user, everywhere))

    def _from_constant(self, const: ir.Operation, found: dict[ir.Operation, Candidates]) -> None:
        """The promoted operands a splat constant reaches through data movement (and at most one
        convert right after it): each a :class:`Literal` candidate, sharing one :class:`Reach`."""
        try:
            value = const.result
        except ValueError:  # not one result
            return
        users = _users(value)
        for user, _ in users:
            if user.name in _TOWARDS_SITES:
                break
        else:
            return  # a reduction's initial value, and the like (or no use): no Python scalar there
        if "value" not in const.attributes or not _is_splat(const):
            return  # dense_resource and non-splat constants are arrays, never Python scalars
        dtype = self._dtype(value)
        if dtype is None:
            return
        reach = Reach()
        # each entry: the users of a value the constant reaches, the links to it, the convert on the way
        stack: list[tuple[list[tuple[ir.Operation, int]], tuple[ir.Operation, ...], ir.Operation | None]] = \
            [(users, (), None)]
        while stack:
            pairs, links, convert = stack.pop()
            for user, n in pairs:
                name = user.name
                if name in STABLEHLO:
                    reach.ends.add((user, n))
                    site = self._site(user, found)
                    if site is not None and n in site.positions:
                        site.literals.append(Literal(site.positions.index(n), n, const, value, dtype, links, convert,
                                                     reach))
                elif len(user.operands) != 1 or len(user.results) != 1:
                    reach.elsewhere = True
                elif name == _CONVERT and not links and convert is None:
                    target = self._dtype(user.results[0])
                    if target is not None and target is not dtype:
                        reach.converts.add(user)
                        stack.append((_users(user.results[0]), links, user))
                    else:
                        reach.elsewhere = True
                elif name in RETYPABLE:
                    stack.append((_users(user.results[0]), links + (user,), convert))
                else:
                    reach.elsewhere = True

    # -- proposals ---------------------------------------------------------------------------------

    def propose(self, site: Candidates) -> Proposal | None:
        """What to lift at ``site`` given the weak values so far: the largest reading that the pass's
        planner confirms; ``None`` when nothing is lifted (``settle`` checks that the pass leaves the
        op as it is then)."""
        forbidden = self.forbidden  # empty on the first reading (hashing an op is not free)
        converts = [c for c in site.converts if c.convert not in forbidden] if forbidden else site.converts
        literals = [lit for lit in site.literals if lit.const not in forbidden] if forbidden else site.literals
        plain = [lit for lit in literals if lit.convert is None]
        converted_literal = len(plain) != len(literals)  # a constant converted after it (torch-mlir's scalar)
        # a splat constant converted, then broadcast, reads as a Python scalar (a literal) or as a
        # converted 0-d tensor: the literal first
        written = {lit.convert for lit in literals if lit.convert is not None} if converted_literal else None
        unwritten = [c for c in converts if c.convert not in written] if written else converts
        # each option: the converts and literals lifted, whether the pass would convert at the op (a
        # convert, or a converted literal, lifted: AT_USE), and whether it could share the converts
        # (none broadcast, no literal converted: SHARED)
        options: list[tuple[list[Convert], list[Literal], tuple[str, ...]]] = []
        if converts:
            direct = all(c.broadcast is None for c in converts)
            shared = direct or all(c.broadcast is None for c in unwritten)
            options += [(unwritten, literals, _styles(bool(unwritten) or converted_literal,
                                                      shared and not converted_literal)),
                        (converts, plain, _styles(True, direct)), (converts, [], _styles(True, direct))]
        options += [([], literals, _styles(converted_literal, not converted_literal)), ([], plain, (SHARED,))]
        tried: set[tuple[int, ...]] = set()
        for chosen, weak, styles in options:
            key = (*map(id, chosen), *map(id, weak))
            if not key or key in tried:
                continue
            tried.add(key)
            for style in styles:
                plan = self.plan(site, chosen, weak, style)
                if plan is None:
                    continue
                sequence: tuple[ir.Operation, ...] = ()
                explicit: tuple[ir.Operation, ...] = ()
                if style == AT_USE:
                    placed = self._placed_at_use(site, chosen, weak, plan)
                    if placed is None or (chosen and not all(_written_at(c.convert.location, site.op.location)
                                                             for c in chosen)):
                        continue
                    sequence, explicit = placed
                elif chosen and not all(self._placed_shared(c) and
                                        _written_at(c.convert.location, _defined_at(c.source), False) for c in chosen):
                    continue
                return Proposal(site, tuple(chosen), tuple(weak), style, plan.weak_result, sequence, explicit)
        return None

    def plan(self, site: Candidates, chosen: list[Convert], weak: list[Literal], style: str) -> Plan | None:
        """The plan the pass makes for ``site`` lifted so, if it writes back exactly what is there."""
        op = site.op
        by_k: dict[int, Convert] = {c.k: c for c in chosen}
        lit_k: dict[int, Literal] = {lit.k: lit for lit in weak}
        types: list[ir.Type] = []
        flags: list[bool] = []
        zero: list["bool | str"] = []
        ranked = self.policy.rank_sensitive
        tc = self.tc
        weak_values = self.weak
        for k, value in enumerate(site.values):
            c = by_k.get(k)
            lit = lit_k.get(k)
            if c is not None:
                types.append(tc.with_element(site.types[k], c.source_dtype))
                flags.append(c.source in weak_values)
                if ranked:
                    zero.append((_rank(c.source.type) == 0) if c.broadcast is not None else zero_dim_flag(c.source))
            elif lit is not None:
                types.append(tc.with_element(site.types[k], lit.dtype))
                flags.append(True)
                if ranked:
                    zero.append(zero_dim_flag(value))
            else:
                types.append(site.types[k])
                flags.append(value in weak_values)
                if ranked:
                    zero.append(zero_dim_flag(value))
        plan = self.planner.plan(site.rule, tuple(types), site.result_type, tuple(flags) if any(flags) else None,
                                 tuple(zero) if ranked else None, at_use=style == AT_USE)
        if not isinstance(plan, Plan) or (plan.weak_result and op in self.forbidden):
            return None
        expected: dict[int, DType] = {c.k: c.target for c in chosen}
        for lit in weak:
            if lit.convert is not None:
                target = self._dtype(lit.convert.results[0])
                if target is None or not self._literal_fits(lit, target):
                    return None
                expected[lit.k] = target
        if dict(plan.converts) != expected or len(plan.converts) != len(expected):
            return None
        if plan.compare_type is not None and "compare_type" in op.attributes:
            current = str(op.attributes["compare_type"])
            if not (plan.float_target and "TOTALORDER" in current) and current != str(plan.compare_type):
                return None
        return plan

    def _literal_fits(self, lit: Literal, target: DType) -> bool:
        shape = static_shape(self.tc.tensor_info(lit.value.type)[1])
        if shape is None:
            return False
        values = constant_values(lit.const, lit.dtype, shape)
        return not self.policy.literals.constant_problem(values, target)

    def _placed_at_use(self, site: Candidates, chosen: list[Convert], weak: list[Literal],
                       plan: Plan) -> tuple[tuple[ir.Operation, ...], tuple[ir.Operation, ...]] | None:
        """The converts in the order the pass makes an op's own, if they are where it puts them: right
        before the op's prologue, in operand order, and a converted literal right before the op that
        reads it; ``None`` if they are elsewhere. With them, the broadcasts of the prologue that come
        before them: the program's own (torch-mlir writes ``x + f.expand(4)`` as the broadcast, then
        the promotion of ``x``), to be marked ``latticecast.explicit_broadcast``."""
        op = site.op
        by_k: dict[int, ir.Operation] = {c.k: c.convert for c in chosen}
        stops: list[ir.Value[ir.Type]] = [c.source for c in chosen]
        for lit in weak:
            if lit.convert is None:
                continue
            if lit.links:  # converted right before the first op that reads the constant
                if self.next_op.get(lit.convert) != lit.links[0]:
                    return None
            else:
                by_k[lit.k] = lit.convert
                stops.append(lit.value)
        sequence = tuple(by_k[k] for k, _ in plan.converts if k in by_k)
        if not sequence:
            return sequence, ()
        for a, b in zip(sequence, sequence[1:]):
            if self.next_op.get(a) != b:
                return None
        members = sorted(prologue(op, stops), key=functools.cmp_to_key(_program_order))
        block = op.block
        owners = [v.owner for v in stops]
        defined = [o.operation for o in owners if not isinstance(o, ir.Block) and o.operation.block == block]
        after = self.next_op.get(sequence[-1])
        for j in range(len(members) + 1):
            first = members[j] if j < len(members) else op
            explicit = members[:j]
            if any(m.name in CONSTANT_LIKE or IMPLICIT_BROADCAST_ATTR in m.attributes for m in explicit):
                break  # only a broadcast can be the program's own
            latest = None
            for d in defined:
                if first.is_before_in_block(d) and (latest is None or latest.is_before_in_block(d)):
                    latest = d
            if latest is not None:
                if self.prev_op.get(sequence[0]) == latest:
                    return sequence, tuple(explicit)
            elif after == first:
                return sequence, tuple(explicit)
        return None

    def _placed_shared(self, c: Convert) -> bool:
        """Whether ``c`` is where the pass puts a shared convert: right after its value's definition,
        after the other converts made there (which must be lifted too: :func:`settle` checks)."""
        p = self.prev_op.get(c.convert)
        while p is not None and p.name == _CONVERT and p in self.prev_op and _same_definition(p.operands[0], c.source):
            p = self.prev_op.get(p)
        owner = c.source.owner
        if isinstance(owner, ir.Block):
            return p is None or p.block != c.convert.block
        return p == owner.operation

    # -- weakness, in program order ----------------------------------------------------------------

    def read_in_order(self) -> tuple[dict[Candidates, Proposal], set[ir.Operation]]:
        """Every site's proposal in program order, with the weak values the earlier ones make; and
        what must be ruled out because a weak value reaches an op that the pass would then change.

        Weakness flows forwards as the pass makes it flow (:meth:`_made_weak`), from an op that comes
        before every op it reaches, so each site is read with its operands' weakness settled.
        """
        proposals: dict[Candidates, Proposal] = {}
        vetoed: set[ir.Operation] = set()
        self.weak.clear()
        self.touched.clear()
        sites = {site.op: site for site in self.sites}
        for v in self.marked:
            self._made_weak(v, v.owner.operation)  # type: ignore[union-attr]
        for site in self.sites:
            proposal = self.propose(site)
            if proposal is None:
                self.touched.setdefault(site.op)
                continue
            proposals[site] = proposal
            for lit in proposal.literals:
                entry = (lit.const, lit.dtype)
                self.weak[lit.value] = entry
                for link in lit.links:
                    self.weak[link.results[0]] = entry
            if proposal.weak_result:
                self._made_weak(site.op.results[0], site.op)
        # the promoted ops a weak value reached that nothing lifted: the pass must leave them as they are
        for op in self.touched:
            found = sites.get(op)
            if found is not None and found in proposals:
                continue
            rule = STABLEHLO[op.name]
            operands = op.operands
            positions = rule.operands if rule.operands is not None else tuple(range(len(operands)))
            causes = [self.weak[operands[p]][0] for p in positions if p < len(operands) and operands[p] in self.weak]
            if not causes:
                continue
            plan = None
            if len(positions) >= 2 and len(operands) > positions[-1] and len(op.results) == 1:
                plan = self.plan(found or Candidates.of(op, rule, positions, operands), [], [], SHARED)
            if plan is None or plan.weak_result:
                vetoed.update(causes)
        return proposals, vetoed

    def _made_weak(self, value: ir.Value[ir.Type], cause: ir.Operation) -> None:
        """``value`` is weak in the pass's eyes: so is what data movement and the unary ops of
        :data:`WEAK_TRANSPARENT` make of it (all of whose operands are weak); a promoted op it reaches
        is noted, to be read with it weak."""
        weak = self.weak
        stack = [value]
        entry = weak[value] = (cause, None)
        while stack:
            v = stack.pop()
            for use in v.uses:
                user = use.owner.operation
                name = user.name
                if name in STABLEHLO:
                    self.touched.setdefault(user)
                elif name in WEAK_TRANSPARENT and all(o in weak for o in user.operands):
                    for r in user.results:
                        if r not in weak:
                            weak[r] = entry
                            stack.append(r)


def _styles(at_use: bool, shared: bool) -> tuple[str, ...]:
    """The styles a reading can be written in, :data:`AT_USE` first."""
    return (AT_USE, SHARED) if at_use and shared else (AT_USE,) if at_use else (SHARED,) if shared else ()


def _users(value: ir.Value[ir.Type]) -> list[tuple[ir.Operation, int]]:
    """Each use of ``value``: the op that reads it, and at which operand."""
    return [(use.owner.operation, use.operand_number) for use in value.uses]


def _program_order(x: ir.Operation, y: ir.Operation) -> int:
    """Which of two ops of one block comes first (a comparison for ``sorted``)."""
    return -1 if x.is_before_in_block(y) else 1


def _written_at(convert: ir.Location, where: ir.Location, renamed: bool = True) -> bool:
    """Whether a convert's location says it was written where the pass would write it, at ``where``
    (the op that needed it, or the value's definition): the same location, or a name location of the
    same place whose name differs in its last ``/`` component (JAX names the convert of ``x * 0.5``
    ``jit(f)/convert_element_type`` at the multiply's Python line). A frontend's location elsewhere
    (``x.astype(...)`` on a line of its own) marks a convert its author wrote. A plain ``file:line:col``
    (a position in MLIR text, or torch-mlir's) says nothing either way. ``renamed``: a renamed location
    counts (an op's own converts); a shared convert has its value's definition's location exactly."""
    if convert == where or isinstance(convert, ir.FileLineColLoc) or isinstance(convert, ir.UnknownLoc):
        return True
    if not renamed or not isinstance(convert, ir.NameLoc) or not isinstance(where, ir.NameLoc):
        return False
    return convert.child_loc == where.child_loc and \
        convert.name_str.rpartition("/")[0] == where.name_str.rpartition("/")[0]


def _defined_at(value: ir.Value[ir.Type]) -> ir.Location:
    """Where the pass puts a shared convert of ``value``: the location of its definition."""
    owner = value.owner
    return value.location if isinstance(owner, ir.Block) else owner.operation.location


def _is_splat(const: ir.Operation) -> bool:
    """Whether a constant's ``value`` is a dense elements attribute of one repeated value (a Python
    scalar's)."""
    try:
        return bool(ir.DenseElementsAttr(const.attributes["value"]).is_splat)
    except TypeError:  # jaxlib cannot hand out a complex one at all: its text tells (``dense<(1.0,2.0)>``)
        text = str(const.get_asm(print_generic_op_form=True))
        found = re.search(r"value = (dense<.)", text)
        return found is not None and found.group(1) not in ("dense<[", 'dense<"')
    except ValueError:  # dense_resource, or not an elements attribute
        return False


def _rank(t: ir.Type) -> int:
    return ir.RankedTensorType(t).rank if t.typeid == ir.RankedTensorType.static_typeid else -1


def _same_definition(a: ir.Value[ir.Type], b: ir.Value[ir.Type]) -> bool:
    """Whether ``a`` and ``b`` are defined at one point: results of one op, or arguments of one block."""
    oa, ob = a.owner, b.owner
    if isinstance(oa, ir.Block) or isinstance(ob, ir.Block):
        return isinstance(oa, ir.Block) and isinstance(ob, ir.Block) and oa == ob
    return oa.operation == ob.operation


def settle(reader: Reader) -> list[Proposal]:
    """Every site's proposal, settled so that what is shared agrees: a convert is lifted only when
    every op that reads it lifts it; a weak constant only when every op it reaches reads it as weak;
    a shared convert only when it is the one convert of its (value, type) and the converts made
    before it at the same definition are lifted too; a weak value only where every promoted op it
    reaches stays as it is. What a conflict rules out is read again, until nothing changes."""
    while True:
        proposals, vetoed = reader.read_in_order()
        vetoed |= _conflicts(reader, proposals)
        vetoed -= reader.forbidden
        if not vetoed:
            return list(proposals.values())
        reader.forbidden |= vetoed


def _conflicts(reader: Reader, proposals: dict[Candidates, Proposal]) -> set[ir.Operation]:
    lifted: dict[ir.Operation, list[tuple[Proposal, Convert]]] = {}
    literals: dict[ir.Operation, list[tuple[Proposal, Literal]]] = {}
    for proposal in proposals.values():
        for c in proposal.converts:
            lifted.setdefault(c.convert, []).append((proposal, c))
        for lit in proposal.literals:
            literals.setdefault(lit.const, []).append((proposal, lit))
    vetoed: set[ir.Operation] = set()
    # a convert: every use is a promoted operand that lifts it
    for convert, readers in lifted.items():
        if len(readers) == len(readers[0][1].uses):
            claimed = {(p.op, c.position) for p, c in readers}
            if claimed == readers[0][1].uses:
                continue
        vetoed.add(convert)
    # shared converts: one per (value, type), and those made before it at the same definition lifted too;
    # an op's own convert serves that op alone
    seen: dict[tuple[ir.Value[ir.Type], DType], ir.Operation] = {}
    for convert, readers in lifted.items():
        proposal, c = readers[0]
        if any(p.style != proposal.style for p, _ in readers):
            vetoed.add(convert)
            continue
        if proposal.style != SHARED:
            if len(readers) > 1:
                vetoed.add(convert)
            continue
        other = seen.setdefault((c.source, c.target), convert)
        if other != convert:
            vetoed.update((convert, other))
            continue
        p = reader.prev_op.get(convert)
        while p is not None and p.name == _CONVERT and p in reader.prev_op and _same_definition(p.operands[0], c.source):
            entry = lifted.get(p)
            if entry is None or entry[0][0].style != SHARED:
                vetoed.add(convert)
                break
            p = reader.prev_op.get(p)
    # a weak constant: everything it reaches is a promoted operand that reads it as weak, through one convert
    for const, uses in literals.items():
        reach = uses[0][1].reach
        claimed = {(p.op, lit.position) for p, lit in uses}
        if reach is None or reach.elsewhere or len(reach.converts) > 1 or claimed != reach.ends \
                or len({lit.convert for _, lit in uses}) > 1:
            vetoed.add(const)
    return vetoed
