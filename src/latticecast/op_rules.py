"""What one op does under one policy: the single decision that the graph builder and the pass share.

An op family is data (:class:`OpRule`): which operands promote together, what the
result type is (:class:`ResultKind`), and which kinds of type the op exists for
(:class:`Needs`). :func:`decide` joins the operand types with the policy
(:meth:`Policy.decide <latticecast.policies.Policy.decide>`), applies the op's own
rule, and returns an :class:`OpPromotion`: the join, the dtype every promoted
operand converts to, the result dtype, and whether the result is weak. A program
the policy refuses raises one :class:`~latticecast.errors.PromotionError`, whose
text names both types, the policy and the explicit cast that would fix it; an op that
does not exist for the promoted type (``&`` of floats) raises a
:class:`~latticecast.errors.DomainError`.

The builder (``latticecast.graph.ops``) and the ``implicit-cast`` pass are thin
adapters over :func:`decide`: the builder calls it with the types of the values a
user combines, the pass with the element types it reads off the IR. Each prefixes
the error with where it happened (``+: ...`` for the builder, ``'stablehlo.add' op
...`` in MLIR's convention for the pass); the text after the prefix is the same.

To find where ``int8 + uint64`` is decided under policy ``P``: :func:`decide` with
:data:`STABLEHLO` ``["stablehlo.add"]`` calls ``policy(P).decide(int8, uint64)``,
which is a join on ``P``'s graph in :mod:`latticecast.policies.lattices` or ``P``'s
rule in its module. This module imports nothing from MLIR.
"""

from __future__ import annotations

import dataclasses
import enum
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from .dtypes import DType
from .errors import DomainError
from .weak import PType, Weak

if TYPE_CHECKING:
    from .policies.base import DivisionOperands, Policy

__all__ = ["ResultKind", "Needs", "OpRule", "OpPromotion", "decide", "STABLEHLO", "TRUE_DIVIDE",
           "INEXACT_BINARY", "FLOAT_FUNCTION", "FLOOR_DIVIDE", "WEAK_TRANSPARENT", "RETYPABLE", "CONSTANT_LIKE",
           "WEAK_ATTR", "IMPLICIT_BROADCAST_ATTR", "WEAK_ARRAY"]

WEAK_ATTR = "latticecast.weak"
"""The attribute that marks a weakly typed value's defining op (or function argument) in the IR: a unit
attribute for a Python literal (or values computed from literals only), whose elements the policy checks
as literals."""

IMPLICIT_BROADCAST_ATTR = "latticecast.implicit_broadcast"
"""The unit attribute on a ``broadcast_in_dim`` that a binary operator made implicitly (NumPy-style
operand broadcasting), as the builder writes it under a rank-sensitive policy: the broadcast value
still promotes as the 0-d tensor it was (PyTorch's dimension categories). An unmarked broadcast is
an explicit one (``expand``, ``broadcast_to``): its value is the dimensioned tensor its type says."""

WEAK_ARRAY = "array"
"""The value of :data:`WEAK_ATTR` on a constant that is a weakly typed *array*
(``latticecast.weak = "array"``): a NumPy array that meets a graph value where the policy makes NumPy
values weak (MAX 26.7's external arrays), kept in its own dtype. It promotes as
``Policy.weak_array_type`` says and is checked by ``Policy.weak_array_problem``, since a system may
treat an array otherwise than a literal (MAX converts a float array to bool, and refuses a Python
float there). Data movement of such a constant is such an array too."""


class ResultKind(enum.Enum):
    """What an op's result type is, given the promoted type of its operands."""

    PROMOTED = "promoted"
    """The promoted type itself (weak when the join is weak): ``add``, ``select``."""
    BOOL = "bool"
    """``i1``, whatever the operands: ``compare``."""
    COMPLEX = "complex"
    """The complex type of the promoted real float: ``stablehlo.complex``."""
    ACCUMULATE = "accumulate"
    """The promoted type, or any type above it that the op declares: a dot's accumulation type
    (JAX emits ``bf16 x bf16 -> f32``)."""
    INEXACT = "inexact"
    """The system's inexact type for the promoted type (:meth:`Policy.true_divide_type`): true
    division and float functions convert integer operands first (``int16 / int16`` is float32 in
    JAX); a system that divides integers as integers (``jax.lax``) keeps the promoted type."""


class Needs(enum.Enum):
    """The kinds of promoted type an op exists for in StableHLO."""

    ANY = "operands"
    NUMERIC = "numbers (not bool)"
    REAL = "real numbers (not bool or complex)"
    INEXACT = "floating-point or complex operands"
    REAL_FLOAT = "f32 or f64 operands"
    INTEGER = "integer operands (not bool or float)"
    INTEGER_OR_BOOL = "integer or bool operands"

    def admits(self, dtype: DType) -> bool:
        if self is Needs.ANY:
            return True
        if self is Needs.NUMERIC:
            return not dtype.is_bool
        if self is Needs.REAL:
            return not dtype.is_bool and not dtype.is_complex
        if self is Needs.INEXACT:
            return dtype.is_inexact
        if self is Needs.REAL_FLOAT:
            return dtype is DType.float32 or dtype is DType.float64
        if self is Needs.INTEGER:
            return dtype.is_integral()
        return dtype.is_integral() or dtype.is_bool


@dataclass(frozen=True)
class OpRule:
    """An op family: ``operands`` are the indices that promote together (``None``: all of them).

    ``mixed_is_legal``: StableHLO's verifier accepts the op with operands of different
    element types (``dot_general``: fp8 training writes ``f8E4M3FN x f8E5M2 -> f32``), so the
    pass leaves such an op alone unless a weak value takes part, and the builder converts its
    operands itself.
    """

    name: str
    needs: Needs = Needs.ANY
    result: ResultKind = ResultKind.PROMOTED
    operands: tuple[int, ...] | None = None
    mixed_is_legal: bool = False


@dataclass(frozen=True)
class OpPromotion:
    """What :func:`decide` decided for one op: the ``join`` of its operand types, the ``target``
    dtype each promoted operand converts to, the ``result`` dtype and whether it is weak."""

    rule: OpRule
    join: PType
    target: DType
    result: DType
    result_weak: bool
    result_ptype: PType = None  # type: ignore[assignment]  # set by __post_init__
    """The result's type as a value of the graph carries it (weak or not); derived."""
    operand_dtypes: tuple[DType, ...] | None = None
    """Where the system gives each operand its dtype before the op converts them (MAX's ``/``:
    ``Policy.true_divide_operands``), those dtypes: a Python literal is checked against its own
    entry (``int8 / 128`` is refused in int8, not accepted as float64). ``None``: literals are
    checked against ``target``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "result_ptype", Weak(self.result) if self.result_weak else self.result)

    def accepts_result(self, declared: DType, policy: Policy) -> bool:
        """Whether a result type the IR declares agrees with this decision (a dot may declare any
        type its promoted type promotes to: its accumulation type)."""
        if declared is self.result:
            return True
        if self.rule.result is ResultKind.ACCUMULATE:
            return policy.try_promote(self.target, declared) is declared
        return False


def _names(policy: Policy, types: Sequence[PType]) -> str:
    name = policy.type_name
    return " and ".join(name(t) for t in types)


_Key = tuple[str, tuple[PType, ...], "tuple[bool, ...] | None"]
_DECIDED: "weakref.WeakKeyDictionary[Policy, dict[_Key, OpPromotion]]" = \
    weakref.WeakKeyDictionary()


def decide(policy: Policy, rule: OpRule, types: Sequence[PType],
           zero_dim: Sequence[bool] | None = None) -> OpPromotion:
    """Promote the operand ``types`` of one ``rule`` op under ``policy`` (a :class:`~latticecast.Policy`).

    ``types`` are the types of the operands that promote (see :attr:`OpRule.operands`),
    weak where the value is weakly typed. ``zero_dim`` says which are 0-d tensors, for a
    policy in which rank matters (``Policy.rank_sensitive``: PyTorch); others ignore it.
    Raises :class:`PromotionError` when the policy refuses the promotion, :class:`DomainError`
    when the op does not exist for the promoted type. A decision is made once per (policy, op, types): graph
    builders ask the same few questions millions of times.
    """
    ranks = tuple(zero_dim) if zero_dim is not None and policy.rank_sensitive and \
        any(zero_dim) and not all(zero_dim) else None
    key = (rule.name, tuple(types), ranks)
    try:
        return _DECIDED[policy][key]
    except KeyError:
        pass
    found = _decide(policy, rule, key[1], ranks)
    _DECIDED.setdefault(policy, {})[key] = found
    return found


def _decide(policy: Policy, rule: OpRule, types: tuple[PType, ...], zero_dim: tuple[bool, ...] | None) -> OpPromotion:
    if rule is TRUE_DIVIDE:
        prepared = policy.true_divide_operands(types)
        if prepared is not None and (prepared.cast_to is not None or prepared.dtypes != types):
            return _prepared_division(policy, rule, prepared)
    join = types[0]
    pol = policy
    if zero_dim is None:
        for t in types[1:]:
            join = pol.promote_types(join, t)
    else:
        join_zero = zero_dim[0]
        for t, z in zip(types[1:], zero_dim[1:]):
            d = pol.decide_ranked(join, join_zero, t, z)
            if d.result is None:
                raise pol.error(pol.canonical(join), pol.canonical(t), d)
            join, join_zero = d.result, join_zero and z
    if len(types) == 1:
        join = pol.canonical(join)
    computed = join
    if rule.result is ResultKind.INEXACT and not pol.materialize(join).is_inexact:
        inexact = pol.true_divide_type(join)
        if inexact is not None:
            computed = inexact
    target: DType = pol.materialize(computed)
    if not rule.needs.admits(target):
        joined = "promotes" if len(types) == 1 else "promote"
        raise DomainError(
            f"needs {rule.needs.value}, but its operand{'s' if len(types) > 1 else ''} "
            f"{_names(pol, types)} {joined} to {pol.type_name(target)} under policy "
            f"'{pol.name}'; cast {'them' if len(types) > 1 else 'it'} explicitly to a type the op accepts",
            lhs=types[0], rhs=types[-1], policy=pol.name)
    if rule.result is ResultKind.BOOL:
        return OpPromotion(rule, join, target, DType.bool, False)
    if rule.result is ResultKind.COMPLEX:
        return OpPromotion(rule, join, target, DType.complex64 if target is DType.float32 else DType.complex128,
                           False)
    return OpPromotion(rule, join, target, target, isinstance(computed, Weak))


def _prepared_division(policy: Policy, rule: OpRule, prepared: DivisionOperands) -> OpPromotion:
    """``/`` where the system prepares its operands itself (``Policy.true_divide_operands``): all
    converted to one dtype (MAX: two integers divide as float64), or decided as they now are."""
    dtypes: tuple[DType, ...] = prepared.dtypes
    cast: DType | None = prepared.cast_to
    if cast is None:
        found = _decide(policy, rule, dtypes, None)
    else:
        assert rule.needs.admits(cast), f"{policy!r} converts the operands of / to {cast}, which / does not admit"
        found = OpPromotion(rule, cast, cast, cast, False)
    return dataclasses.replace(found, operand_dtypes=dtypes)


def _rules(*rules: OpRule) -> Mapping[str, OpRule]:
    return {r.name: r for r in rules}


STABLEHLO: Mapping[str, OpRule] = _rules(
    OpRule("stablehlo.add"),
    OpRule("stablehlo.subtract", Needs.NUMERIC),
    OpRule("stablehlo.multiply"),
    OpRule("stablehlo.divide", Needs.NUMERIC),
    OpRule("stablehlo.remainder", Needs.REAL),  # XLA crashes on complex remainders
    OpRule("stablehlo.power", Needs.NUMERIC),
    OpRule("stablehlo.maximum"),
    OpRule("stablehlo.minimum"),
    OpRule("stablehlo.atan2", Needs.INEXACT),
    OpRule("stablehlo.and", Needs.INTEGER_OR_BOOL),
    OpRule("stablehlo.or", Needs.INTEGER_OR_BOOL),
    OpRule("stablehlo.xor", Needs.INTEGER_OR_BOOL),
    OpRule("stablehlo.shift_left", Needs.INTEGER),
    OpRule("stablehlo.shift_right_arithmetic", Needs.INTEGER),
    OpRule("stablehlo.shift_right_logical", Needs.INTEGER),
    OpRule("stablehlo.compare", result=ResultKind.BOOL),
    OpRule("stablehlo.select", operands=(1, 2)),
    OpRule("stablehlo.clamp"),
    OpRule("stablehlo.dot_general", Needs.NUMERIC, ResultKind.ACCUMULATE, mixed_is_legal=True),
    OpRule("stablehlo.dot", Needs.NUMERIC, ResultKind.ACCUMULATE, mixed_is_legal=True),
    OpRule("stablehlo.complex", Needs.REAL_FLOAT, ResultKind.COMPLEX),
)
"""The StableHLO ops whose value operands must share an element type, by op name: the ops the
``implicit-cast`` pass legalises and the graph builder emits with mixed operands."""

# The builder's composite ops (no single StableHLO op): their promotion is decided here too.
TRUE_DIVIDE = OpRule("true_divide", Needs.NUMERIC, ResultKind.INEXACT)
"""``/``: promote, then divide in the system's inexact type (integers as integers in ``jax.lax``)."""
INEXACT_BINARY = OpRule("inexact_binary", Needs.INEXACT, ResultKind.INEXACT)
"""``atan2``: promote, then compute in the system's inexact type; integers are refused where the
system has no inexact type for them."""
FLOAT_FUNCTION = OpRule("float_function", Needs.INEXACT, ResultKind.INEXACT)
"""``exp``, ``log``, ``sqrt``, ...: one operand, taken to the system's inexact type."""
FLOOR_DIVIDE = OpRule("floor_divide", Needs.REAL)
"""``//`` and ``%``: promote; defined for real numbers only."""

CONSTANT_LIKE: frozenset[str] = frozenset({
    "stablehlo.constant", "arith.constant", "mhlo.constant", "chlo.constant",
})
"""The ops that define a tensor by a ``value`` attribute (MLIR's ``ConstantLike``) in the dialects
StableHLO programs carry: torch-mlir writes Python scalars as ``arith.constant``. Each is treated as
``stablehlo.constant`` is: weak when marked, range-checked and rebuilt at its promoted type."""

RETYPABLE: frozenset[str] = frozenset({
    "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.transpose", "stablehlo.slice",
    "stablehlo.reverse",
})
"""Pure data movement: a weak constant seen through these is rebuilt at its target type instead
of being converted."""

WEAK_TRANSPARENT: frozenset[str] = RETYPABLE | frozenset({
    "stablehlo.negate", "stablehlo.abs", "stablehlo.exponential", "stablehlo.log", "stablehlo.sqrt",
    "stablehlo.rsqrt", "stablehlo.tanh", "stablehlo.sine", "stablehlo.cosine", "stablehlo.floor",
    "stablehlo.ceil", "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even", "stablehlo.sign",
    "stablehlo.not", "stablehlo.exponential_minus_one", "stablehlo.log_plus_one", "stablehlo.logistic",
    "stablehlo.concatenate", "stablehlo.pad",
})
"""Ops whose result is weak when all their operands are (the negation of a Python scalar is still
weakly typed, as in JAX)."""
