"""Planning: what ``implicit-cast`` does to every op of one shape, decided once by ``op_rules``.

Ops with the same name, operand types, result type and weak operands get the same
rewrite, so the plan is computed once per such key (a million-op chain has a handful
of keys) and the walk only applies it. The decision itself is :func:`latticecast.op_rules.decide`,
the one the graph builder makes too; this module only reads the types off the IR and
turns a decision into operand conversions.

The pass's principle: an op that StableHLO's verifier accepts and that no weak value
takes part in is left exactly as it is. Operands of one element type need nothing;
mixed operands of an op whose mixed form is legal (``dot_general``) need nothing;
anything the pass cannot read (tokens, tuples, unranked tensors, a wrong operand
count) is left for the verifier to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from jaxlib.mlir import ir

from ...dialect_utils.types import TypeCache
from ...dtypes import DType
from ...errors import DomainError, PromotionError
from ...op_rules import WEAK_ARRAY, OpRule, UnaryRule, decide, unary_problem
from ...policies import Policy
from ...weak import PType, Weak

__all__ = ["Plan", "Refusal", "NOTHING", "Planner", "EXPLICIT_FROM_0D"]

EXPLICIT_FROM_0D = "explicit"
"""A 0-d flag: the operand is an unmarked (explicit) broadcast of a 0-d tensor. A rank-sensitive
policy reads it as the dimensioned tensor its type says, unless the op declares a result type that
only the implicit reading (a 0-d operand broadcast by the operator, as torch-mlir writes ``h + f``
for a 0-d ``f``) explains."""


@dataclass(frozen=True)
class Plan:
    """The rewrite of every op with one key: ``converts`` are (index among the promoted operands,
    target dtype); ``compare_type`` the comparison type a converted compare needs."""

    converts: tuple[tuple[int, DType], ...]
    compare_type: ir.Attribute | None
    weak_result: bool
    float_target: bool


NOTHING = Plan((), None, False, False)
"""The plan that leaves the op as it is."""


@dataclass(frozen=True)
class Refusal:
    """No plan: the error to report at every op with one key."""

    message: str



PlanKey = tuple[str, tuple[ir.Type, ...], ir.Type, "tuple[bool | str, ...] | None", "tuple[bool | str, ...] | None"]
"""What a plan is made for: (op name, operand types, result type, weak flags, 0-d flags)."""


class Planner:
    """Plans of one pass run: a policy, the context's types, and the plans made so far."""

    def __init__(self, policy: Policy, tc: TypeCache) -> None:
        self.policy = policy
        self.tc = tc
        self.plans: dict[PlanKey, Plan | Refusal] = {}
        """The plans made so far, by (op name, operand types, result type, weak flags, 0-d flags)."""
        self.plans_at_use: dict[PlanKey, Plan | Refusal] = {}
        """The plans of ops marked ``latticecast.convert_at_use``, whose mixed dots promote too."""

    def plan(self, rule: OpRule, types: tuple[ir.Type, ...], rtype: ir.Type,
             flags: "tuple[bool | str, ...] | None", zero_dim: "tuple[bool | str, ...] | None" = None,
             at_use: bool = False) -> Plan | Refusal:
        """The plan for an op of ``rule`` whose promoted operands have ``types`` (weak where ``flags``
        says: ``True`` a literal, :data:`~latticecast.op_rules.WEAK_ARRAY` a weak array; 0-d tensors
        where ``zero_dim`` says, for a rank-sensitive policy) and whose result has ``rtype``; a :class:`Refusal`
        is the error to report at the op. ``at_use``: the op is marked ``latticecast.convert_at_use``
        (a frontend converted its operands), so a mixed dot promotes too, although StableHLO allows it."""
        key = (rule.name, types, rtype, flags, zero_dim)
        plans = self.plans_at_use if at_use else self.plans
        found = plans.get(key)
        if found is None:
            found = plans[key] = self._make(rule, types, rtype, flags, zero_dim, at_use)
        return found

    def _make(self, rule: OpRule, types: Sequence[ir.Type], rtype: ir.Type,
              flags: "tuple[bool | str, ...] | None", zero_dim: "tuple[bool | str, ...] | None",
              at_use: bool = False) -> Plan | Refusal:
        tc = self.tc
        try:
            dtypes = [tc.tensor_info(t)[0] for t in types]
            res_dtype = tc.tensor_info(rtype)[0]
        except TypeError:
            return NOTHING  # not ranked tensors of latticecast dtypes: the verifier judges
        weak = flags is not None and any(flags)
        if not weak and ((rule.mixed_is_legal and not at_use) or all(d is dtypes[0] for d in dtypes)):
            return NOTHING
        ptypes: list[PType] = [self._ptype(d, f) for d, f in zip(dtypes, flags or [False] * len(dtypes))]
        explicit = zero_dim is not None and EXPLICIT_FROM_0D in zero_dim
        readings: Sequence[tuple[bool, ...] | None] = [None]
        if zero_dim is not None:  # dimensioned first: what the broadcast's type says
            readings = [tuple([z is True for z in zero_dim]),  # EXPLICIT_FROM_0D read as False
                        tuple([z is not False for z in zero_dim])][:2 if explicit else 1]  # and as True
        problem = None
        for reading in readings:
            try:
                decision = decide(self.policy, rule, ptypes, reading)
            except (PromotionError, DomainError) as e:
                problem = problem or str(e)
                continue
            if decision.accepts_result(res_dtype, self.policy):
                break
            if problem is None:
                names = " and ".join(self.policy.type_name(t) for t in ptypes)
                expected = tc.with_element(rtype, decision.result)
                problem = (f"declares result type {rtype}, which contradicts the promotion of {names} to "
                           f"{decision.target.mlir_name} under policy '{self.policy.name}'; declare {expected}")
                if explicit:
                    problem += (" (an operand is a broadcast of a 0-d tensor: read as a dimensioned tensor, as "
                                "written, and as a 0-d one broadcast by the op, the declared type contradicts both)")
        else:
            assert problem is not None  # every reading was refused or contradicted
            return Refusal(problem)
        target = decision.target
        converts = tuple((i, target) for i, d in enumerate(dtypes) if d is not target)
        compare_type = (_comparison_type(target) if rule.name == "stablehlo.compare" and converts else None)
        return Plan(converts, compare_type, decision.result_weak and res_dtype is decision.result,
                    target.is_inexact)

    def plan_unary(self, rule: UnaryRule, operand_type: ir.Type) -> Plan | Refusal:
        """Whether a unary op of ``rule`` is defined for an operand of ``operand_type``: :data:`NOTHING`
        where it is (or where the pass cannot read the type: the verifier judges), else the
        :class:`Refusal` that names the op's domain and the fix. Made once per (op, type), as plans are."""
        key = (rule.op or rule.name, (operand_type,), operand_type, None, None)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = self._make_unary(rule, operand_type)
        return found

    def _make_unary(self, rule: UnaryRule, operand_type: ir.Type) -> Plan | Refusal:
        try:
            dtype = self.tc.tensor_info(operand_type)[0]
        except TypeError:
            return NOTHING  # not a ranked tensor of a latticecast dtype: the verifier judges
        if rule.needs.admits(dtype):
            return NOTHING
        element = ir.ShapedType(operand_type).element_type
        return Refusal(unary_problem(rule, dtype, rule.needs, str(element)))

    def _ptype(self, dtype: DType, flag: "bool | str") -> PType:
        """The type an operand of element type ``dtype`` promotes as, given its weak flag."""
        if not flag:
            return dtype
        return self.policy.numpy_values.array_type(dtype) if flag == WEAK_ARRAY else Weak(dtype)


def _comparison_type(dtype: DType) -> ir.Attribute:
    from jaxlib.mlir.dialects import stablehlo  # its op classes load only when a compare needs a type

    kind = "FLOAT" if dtype.is_inexact else "SIGNED" if dtype.is_signed else "UNSIGNED"
    return stablehlo.ComparisonTypeAttr.get(kind)
