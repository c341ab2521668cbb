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
from ..errors import DomainError
from .weak import PType, Weak

if TYPE_CHECKING:
    from ..policies.base import DivisionOperands, Policy

__all__ = ["ResultKind", "Needs", "OpRule", "OpPromotion", "decide", "STABLEHLO", "TRUE_DIVIDE",
           "UnaryRule", "UNARY", "UNARY_STABLEHLO", "check_unary", "unary_problem", "decisions_of",
           "INEXACT_BINARY", "FLOAT_FUNCTION", "FLOOR_DIVIDE", "CONVOLUTION", "WEAK_TRANSPARENT", "RETYPABLE", "CONSTANT_LIKE",
           "WEAK_ATTR", "IMPLICIT_BROADCAST_ATTR", "EXPLICIT_BROADCAST_ATTR", "CONVERT_AT_USE_ATTR", "MARKER_PREFIX", "WEAK_ARRAY"]

WEAK_ATTR = "latticecast.weak"
"""The attribute that marks a weakly typed value's defining op (or function argument) in the IR: a unit
attribute for a Python literal (or values computed from literals only), whose elements the policy checks
as literals."""

IMPLICIT_BROADCAST_ATTR = "latticecast.implicit_broadcast"
"""The unit attribute on a ``broadcast_in_dim`` of a 0-d tensor that an operator made implicitly
(NumPy-style operand broadcasting), as the builder writes it under a rank-sensitive policy: the
broadcast value still promotes as the 0-d tensor it was (PyTorch's dimension categories)."""

EXPLICIT_BROADCAST_ATTR = "latticecast.explicit_broadcast"
"""The unit attribute on a ``broadcast_in_dim`` that the program itself asked for (PyTorch's ``expand``,
the builder's ``broadcast_to``), not one an operator made: the broadcast value is the dimensioned tensor
its type says, and it is no part of the prologue of the op that reads it
(:mod:`latticecast.dialect_utils.placement`). The builder writes it on its explicit broadcasts of a 0-d
tensor under a rank-sensitive policy; ``lift-implicit-casts`` marks a broadcast so where the frontend
converted the op's operand after it. A broadcast of a 0-d tensor with neither marker (torch-mlir writes
both kinds alike) is read by the ``implicit-cast`` pass as the 0-d tensor, unless the op's declared
result type says otherwise (:data:`latticecast.passes.rank.BROADCAST_FROM_0D`)."""

CONVERT_AT_USE_ATTR = "latticecast.convert_at_use"
"""The unit attribute on a promoted op whose operands are converted where the op uses them, as JAX and
torch-mlir write a promotion: a convert of its own right before the op and the broadcasts it makes
(a broadcast marked :data:`IMPLICIT_BROADCAST_ATTR` is converted at its source, then broadcast), and a
weak constant converted where it is read instead of rebuilt. ``lift-implicit-casts`` writes it on the
ops it lifts, so that ``implicit-cast`` puts every convert back where the frontend had it; without it
the pass makes one convert per (value, type), right after the value's definition."""

MARKER_PREFIX = "latticecast."
"""What the name of every attribute the builder, the lift and the pass read from the IR starts with
(:data:`WEAK_ATTR`, :data:`IMPLICIT_BROADCAST_ATTR`, :data:`EXPLICIT_BROADCAST_ATTR`,
:data:`CONVERT_AT_USE_ATTR`): text that does not name it carries none of them
(:func:`latticecast.dialect_utils.parsing.parse_checked`)."""

WEAK_ARRAY = "array"
"""The value of :data:`WEAK_ATTR` on a constant that is a weakly typed *array*
(``latticecast.weak = "array"``): a NumPy array that meets a graph value where the policy makes NumPy
values weak (MAX 26.7's external arrays), kept in its own dtype. It promotes as
``policy.numpy_values.array_type`` says and is checked by ``policy.numpy_values.array_problem``, since a system may
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
    """The system's inexact type for the promoted type (:meth:`OpTypeRules.true_divide <latticecast.policies.components.OpTypeRules.true_divide>`): true
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
    FLOAT = "floating-point operands (not complex)"
    SIGNED = "signed numbers (not bool or unsigned)"
    REAL_OR_BOOL = "real numbers or bool (not complex)"

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
        if self is Needs.FLOAT:
            return dtype.is_float()
        if self is Needs.SIGNED:
            return dtype.is_signed or dtype.is_inexact
        if self is Needs.REAL_OR_BOOL:
            return not dtype.is_complex
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
    ``policy.op_types.divide_operands``), those dtypes: a Python literal is checked against its own
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
_DECIDED: dict[int, dict[_Key, OpPromotion]] = {}
"""The op decisions made so far, per policy (by ``id``; a policy's entry goes when the policy does):
the one memo of op decisions, which the builder and the pass share. Keyed by ``id`` rather than held
in a ``WeakKeyDictionary``, whose every lookup makes a weak reference: the builder asks once per op."""


def decisions_of(policy: Policy) -> dict[_Key, OpPromotion]:
    """The memo of ``policy``'s op decisions, made on first use: :func:`decide`'s answers by
    ``(op name, operand types, 0-d flags or None)``. The builder's hot path reads it directly (a graph
    holds it as ``op_decisions``); only :func:`decide` writes it.

    Args:
        policy: The policy whose decisions these are.

    Returns:
        The memo (the same dict on every call while the policy lives).

    Example:
        >>> import latticecast as lc
        >>> from latticecast.promotion.dtypes import DType
        >>> from latticecast.promotion.op_rules import STABLEHLO, decide, decisions_of
        >>> pol = lc.policy("jax")
        >>> found = decide(pol, STABLEHLO["stablehlo.add"], [DType.int8, DType.uint8])
        >>> decisions_of(pol)[("stablehlo.add", (DType.int8, DType.uint8), None)] is found
        True
    """
    found = _DECIDED.get(id(policy))
    if found is None:
        found = _DECIDED[id(policy)] = {}
        weakref.finalize(policy, _DECIDED.pop, id(policy), None)
    return found


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
    memo = _DECIDED.get(id(policy)) or decisions_of(policy)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _decide(policy, rule, key[1], ranks)
    return found


def _decide(policy: Policy, rule: OpRule, types: tuple[PType, ...], zero_dim: tuple[bool, ...] | None) -> OpPromotion:
    if rule is TRUE_DIVIDE:
        prepared = policy.op_types.divide_operands(types)
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
        inexact = pol.op_types.true_divide(join)
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
    """``/`` where the system prepares its operands itself (``policy.op_types.divide_operands``): all
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
CONVOLUTION = OpRule("convolution", Needs.NUMERIC, ResultKind.ACCUMULATE, mixed_is_legal=True)
"""``conv2d``, ``conv3d``, ``conv2d_transpose``: the input and the filter promote as a matrix product's
operands do, and the builder converts them itself (a mixed ``stablehlo.convolution`` is legal)."""


# -- unary ops and reductions: their domains, beside the binary ops' -------------------------------

@dataclass(frozen=True)
class UnaryRule:
    """A unary op or a reduction as data: which operand dtypes it is defined for.

    ``name`` is the builder's name for it (``"unary -"``, ``"abs"``, ``"argmax"``); ``op`` the StableHLO op
    it emits (``None`` for a composite such as ``trunc``). ``needs`` is what StableHLO's verifier accepts for
    ``op``'s operand: the ``implicit-cast`` pass reports an op outside it, naming the fix, and it must never
    be stricter than the verifier (a test checks it against the verifier). ``accepts`` is the builder's
    domain, ``needs`` and the dtypes the builder computes another way (``floor`` of an integer is the
    integer, ``abs`` of an unsigned one too, ``exp`` of an integer converts it to the policy's float
    first); default ``needs``. ``fix`` says what to do instead, for the error.
    """

    name: str
    op: str | None
    needs: Needs
    accepts: Needs | None = None
    fix: str = "convert the operand to a type the op takes first (x.cast(...) in a graph, stablehlo.convert in IR)"

    @property
    def domain(self) -> Needs:
        """The dtypes the builder's op takes (``accepts``, else ``needs``)."""
        return self.accepts or self.needs


_ROUND_FIX = "an integer or bool is already whole; round the real and imaginary parts of a complex value apart"
_FLOAT_FIX = "convert the operand to a float first (stablehlo.convert in IR; ops.{name} in a graph does it itself)"
UNARY: Mapping[str, UnaryRule] = {r.name: r for r in (
    UnaryRule("unary -", "stablehlo.negate", Needs.NUMERIC,
              fix="use ~ (logical not, stablehlo.not) for bool, or cast first"),
    UnaryRule("abs", "stablehlo.abs", Needs.SIGNED, Needs.NUMERIC,
              fix="cast a bool first; an unsigned value is its own absolute value"),
    UnaryRule("sign", "stablehlo.sign", Needs.SIGNED, Needs.NUMERIC,
              fix="cast a bool first; an unsigned value's sign is x != 0"),
    UnaryRule("~", "stablehlo.not", Needs.INTEGER_OR_BOOL,
              fix="~ is bitwise: compare a float first (x != 0), or cast it to an integer"),
    UnaryRule("floor", "stablehlo.floor", Needs.FLOAT, Needs.REAL_OR_BOOL, _ROUND_FIX),
    UnaryRule("ceil", "stablehlo.ceil", Needs.FLOAT, Needs.REAL_OR_BOOL, _ROUND_FIX),
    UnaryRule("round", "stablehlo.round_nearest_even", Needs.FLOAT, Needs.REAL_OR_BOOL, _ROUND_FIX),
    UnaryRule("round_nearest_afz", "stablehlo.round_nearest_afz", Needs.FLOAT, fix=_ROUND_FIX),
    UnaryRule("trunc", None, Needs.REAL_OR_BOOL, fix=_ROUND_FIX),
    UnaryRule("is_inf", None, Needs.REAL_OR_BOOL, fix="test the real and imaginary parts apart"),
    *(UnaryRule(name, op, Needs.INEXACT, Needs.ANY, _FLOAT_FIX.format(name=name)) for name, op in (
        ("exp", "stablehlo.exponential"), ("log", "stablehlo.log"), ("sqrt", "stablehlo.sqrt"),
        ("rsqrt", "stablehlo.rsqrt"), ("tanh", "stablehlo.tanh"), ("sin", "stablehlo.sine"),
        ("cos", "stablehlo.cosine"), ("log1p", "stablehlo.log_plus_one"), ("sigmoid", "stablehlo.logistic"),
        ("expm1", "stablehlo.exponential_minus_one"))),
    *(UnaryRule(name, None, Needs.REAL_OR_BOOL, fix="complex numbers have no order; reduce their real parts")
      for name in ("max", "min", "reduce_max", "reduce_min", "argmax", "argmin")),
    UnaryRule("var", None, Needs.NUMERIC, fix="cast first"),
)}
"""The unary ops and reductions with a domain, by the builder's name: the facts the builder checks
(:func:`check_unary`) and, for those that emit one StableHLO op, the pass checks (:data:`UNARY_STABLEHLO`)."""

UNARY_STABLEHLO: Mapping[str, UnaryRule] = {r.op: r for r in UNARY.values() if r.op is not None}
"""The same rules by the StableHLO op they emit: what the ``implicit-cast`` pass checks unary ops against."""


def check_unary(rule: UnaryRule, dtype: DType) -> bool:
    """Whether ``rule``'s op is defined for an operand of ``dtype``, as StableHLO emits it.

    Args:
        rule: The op's rule (an entry of :data:`UNARY`).
        dtype: The operand's dtype.

    Returns:
        ``True`` where StableHLO's op takes ``dtype`` (``rule.needs``); ``False`` where only the
        builder does, by computing it another way (``rule.accepts``: ``floor`` of an integer).

    Raises:
        DomainError: The op is not defined for ``dtype``; the message names the op, the dtype, the
            dtypes it takes and the fix.

    Example:
        >>> from latticecast.promotion.dtypes import DType
        >>> from latticecast.promotion.op_rules import UNARY, check_unary
        >>> check_unary(UNARY["floor"], DType.float32), check_unary(UNARY["floor"], DType.int8)
        (True, False)
        >>> check_unary(UNARY["unary -"], DType.bool)
        Traceback (most recent call last):
        ...
        latticecast.errors.DomainError: unary - is not defined for bool: it takes numbers (not bool); ...
    """
    if rule.needs.admits(dtype):
        return True
    if rule.accepts is not None and rule.accepts.admits(dtype):
        return False
    raise DomainError(f"{rule.name} {unary_problem(rule, dtype, rule.domain)}", lhs=dtype)


def unary_problem(rule: UnaryRule, dtype: DType, takes: Needs, spelled: str | None = None) -> str:
    """Why ``rule``'s op, which takes ``takes``, is not defined for ``dtype`` (spelled ``spelled`` where the
    IR spells it), and the fix: the builder's and the pass's message after the op's name."""
    shown = dtype.name if spelled is None else f"{dtype.name} ({spelled})"
    return f"is not defined for {shown}: it takes {takes.value}; {rule.fix}"


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
