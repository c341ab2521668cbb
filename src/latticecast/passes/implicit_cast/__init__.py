"""The ``implicit-cast`` pass: join operand types on a policy's lattice, insert ``stablehlo.convert``.

For every op whose operands must share an element type (:data:`latticecast.promotion.op_rules.STABLEHLO`)
the pass decides the promotion with :func:`latticecast.promotion.op_rules.decide` (the decision
the graph builder makes too), converts the operands that differ and checks the
declared result type. One conversion is made per (value, target type), placed right
after the value's definition so that it dominates every use, and it carries the
value's sharding. Weak values (:mod:`.weak_values`) take part as the policy's weak types.

Ops inside the regions of ``stablehlo.while``, ``if`` and ``case`` are legalised like the others,
their converts and rebuilt constants in their own block. No promotion crosses a region boundary
(MAX and JAX both require equal element types there): a region that yields another element type
than its op's is refused at its terminator, and so is a ``while`` initial value of another element type
than the loop carries, unless it is weakly typed (JAX's ``while_loop`` rule: it takes the carried type).
Shapes are the verifier's: a branch that yields ``tensor<?xf32>`` where the op has ``tensor<2xf32>``
is legal, and passes unchanged. See
:mod:`latticecast.graph.ops.control_flow` for the builder's side of the same rules.

The jobs are split by module: :mod:`.planning` (what to do with an op of one shape),
:mod:`.weak_values` (weak values, constants and cleanup), :mod:`.lossy` (diagnostics for
conversions that can lose magnitude). Dtype lowering is its own pass
(:mod:`latticecast.passes.lower_dtypes`), which this one runs at its end unless told not to.

Illegal programs get an MLIR error at the op and the pass fails. A module that is
already legal, and has no weak values, is left exactly as it is, so the pass is
idempotent, and says so (:attr:`PassResult.changed <latticecast.passes.base.PassResult.changed>` is
false). The walk is iterative (``Operation.walk`` drives it from C++), and an op whose operands agree
costs a few pointer comparisons; in a module that verified as parsed, where StableHLO's verifier has
already said that they agree, it costs none.
"""

from __future__ import annotations

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic
from ...dialect_utils.placement import after_definition, before_prologue
from ...dialect_utils.types import type_cache
from ...promotion.dtypes import DType
from ...promotion.op_rules import (CONSTANT_LIKE, CONVERT_AT_USE_ATTR, EXPLICIT_BROADCAST_ATTR, IMPLICIT_BROADCAST_ATTR,
                         STABLEHLO, UNARY_STABLEHLO, WEAK_ATTR, WEAK_TRANSPARENT, OpRule, UnaryRule)
from ..base import LatticecastPass, PassResult, collector_paused, top_level_functions
from ..lower_dtypes import lower_dtypes, refresh_function_type
from ..options import ImplicitCastOptions
from ..value_sharding import arguments_may_be_sharded, copy_sharding
from .lossy import check_lossy, report_conversion, report_weak_literal, summary
from .planning import BROADCASTS, Plan, Planner, Refusal, zero_dim_flag
from .weak_values import WeakValues

__all__ = ["ImplicitCastPass", "ImplicitCastOptions", "run_implicit_cast"]

_Known = tuple[ir.Type, int, "bool | str", int]
"""What the walk knows of a value: its type, the number of that type in the run, its weak flag, and the
value's own number in the run (never reused, also after :attr:`_Run.known` forgets the value)."""

_KNOWN_LIMIT = 4096
"""How many values :attr:`_Run.known` keeps at most: enough for every value a chain or a layer reads
again soon, few enough that a million-op walk holds no Python object per op."""


class ImplicitCastPass(LatticecastPass):
    """The pass, for jaxlib's ``PassManager``: ``ImplicitCastPass(policy="max").add_to(pm)``.

    After a run, :attr:`diagnostics` holds every diagnostic, including the remarks and
    warnings MLIR's Python bindings cannot emit.
    """

    argument = ImplicitCastOptions.pass_name
    description = ImplicitCastOptions.pass_description
    Options = ImplicitCastOptions
    options: ImplicitCastOptions

    def run(self, root: ir.Operation) -> PassResult:
        return run_implicit_cast(root, self.options, verified=self.input_verified, unmarked=self.input_unmarked)


def run_implicit_cast(root: "ir.Operation | ir.Module", options: ImplicitCastOptions | None = None, *,
                      verified: bool = False, unmarked: bool = False) -> PassResult:
    """Run the pass's work on ``root`` (a module, or any op) directly, outside a PassManager.

    Errors are emitted as MLIR diagnostics at the ops' locations (an enclosing
    PassManager or diagnostic handler sees them) and recorded in the result.

    Args:
        root: The module or op to legalise, in place.
        options: The pass's options (default: :class:`ImplicitCastOptions`'s defaults).
        verified: ``root`` verifies as it is (MLIR's parser verified it, nothing changed it since). Then
            StableHLO's verifier has already said that the operands of every op whose rule is not
            ``mixed_is_legal`` share an element type, so where no weak value takes part the pass does
            not read their types again (its decision would be "nothing to do" for each).
        unmarked: With ``verified``: no op or function carries a latticecast marker
            (:data:`~latticecast.promotion.op_rules.MARKER_PREFIX`), so no value is weak. Then the pass
            has nothing to do, and does not walk: every op's operands agree where they must (the
            verifier), a unary op's domain and a region's boundary are refused only where the verifier
            refuses them too, and a legal module has no dtype to lower.

    Returns:
        What the run did (:class:`~latticecast.passes.base.PassResult`).

    Example:
        >>> import latticecast as lc
        >>> from latticecast.passes import ImplicitCastOptions, run_implicit_cast
        >>> m = lc.parse('func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {'
        ...              ' %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>'
        ...              ' return %0 : tensor<2xf32> }')
        >>> result = run_implicit_cast(m, ImplicitCastOptions(policy="jax"))
        >>> result.converts, result.changed
        (1, True)
    """
    op = root.operation if isinstance(root, ir.Module) else root
    options = options or ImplicitCastOptions()
    run = _Run(op.operation if hasattr(op, "operation") else op, options, verified, unmarked)
    with op.context, ir.Location.unknown(), collector_paused():
        if options.retype_results:
            from ..infer_types import retype_results  # the inference under a policy: not at start-up

            retype_results(run.root, options.policy)
        run.run()
    return run.result


class _Run:
    """One application of the pass to one root op."""

    def __init__(self, root: ir.Operation, options: ImplicitCastOptions, verified: bool = False,
                 unmarked: bool = False) -> None:
        self.root = root
        self.verified = verified and not options.retype_results  # results retyped before the walk: unverified
        self.settled = self.verified and unmarked  # nothing to do: see run_implicit_cast
        self.options = options
        self.policy = options.policy
        self.tc = type_cache(root.context)
        self.result = PassResult()
        self.planner = Planner(self.policy, self.tc)
        self.plans: dict[tuple[object, ...], Plan | Refusal] = {}
        """The plans of this run by (op name, operand type numbers, result type number, weak flags, 0-d
        flags, at use): the planner's own keys hash MLIR types, each hash a call into the bindings."""
        self.binary_plans: dict[tuple[str, int, int, bool | str, bool | str],
                                tuple[ir.Type, int, Plan | Refusal]] = {}
        """:attr:`plans` of :meth:`_promote_binary`'s ops, by (op name, operand type numbers, operand weak flags):
        the last result type met with them, its number, and the plan (an op whose result type differs takes
        :attr:`plans`)."""
        self.rank_sensitive = self.policy.rank_sensitive
        self.known: dict[ir.Value[ir.Type], _Known] = {}
        """What the walk read of the values that took part in a plan (:data:`_Known`), so that the next
        op that reads one reads no type again: in a chain each op reads the one before it."""
        self.numbers: dict[ir.Type, int] = {}
        self.values_seen = 0  # the number the next value kept in known gets
        self.converted_on_walk: dict[tuple[int, int], ir.Value[ir.Type]] = {}
        """:attr:`converted` as the walk finds it: by (the value's number in :attr:`known`, ``id`` of the
        target dtype), hashing neither an MLIR value nor an enum member (whose ``__hash__`` is Python's)."""
        self.weak = WeakValues(self.policy, self.tc, self.result)
        self.converted: dict[tuple[ir.Value[ir.Type], DType], ir.Value[ir.Type]] = {}  # (value, target) -> its conversion
        self.created: set[ir.Value[ir.Type]] = set()  # the results of the converts this run inserted
        self.sharded_blocks: dict[ir.Block, bool] = {}  # arguments_may_be_sharded of each block met
        self.funcs = top_level_functions(root)
        self.marked_broadcasts: list[ir.Operation] = []  # their markers are removed at the end
        self.at_use: list[ir.Operation] = []  # ops marked latticecast.convert_at_use: their markers too
        self.rebroadcast: list[ir.Operation] = []  # broadcasts replaced by one of the converted source
        self.rewrote_attributes = False  # a compare's compare_type was set: see PassResult.changed

    def run(self) -> None:
        if self.settled:
            self.result.changed = False
            if self.options.report_promotions:
                self.result.diagnostics.append(Diagnostic.at(self.root.location, "remark", summary(self.result)))
            return
        weak = self.weak
        for f in self.funcs:  # weak arguments are defined before every op that uses them
            weak.mark_arguments(f)
        rules, transparent, promote, propagate = STABLEHLO, WEAK_TRANSPARENT, self._promote, weak.propagate
        unary_rules, check_unary = UNARY_STABLEHLO, self._check_unary
        weak_values = weak.values
        failure: list[BaseException] = []
        advance, interrupt = ir.WalkResult.ADVANCE, ir.WalkResult.INTERRUPT
        marked, broadcasts = self.marked_broadcasts, BROADCASTS
        at_use = self.at_use
        boundary = self._region_boundary
        verified = self.verified
        plain_binary = not self.rank_sensitive  # :meth:`_promote_binary` reads no rank
        known_get, known_pair = self.known.get, self._pair
        promote_binary, promote_pair = self._promote_binary, self._promote_pair

        # One pre-order walk does everything: definitions come before their uses, and the
        # rewrites only insert ops right after a definition (before the op being visited),
        # which MLIR's early-increment walk tolerates.
        def visit(op: ir.Operation) -> ir.WalkResult:
            try:
                name = op.name
                rule = rules.get(name)
                attributes = op.attributes
                if rule is not None:  # most ops of a module; a binary one has no attributes at all
                    if len(attributes):
                        if WEAK_ATTR in attributes:
                            weak.mark(op, False)
                        if CONVERT_AT_USE_ATTR in attributes:
                            at_use.append(op)
                            promote(op, rule, True)
                            return advance
                    # No weak value so far, so none among the operands (definitions come first): a
                    # legal mixed dot, or any op of a module that verified, has nothing to do.
                    if not weak_values and (verified or rule.mixed_is_legal):
                        return advance
                    operands = op.operands
                    if rule.operands is None and len(operands) == 2:
                        # :meth:`_promote`'s binary op (most of every module), read here without its
                        # call: in a chain each op reads the one before it, whose type the walk knows
                        a = operands[0]
                        b = operands[1]
                        ka = known_get(a)
                        kb = known_get(b)
                        if ka is None or kb is None:
                            pair = known_pair(a, b, ka, kb)
                            if pair is None:
                                return advance
                            ka, kb = pair
                        if plain_binary:
                            if ka[1] != kb[1] or ka[2] or kb[2]:
                                promote_binary(op, operands, rule, a, b, ka, kb)
                            return advance
                        promote_pair(op, operands, rule, a, b, ka, kb, False)
                        return advance
                    promote(op, rule)
                    return advance
                if WEAK_ATTR in attributes:
                    weak.mark(op, True)
                if name in broadcasts and (IMPLICIT_BROADCAST_ATTR in attributes
                                           or EXPLICIT_BROADCAST_ATTR in attributes):
                    marked.append(op)
                unary = unary_rules.get(name)
                if unary is not None:
                    check_unary(op, unary)
                if weak_values and name in transparent:
                    propagate(op)
                elif name in _REGION_BOUNDARY:
                    boundary(op)
            except Exception as e:  # re-raised below as itself, not as the binding's RuntimeError
                failure.append(e)
                return interrupt
            return advance

        self.root.walk(visit, ir.WalkOrder.PRE_ORDER)
        self.known.clear()  # what the walk read: later steps erase ops, whose values it names
        self.converted_on_walk.clear()
        if failure:
            raise failure[0]
        weak.materialize_escapes(self._materialize, self.created, _settled_by_region)
        cleaned = weak.cleanup(self.funcs)
        for op in marked:
            for marker in (IMPLICIT_BROADCAST_ATTR, EXPLICIT_BROADCAST_ATTR):
                if marker in op.attributes:
                    del op.attributes[marker]
        for op in self.rebroadcast:  # each replaced by a broadcast of its converted source
            if not any(list(r.uses) for r in op.results):
                op.erase()
        for op in at_use:
            if CONVERT_AT_USE_ATTR in op.attributes:
                del op.attributes[CONVERT_AT_USE_ATTR]
        if weak.escapes:
            for func in self.funcs:
                refresh_function_type(func)
        lowered = 0
        if self.result.ok and self.options.lower_dtypes and any(d.needs_lowering for d in self.policy.dtypes):
            lowered = lower_dtypes(self.root, self.tc)
        self.result.changed = bool(cleaned or lowered or self.created or self.result.retyped_constants
                                   or self.rewrote_attributes or marked or at_use or self.rebroadcast
                                   or weak.escapes or self.options.retype_results)
        if self.options.report_promotions:
            self.result.diagnostics.append(Diagnostic.at(self.root.location, "remark", summary(self.result)))

    # -- promotion --------------------------------------------------------------------------

    def _promote(self, op: ir.Operation, rule: OpRule, at_use: bool = False) -> None:
        # The hot path of the pass: a million-op module spends most of its time here, nearly all of
        # it in calls into jaxlib's bindings (each several times a dict lookup of a value). So the
        # types of the values that took part in a plan are kept (:attr:`known`), a plan is found by
        # type numbers, hashing no MLIR type, and the common case (two operands of one type, no weak
        # value) costs two lookups, two type reads and a comparison.
        operands = op.operands
        positions = rule.operands
        known = self.known
        if positions is None and len(operands) == 2:  # binary ops: most of every module
            a = operands[0]
            b = operands[1]
            pair = self._pair(a, b, known.get(a), known.get(b))
            if pair is not None:
                self._promote_pair(op, operands, rule, a, b, pair[0], pair[1], at_use)
            return
        if positions is None:
            values = tuple(operands)
            if len(values) < 2:
                return  # malformed: the verifier reports it
        else:
            if len(operands) <= positions[-1]:
                return
            values = tuple([operands[i] for i in positions])
        entries = tuple([known.get(v) or self._know(v) for v in values])
        read = tuple([e[2] for e in entries])
        numbers = tuple([e[1] for e in entries])
        flags: tuple[bool | str, ...] | None = read
        if not any(read):
            flags = None
            if all(n == numbers[0] for n in numbers):
                return
        self._decide(op, operands, rule, values, entries, numbers, flags, positions, at_use)

    def _pair(self, a: ir.Value[ir.Type], b: ir.Value[ir.Type], ka: "_Known | None",
              kb: "_Known | None") -> "tuple[_Known, _Known] | None":
        """What the walk knows of a binary op's operands ``a`` and ``b`` (``ka``, ``kb``: what :attr:`known`
        has of them), reading the type of a value seen first; ``None`` when there is nothing to decide:
        neither is weak and their types are one (a value seen first is kept only where a plan is made
        for it)."""
        if ka is not None and kb is not None:
            return ka, kb
        weak = self.weak
        ta = a.type if ka is None else ka[0]
        tb = b.type if kb is None else kb[0]
        fa = ka[2] if ka is not None else weak.flag(a) if weak.values else False
        fb = kb[2] if kb is not None else weak.flag(b) if weak.values else False
        if not fa and not fb and ta == tb:
            return None
        return ka or self._remember(a, ta, fa), kb or self._remember(b, tb, fb)

    def _promote_pair(self, op: ir.Operation, operands: "ir.OpOperandList[ir.Type]", rule: OpRule,
                      a: ir.Value[ir.Type], b: ir.Value[ir.Type], ka: _Known, kb: _Known, at_use: bool) -> None:
        """:meth:`_promote` for a binary op whose operands the walk knows (:meth:`_pair`): the flat path
        (:meth:`_promote_binary`) unless the op converts at its use or the policy reads ranks."""
        fa, fb = ka[2], kb[2]
        if not fa and not fb and ka[1] == kb[1]:
            return
        if not at_use and not self.rank_sensitive:
            self._promote_binary(op, operands, rule, a, b, ka, kb)
            return
        flags = (fa, fb) if fa or fb else None
        self._decide(op, operands, rule, (a, b), (ka, kb), (ka[1], kb[1]), flags, None, at_use)

    def _decide(self, op: ir.Operation, operands: "ir.OpOperandList[ir.Type]", rule: OpRule,
                values: tuple[ir.Value[ir.Type], ...], entries: "tuple[_Known, ...]", numbers: tuple[int, ...],
                flags: "tuple[bool | str, ...] | None", positions: tuple[int, ...] | None, at_use: bool) -> None:
        """The plan for ``op``, whose promoted operands ``values`` (at ``positions``) the walk knows as
        ``entries``, found by type numbers (hashing no MLIR type) or made, then applied (:meth:`_finish`)."""
        try:
            result = op.result  # one result: cheaper than op.results[0]
        except ValueError:
            return  # malformed: the verifier reports it
        zero_dim = tuple([zero_dim_flag(v) for v in values]) if self.policy.rank_sensitive else None
        rtype = result.type
        rnumber = self.numbers.get(rtype)
        if rnumber is None:
            rnumber = self._number(rtype)
        key = (rule.name, numbers, rnumber, flags, zero_dim, at_use)
        plan = self.plans.get(key)
        if plan is None:
            # at_use: converts of the op's own, where a frontend writes them (mixed dots promote too)
            plan = self.plans[key] = self.planner.plan(rule, tuple([e[0] for e in entries]), rtype, flags,
                                                       zero_dim, at_use=at_use)
        self._finish(op, operands, rule, plan, values, entries, positions, result, rtype, rnumber, at_use)

    def _finish(self, op: ir.Operation, operands: "ir.OpOperandList[ir.Type]", rule: OpRule, plan: Plan | Refusal,
                values: tuple[ir.Value[ir.Type], ...], entries: "tuple[_Known, ...]",
                positions: tuple[int, ...] | None, result: ir.Value[ir.Type], rtype: ir.Type, rnumber: int,
                at_use: bool) -> None:
        """Apply ``plan`` to ``op`` (:meth:`_promote`'s last step): report a refusal or a remark, convert
        the operands, set a compare's ``compare_type``, and keep what is known of the result."""
        if isinstance(plan, Refusal):
            self.result.error(op, plan.message)
            return
        if plan.remark is not None:
            self.result.diagnostics.append(Diagnostic.at(op.location, "remark", f"'{op.name}' op {plan.remark}"))
        done = self._apply_at_use(op, plan, values, positions) if at_use else \
            self._apply(op, operands, plan, values, entries, positions)
        if not done:
            return
        if plan.compare_type is not None and "compare_type" in op.attributes:
            # SIGNED/UNSIGNED/FLOAT follow the promoted type; a float TOTALORDER stays one
            if not (plan.float_target and "TOTALORDER" in str(op.attributes["compare_type"])):
                op.attributes["compare_type"] = plan.compare_type
                self.rewrote_attributes = True
        if plan.weak_result:  # only a plan makes a promoted op's result weak
            self.weak.values.add(result)
            self._remember(result, rtype, self.weak.flag(result), rnumber)
        else:
            self._remember(result, rtype, False, rnumber)

    def _promote_binary(self, op: ir.Operation, operands: "ir.OpOperandList[ir.Type]", rule: OpRule,
                        a: ir.Value[ir.Type], b: ir.Value[ir.Type], ka: _Known, kb: _Known) -> None:
        """:meth:`_promote` for the op of nearly every promotion: two operands of different types or a weak
        one, no marker, a policy that reads no rank. Its plan is :meth:`_promote`'s (the same key in
        :attr:`plans`), found by a flat key; a plain plan (converts only) is applied here, without the
        general path's tuples and calls; any other takes the general path."""
        try:
            result = op.result
        except ValueError:
            return  # malformed: the verifier reports it
        rtype = result.type
        fa, fb = ka[2], kb[2]
        key = (rule.name, ka[1], kb[1], fa, fb)
        last = self.binary_plans.get(key)
        if last is not None and last[0] == rtype:  # one comparison of types, not a hash and a comparison
            rnumber, plan = last[1], last[2]
        else:
            rnumber = self._number(rtype)
            flags = (fa, fb) if fa or fb else None  # as :meth:`_decide` is keyed
            general = (rule.name, (ka[1], kb[1]), rnumber, flags, None, False)
            made = self.plans.get(general)
            if made is None:
                made = self.plans[general] = self.planner.plan(rule, (ka[0], kb[0]), rtype, flags, None)
            plan = made
            self.binary_plans[key] = (rtype, rnumber, plan)
        if not plan.plain:  # a refusal, a remark, a compare_type to set, a weak result
            self._finish(op, operands, rule, plan, (a, b), (ka, kb), None, result, rtype, rnumber, False)
            return
        walked = self.converted_on_walk
        for i, target in plan.converts:  # type: ignore[union-attr]  # plain: a Plan
            entry = kb if i else ka
            found = walked.get((entry[3], id(target)))
            if found is None:
                found = self._materialize(b if i else a, target, op, i, entry[0])
                if found is None:
                    return
                walked[(entry[3], id(target))] = found
            operands[i] = found
        known = self.known
        if len(known) >= _KNOWN_LIMIT:
            known.clear()
        self.values_seen += 1
        known[result] = (rtype, rnumber, False, self.values_seen)

    def _know(self, value: ir.Value[ir.Type]) -> _Known:
        """Read ``value``'s type and weakness, and keep them (:meth:`_remember`)."""
        weak = self.weak
        return self._remember(value, value.type, weak.flag(value) if weak.values else False)

    def _remember(self, value: ir.Value[ir.Type], t: ir.Type, flag: "bool | str", number: int | None = None) -> _Known:
        """Keep what the walk read of ``value`` (:attr:`known`): its type ``t`` (whose :meth:`_number` is
        ``number``) and weak ``flag``. A value's weakness is settled when its definition is visited, before
        any use of it, and the walk changes no value's type. Only the last :data:`_KNOWN_LIMIT` values are
        kept (each holds its defining op's Python object): a chain reads the value just made."""
        known = self.known
        if len(known) >= _KNOWN_LIMIT:
            known.clear()
        self.values_seen += 1
        found = known[value] = (t, self._number(t) if number is None else number, flag, self.values_seen)
        return found

    def _number(self, t: ir.Type) -> int:
        """The number of type ``t`` in this run: equal types, equal numbers (a plan's key hashes no type)."""
        found = self.numbers.get(t)
        if found is None:
            found = self.numbers[t] = len(self.numbers)
        return found

    def _apply(self, op: ir.Operation, operands: "ir.OpOperandList[ir.Type]", plan: Plan,
               values: tuple[ir.Value[ir.Type], ...],
               entries: "tuple[_Known, ...]", positions: tuple[int, ...] | None) -> bool:
        """Make ``op``'s operands ``values`` (at ``positions``; ``None``: all; ``entries``: what
        :attr:`known` has of them) the conversions ``plan`` names, each made once per (value, type);
        ``False`` when one could not be made (an error was reported)."""
        walked = self.converted_on_walk
        for i, target in plan.converts:
            key = (entries[i][3], id(target))
            new = walked.get(key)
            if new is None:
                new = self._materialize(values[i], target, op, i if positions is None else positions[i], entries[i][0])
                if new is None:
                    return False
                walked[key] = new
            operands[i if positions is None else positions[i]] = new
        return True

    def _apply_at_use(self, op: ir.Operation, plan: Plan, values: tuple[ir.Value[ir.Type], ...],
                      positions: tuple[int, ...] | None) -> bool:
        """:meth:`_apply` for an op that converts its operands itself (:meth:`_materialize_at_use`)."""
        operands = op.operands
        stops = [self._converted_source(values[i]) for i, _ in plan.converts
                 if not self._converted_at_constant(values[i])]
        locations = iter(_recorded_locations(op))
        for i, target in plan.converts:
            loc = op.location if self._converted_at_constant(values[i]) else next(locations, op.location)
            new = self._materialize_at_use(values[i], target, op, i if positions is None else positions[i],
                                           stops, loc)
            if new is None:
                return False
            operands[i if positions is None else positions[i]] = new
        return True

    # -- region boundaries ------------------------------------------------------------------

    def _region_boundary(self, op: ir.Operation) -> None:
        """Values that cross into or out of a region: a ``stablehlo.while``'s initial values, and what a
        region of ``while``, ``if`` or ``case`` yields. No promotion crosses a region boundary (MAX and
        JAX both require equal element types there), with JAX's one exception: a weakly typed initial
        value of a ``while`` takes the type the loop carries. Any other element type mismatch is refused
        here, naming the value, rather than left to the verifier; shapes are the verifier's to judge."""
        if op.name == "stablehlo.while":
            if not op.regions or not op.regions[1].blocks:
                return  # malformed: the verifier reports it
            carried = [a.type for a in op.regions[1].blocks[0].arguments]
            for n, (value, carry) in enumerate(zip(op.operands, carried)):
                if _same_element(value.type, carry):
                    continue
                if value in self.weak.values and _compatible_shapes(value.type, carry):
                    carried_dtype = self._dtype_of(carry)
                    if carried_dtype is not None:
                        new = self._materialize(value, carried_dtype, op)
                        if new is not None:
                            op.operands[n] = new
                        continue
                self.result.error(op, f"initial value {n} has type {value.type}, but the loop carries {carry}: "
                                      f"{_NO_PROMOTION}; convert it (stablehlo.convert) to {carry}")
            return
        view = op.parent
        if view is None:
            return  # a detached terminator: nothing encloses it
        parent = view.operation  # an OpView's .name may be its symbol (func.func's is)
        kind = parent.name
        if kind not in _REGIONS:
            return  # a function's return, or another op's terminator: not a region boundary
        region = _region_index(parent, op)
        if kind == "stablehlo.while" and region == 0:
            expected = [self.tc.tensor(DType.bool, ())]
            what = "the condition region of stablehlo.while"
        else:
            expected = [r.type for r in parent.results]
            what = {"stablehlo.while": "the body of stablehlo.while", "stablehlo.if":
                    ("the true" if region == 0 else "the false") + " branch of stablehlo.if"}.get(
                        kind, f"branch {region} of stablehlo.case")
        if len(op.operands) != len(expected):
            return  # the verifier reports a wrong count
        for n, (value, want) in enumerate(zip(op.operands, expected)):
            if not _same_element(value.type, want):
                weak = "a weakly typed " if value in self.weak.values else ""
                self.result.error(op, f"{what} yields {weak}{value.type} as result {n}, but {kind} has {want} "
                                      f"there: {_NO_PROMOTION}; convert it (stablehlo.convert) to {want}")

    def _dtype_of(self, t: ir.Type) -> DType | None:
        """The dtype of a ranked tensor type, or ``None`` for a type the pass cannot read."""
        try:
            return self.tc.tensor_info(t)[0]
        except TypeError:
            return None

    def _check_unary(self, op: ir.Operation, rule: UnaryRule) -> None:
        """Report a unary op whose operand's element type the op is not defined for (``stablehlo.negate``
        of ``i1``), naming the fix. Only what StableHLO's verifier rejects too is reported
        (:attr:`UnaryRule.needs <latticecast.promotion.op_rules.UnaryRule.needs>`), so a legal op is never touched."""
        operands = op.operands
        if len(operands) != 1:
            return  # malformed: the verifier reports it
        plan = self.planner.plan_unary(rule, operands[0].type)
        if isinstance(plan, Refusal):
            self.result.error(op, plan.message)

    # -- conversion -------------------------------------------------------------------------

    def _materialize(self, value: ir.Value[ir.Type], target: DType, user: ir.Operation,
                     operand: int | None = None, t: ir.Type | None = None) -> ir.Value[ir.Type] | None:
        """``value`` (of type ``t``, where the walk has read it) as ``target``: a rebuilt weak constant, or
        one convert per (value, target)."""
        key = (value, target)
        found = self.converted.get(key)
        if found is not None:
            return found
        weak = self.weak
        if t is None:
            t = value.type  # read once: for the source dtype and for the convert's result type
        source = self.tc.tensor_info(t)[0]
        is_weak = value in weak.values
        if is_weak and weak.is_constant_chain(value):
            new = weak.retype_constant_chain(value, target, user, self.converted)
            if new is not None:
                report_weak_literal(self.options, source, target, user, operand, self.result)
        else:
            options = self.options
            check_lossy(options.diagnose_lossy, source, target, user, self.result, options.diagnose_precision)
            report = report_weak_literal if is_weak else report_conversion
            report(options, source, target, user, operand, self.result)
            new = self._convert(value, target, t=t)
        if new is not None:
            self.converted[key] = new
        return new

    # -- conversion where the op uses the value (latticecast.convert_at_use) --------------------

    def _converted_source(self, value: ir.Value[ir.Type]) -> ir.Value[ir.Type]:
        """The value a convert for an op marked ``convert_at_use`` reads: the source of an implicit
        broadcast (converted, then broadcast), else ``value`` itself."""
        owner = value.owner
        if not isinstance(owner, ir.Block) and owner.name == "stablehlo.broadcast_in_dim" \
                and IMPLICIT_BROADCAST_ATTR in owner.attributes and not self._converted_at_constant(value):
            source: ir.Value[ir.Type] = owner.operands[0]
            return source
        return value

    def _converted_at_constant(self, value: ir.Value[ir.Type]) -> bool:
        """A weak constant that reaches the op through data movement: converted where it is read."""
        owner = value.owner
        return not isinstance(owner, ir.Block) and owner.name not in CONSTANT_LIKE \
            and value in self.weak.values and self.weak.is_constant_chain(value)

    def _materialize_at_use(self, value: ir.Value[ir.Type], target: DType, user: ir.Operation, operand: int,
                            stops: list[ir.Value[ir.Type]], loc: ir.Location) -> ir.Value[ir.Type] | None:
        """``value`` as ``target`` for ``user`` alone, as JAX and torch-mlir write it: a convert of its own
        (at ``loc``) right before ``user``'s prologue (:func:`~latticecast.dialect_utils.placement.before_prologue`);
        an implicit broadcast's source converted, then broadcast again; a weak constant converted where
        it is read (once per (constant, type))."""
        weak = self.weak
        source = self.tc.tensor_info(value.type)[0]
        options = self.options
        if value in weak.values and weak.is_constant_chain(value):
            new = weak.convert_constant_chain(value, target, user, self.converted,
                                              lambda v, t, ip: self._convert(v, t, ip, loc),
                                              lambda: before_prologue(user, stops))
            if new is not None:
                report_weak_literal(options, source, target, user, operand, self.result)
            return new
        check_lossy(options.diagnose_lossy, source, target, user, self.result, options.diagnose_precision)
        report = report_weak_literal if value in weak.values else report_conversion
        report(options, source, target, user, operand, self.result)
        origin = self._converted_source(value)
        converted = self._convert(origin, target, before_prologue(user, stops), loc)
        owner = value.owner
        if origin is value or isinstance(owner, ir.Block):
            return converted
        broadcast = owner.operation
        attrs = {name: broadcast.attributes[name] for name in broadcast.attributes}
        rebuilt = ir.Operation.create(broadcast.name, results=[self.tc.with_element(value.type, target)],
                                      operands=[converted], attributes=attrs, loc=broadcast.location,
                                      ip=ir.InsertionPoint.after(broadcast))
        self.marked_broadcasts.append(rebuilt)
        self.rebroadcast.append(broadcast)
        result: ir.Value[ir.Type] = rebuilt.result
        return result

    def _convert(self, value: ir.Value[ir.Type], target: DType, ip: ir.InsertionPoint | None = None,
                 loc: ir.Location | None = None, t: ir.Type | None = None) -> ir.Value[ir.Type]:
        """A ``stablehlo.convert`` of ``value`` (of type ``t``, where the caller has read it) to ``target``:
        right after its definition, or at ``ip``."""
        owner = value.owner  # read once: each read makes a Python object of the defining op
        if ip is None:
            ip, loc = after_definition(value, owner)
        op = ir.Operation.create("stablehlo.convert", results=[self.tc.with_element(value.type if t is None else t,
                                                                                    target)],
                                 operands=[value], loc=loc, ip=ip)
        sharded = True
        if isinstance(owner, ir.Block):  # an argument: whether its block's can be sharded is read once per block
            found = self.sharded_blocks.get(owner)
            if found is None:
                found = self.sharded_blocks[owner] = arguments_may_be_sharded(owner)
            sharded = found
        if sharded:
            copy_sharding(value, op, owner)
        result: ir.Value[ir.Type] = op.result
        self.created.add(result)  # a value hashes by its pointer; an op by its contents, which change
        self.result.converts += 1
        return result


_REGIONS = frozenset({"stablehlo.while", "stablehlo.if", "stablehlo.case"})
"""Control-flow ops whose regions' results cross a boundary without promotion."""

_REGION_BOUNDARY = frozenset({"stablehlo.while", "stablehlo.return"})
"""The ops the walk checks at a region boundary: a while's initial values, a region's terminator."""

_NO_PROMOTION = "no promotion crosses a region boundary (MAX and JAX both require equal types there)"


def _recorded_locations(op: ir.Operation) -> list[ir.Location]:
    """The locations of the op's own converts, in the order the pass makes them, as a
    ``latticecast.convert_at_use`` marker records them: per convert, the name that replaces the last
    ``/`` component of the op's name location (``lift-implicit-casts`` keeps JAX's
    ``jit(f)/convert_element_type`` so), or ``""`` for the op's own location; none for a unit marker."""
    marker = op.attributes[CONVERT_AT_USE_ATTR]
    if marker.typeid != ir.ArrayAttr.static_typeid:
        return []
    loc = op.location
    out: list[ir.Location] = []
    for attr in ir.ArrayAttr(marker):
        leaf = ir.StringAttr(attr).value if attr.typeid == ir.StringAttr.static_typeid else ""
        if leaf and isinstance(loc, ir.NameLoc):
            prefix, slash, _ = loc.name_str.rpartition("/")
            out.append(ir.Location.name(prefix + slash + leaf, loc.child_loc, context=loc.context))
        else:
            out.append(loc)
    return out


def _region_index(parent: ir.Operation, terminator: ir.Operation) -> int:
    """Which region of ``parent`` holds ``terminator``."""
    block = terminator.block
    for n, region in enumerate(parent.regions):
        if block.region == region:
            return n
    return -1


def _shaped(t: ir.Type) -> "ir.ShapedType | None":
    try:
        return ir.ShapedType(t)
    except ValueError:
        return None


def _same_element(a: ir.Type, b: ir.Type) -> bool:
    """Whether a value of type ``a`` crosses a region boundary typed ``b`` without a promotion: the same
    type, or shaped types of one element type (``tensor<?xf32>`` where the op has ``tensor<2xf32>``:
    whether the shapes are compatible is the verifier's to judge, not a promotion). Types the pass
    cannot read (tokens, tuples) are the verifier's too."""
    if a == b:
        return True
    sa, sb = _shaped(a), _shaped(b)
    return sa is None or sb is None or sa.element_type == sb.element_type


def _compatible_shapes(a: ir.Type, b: ir.Type) -> bool:
    """Whether shaped types ``a`` and ``b`` have shapes the verifier accepts as compatible (MLIR's
    ``verifyCompatibleShape``): either is unranked, or they have one rank and each pair of dimensions is
    equal or has a dynamic one."""
    sa, sb = _shaped(a), _shaped(b)
    if sa is None or sb is None:
        return False
    if not sa.has_rank or not sb.has_rank:
        return True
    if sa.rank != sb.rank:
        return False
    return all(x == y or sa.is_dynamic_dim(i) or sb.is_dynamic_dim(i)
               for i, (x, y) in enumerate(zip(sa.shape, sb.shape)))


def _settled_by_region(user: ir.Operation) -> bool:
    """Whether ``user`` gives a weak operand its type itself: a control-flow op (its initial values,
    predicate or index) or a region's terminator, whose types the enclosing op fixes."""
    name = user.name
    if name in _REGIONS:
        return True
    parent = user.parent
    return name == "stablehlo.return" and parent is not None and parent.operation.name in _REGIONS
