"""Planning: what ``implicit-cast`` does to every op of one shape, decided once by ``op_rules``.

Ops with the same name, operand types, result type and weak operands get the same
rewrite, so the plan is computed once per such key (a million-op chain has a handful
of keys) and the walk only applies it. The decision itself is :func:`latticecast.promotion.op_rules.decide`,
the one the graph builder makes too; this module only reads the types off the IR and
turns a decision into operand conversions.

The pass's principle: an op that StableHLO's verifier accepts and that no weak value
takes part in is left exactly as it is. Operands of one element type need nothing;
mixed operands of an op whose mixed form is legal (``dot_general``) need nothing;
anything the pass cannot read (tokens, tuples, unranked tensors, a wrong operand
count) is left for the verifier to report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import ClassVar, Sequence

from jaxlib.mlir import ir

from ...dialect_utils.types import TypeCache
from ...promotion.dtypes import DType
from ...errors import DomainError, PromotionError
from ...promotion.op_rules import WEAK_ARRAY, OpPromotion, OpRule, UnaryRule, decide, unary_problem
from ...policies import Policy
from ...promotion.weak import PType, Weak
from ..rank import BROADCAST_FROM_0D, BROADCASTS, zero_dim_flag, zero_dim_readings

__all__ = ["Plan", "Refusal", "NOTHING", "Planner", "BROADCAST_FROM_0D", "BROADCASTS", "zero_dim_flag",
           "zero_dim_readings"]

@dataclass(frozen=True)
class Plan:
    """The rewrite of every op with one key: ``converts`` are (index among the promoted operands,
    target dtype); ``compare_type`` the comparison type a converted compare needs."""

    converts: tuple[tuple[int, DType], ...]
    compare_type: ir.Attribute | None
    weak_result: bool
    float_target: bool
    remark: str | None = None
    """What the pass says at every op of this plan: a broadcast of a 0-d tensor whose reading the IR
    cannot settle (:data:`BROADCAST_FROM_0D`), the reading taken, the other and the fix."""
    plain: bool = field(init=False, repr=False, compare=False)
    """Derived: the plan only converts operands (no comparison type, weak result or remark)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "plain", self.compare_type is None and not self.weak_result and self.remark is None)


NOTHING = Plan((), None, False, False)
"""The plan that leaves the op as it is."""


@dataclass(frozen=True)
class Refusal:
    """No plan: the error to report at every op with one key."""

    message: str
    plain: ClassVar[bool] = False
    """A refusal is never applied as a plan is (:attr:`Plan.plain`)."""



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
        says: ``True`` a literal, :data:`~latticecast.promotion.op_rules.WEAK_ARRAY` a weak array; 0-d tensors
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
        readings = zero_dim_readings(zero_dim)
        found: list[tuple[tuple[bool, ...] | None, OpPromotion]] = []  # the readings the declared type admits
        problem = None
        offered: list[tuple[tuple[bool, ...] | None, OpPromotion]] = []
        for reading in readings:
            try:
                decision = decide(self.policy, rule, ptypes, reading)
            except (PromotionError, DomainError) as e:
                problem = problem or str(e)
                continue
            if decision.accepts_result(res_dtype, self.policy):
                found.append((reading, decision))
            else:
                offered.append((reading, decision))
        if not found:
            if offered:
                problem = self._contradiction(rule, ptypes, rtype, zero_dim, offered)
            assert problem is not None  # every reading was refused or contradicted
            return Refusal(problem)
        reading, decision = found[0]
        target = decision.target
        remark = None
        others = [(r, d) for r, d in found[1:] if d.target is not target]
        if others:
            remark = self._ambiguity(rule, ptypes, zero_dim, (reading, decision), others[0])
        converts = tuple((i, target) for i, d in enumerate(dtypes) if d is not target)
        compare_type = (_comparison_type(target) if rule.name == "stablehlo.compare" and converts else None)
        return Plan(converts, compare_type, decision.result_weak and res_dtype is decision.result,
                    target.is_inexact, remark)

    def _contradiction(self, rule: OpRule, ptypes: Sequence[PType], rtype: ir.Type,
                       zero_dim: "tuple[bool | str, ...] | None",
                       offered: "list[tuple[tuple[bool, ...] | None, OpPromotion]]") -> str:
        """The error for a declared result type that no reading of the operands explains."""
        names = " and ".join(self.policy.type_name(t) for t in ptypes)
        where = f"under policy '{self.policy.name}'"
        unmarked = _unmarked(rule, zero_dim)
        if not unmarked or len(offered) == 1:
            decision = offered[0][1]
            return (f"declares result type {rtype}, which contradicts the promotion of {names} to "
                    f"{decision.target.mlir_name} {where}; declare {self.tc.with_element(rtype, decision.result)}")
        said: dict[DType, str] = {}  # one reading per promoted type
        for r, d in offered:
            said.setdefault(d.target, f"read {_describe(rule, zero_dim, r)}, to {d.target.mlir_name} (declare "
                                      f"{self.tc.with_element(rtype, d.result)})")
        return (f"declares result type {rtype}, which contradicts every reading of {names} {where}: "
                f"{_subject(unmarked)}; {'; '.join(said.values())}")

    def _ambiguity(self, rule: OpRule, ptypes: Sequence[PType], zero_dim: "tuple[bool | str, ...] | None",
                   taken: "tuple[tuple[bool, ...] | None, OpPromotion]",
                   other: "tuple[tuple[bool, ...] | None, OpPromotion]") -> str:
        """The remark for a broadcast of a 0-d tensor whose reading the declared result cannot settle."""
        names = " and ".join(self.policy.type_name(t) for t in ptypes)
        unmarked = _unmarked(rule, zero_dim)
        verb = "compare" if rule.name == "stablehlo.compare" else "promote"
        one = len(unmarked) == 1
        return (f"{_subject(unmarked)} that no marker explains: torch-mlir writes one both for a 0-d tensor or "
                f"Python scalar the op broadcasts (x == z) and for an explicit z.expand(...). Read "
                f"{_describe(rule, zero_dim, taken[0])}, {names} {verb} in {taken[1].target.mlir_name} under "
                f"policy '{self.policy.name}'; read {_describe(rule, zero_dim, other[0])}, in "
                f"{other[1].target.mlir_name}. If {'it is' if one else 'one of them is'} an expand, convert the "
                f"operands to {other[1].target.mlir_name} first (stablehlo.convert); mark "
                f"{'the broadcast' if one else 'each broadcast'} latticecast.explicit_broadcast or "
                f"latticecast.implicit_broadcast to say which it is")

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


def _unmarked(rule: OpRule, zero_dim: "tuple[bool | str, ...] | None") -> list[int]:
    """The op's operand numbers of the :data:`BROADCAST_FROM_0D` operands."""
    if zero_dim is None:
        return []
    positions = rule.operands or range(len(zero_dim))
    return [positions[i] for i, z in enumerate(zero_dim) if z == BROADCAST_FROM_0D]


def _subject(numbers: list[int]) -> str:
    """``operand #1 is a broadcast of a 0-d tensor``, or the plural for several operands."""
    if len(numbers) == 1:
        return f"operand #{numbers[0]} is a broadcast of a 0-d tensor"
    return "operands " + ", ".join(f"#{n}" for n in numbers) + " are broadcasts of 0-d tensors"


def _describe(rule: OpRule, zero_dim: "tuple[bool | str, ...] | None", reading: "tuple[bool, ...] | None") -> str:
    """A reading of the unmarked broadcasts, in words: ``as the 0-d tensor``, ``as a dimensioned tensor``."""
    if zero_dim is None or reading is None:
        return "as written"
    positions = rule.operands or range(len(zero_dim))
    unmarked = [i for i, z in enumerate(zero_dim) if z == BROADCAST_FROM_0D]
    if len(unmarked) == 1:
        return "as the 0-d tensor" if reading[unmarked[0]] else "as a dimensioned tensor (an expand)"
    zero = [f"#{positions[i]}" for i in unmarked if reading[i]]
    return f"with {', '.join(zero)} as 0-d" if zero else "with all as dimensioned tensors"


def _comparison_type(dtype: DType) -> ir.Attribute:
    from jaxlib.mlir.dialects import stablehlo  # its op classes load only when a compare needs a type

    kind = "FLOAT" if dtype.is_inexact else "SIGNED" if dtype.is_signed else "UNSIGNED"
    return stablehlo.ComparisonTypeAttr.get(kind)
