"""What a promotion policy is: one decision per pair of types, and everything derived from it.

A *policy* is one system's answer to "what type does ``a op b`` have": JAX's
lattice, NumPy's table, anvil's ambiguous literals. Every policy makes the same
three-way split, so it is made once, here, in :meth:`Policy.decide`:

* two strong types (arrays, tensors): :meth:`Policy.two_strong`;
* a weak value (a Python scalar) and a strong type: :meth:`Policy.weak_and_strong`;
* two weak values: :meth:`Policy.two_weak`.

Each returns a :class:`Decision`: the result (or ``None``), the rule of the system
that decided, and, for a refusal, why. :meth:`Policy.promote_types`, :meth:`Policy.explain`
and the :class:`~latticecast.errors.PromotionError` a refusal raises all read the
same decision, so they cannot disagree. A :class:`LatticePolicy` answers all three
with the join of its lattice, which is written as data in :mod:`.lattices`.

Everything else a system has rules for is a component the policy composes, each with one job
and a documented default (:mod:`.components`): its Python literals (``policy.literals``), its
NumPy values (``policy.numpy_values``) and what true division and sums compute in
(``policy.op_types``). Tables, audits and explanations are functions over a policy
(:mod:`.views`). Evidence that the rules are the system's (published tables, errata, live
measurements) lives in :mod:`latticecast.evidence`, and cast advice in :mod:`.advice`.
"""

from __future__ import annotations

import functools
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Mapping, Sequence

from ..promotion.dtypes import DType, Kind
from ..errors import DomainError, PromotionError
from ..promotion.lattice import Lattice
from ..promotion.tables import PromotionTable
from ..promotion.weak import PType, Weak, as_ptype, cell_ptype, dtype_of, parse_ptype, ptype_name
from . import views
from .advice import cast_advice, suggest_cast
from .components import LiteralRules, NumpyValueRules, OpTypeRules
from .table_file import Position, TableFile, read_table_file

if TYPE_CHECKING:  # the audit loads only when asked for (latticecast-opt's start-up)
    from ..promotion.audit import AuditReport

__all__ = ["Policy", "LatticePolicy", "TablePolicy", "CsvTablePolicy", "Decision", "DivisionOperands"]


@dataclass(frozen=True)
class Decision:
    """What a policy decided for one pair: ``result`` (``None`` when the system refuses),
    ``rule`` (the system's rule that decided, for :meth:`Policy.explain`) and ``why_not``
    (for a refusal: the middle of the error message)."""

    result: PType | None
    rule: str
    why_not: str = ""


@dataclass(frozen=True)
class DivisionOperands:
    """The operands of ``/`` as a system prepares them before it promotes them (MAX 26.7's
    ``ops.div``: a Python scalar first takes the other operand's dtype, then two integers are both
    converted to float64, so ``int8 / uint8`` is float64 although ``int8 + uint8`` is refused).

    ``dtypes``: each operand's dtype once a Python scalar has taken its own; the scalar's value is
    checked against that dtype (``int8 / 128`` is refused as ``int8 + 128`` is), not against the
    dtype of the division. ``cast_to``: the dtype every operand is converted to before dividing, or
    ``None`` when ``dtypes`` promote as any op's operands do.
    """

    dtypes: tuple[DType, ...]
    cast_to: DType | None = None


_MEMO_KEYS = (DType, Weak, str)
"""The argument types whose equal values are one type (the keys of :meth:`Policy.decide`'s memo)."""

_FROM_TABLE: dict[tuple[TableFile, str | None], "CsvTablePolicy"] = {}
"""The policies :meth:`Policy.from_table` made, by table file and name (a file is read once while unchanged)."""


class Policy(ABC):
    """A promotion system: a page of data (the class attributes), the three decisions, and components.

    A subclass sets :attr:`name`, :attr:`title`, :attr:`source`, :attr:`dtypes` and :attr:`weak_types`,
    and implements :meth:`two_strong`, :meth:`weak_and_strong` and :meth:`two_weak` (or derives from
    :class:`LatticePolicy` or :class:`TablePolicy`, which implement them from data). Everything else
    has a default: the literal rules (:attr:`literals`), the NumPy-value rules (:attr:`numpy_values`)
    and the op-type rules (:attr:`op_types`) are components, overridden only where the system
    differs. Tables, audits and explanations are functions over a policy in :mod:`.views`; the
    methods of those names here delegate to them.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    dtypes: ClassVar[tuple[DType, ...]]
    weak_types: ClassVar[tuple[Weak, ...]] = ()
    default_int: ClassVar[DType] = DType.int64
    default_float: ClassVar[DType] = DType.float64
    default_complex: ClassVar[DType | None] = DType.complex128
    weak_bool: ClassVar[bool] = False
    """Whether Python ``bool`` literals are weak (anvil's ``TRUE``, PyTorch) or plain ``bool`` (JAX, NumPy)."""
    weak_uint_is_int: ClassVar[bool] = False
    """Whether a weakly typed unsigned value counts as a Python int (JAX, NumPy, PyTorch, TensorFlow
    keep one weak type per Python scalar type) or is not a weak type of the system at all."""
    rank_sensitive: ClassVar[bool] = False
    """Whether a 0-d tensor promotes differently from a dimensioned one (PyTorch): then the
    builder and the pass tell the policy which operands have rank 0 (:meth:`decide_ranked`)."""
    types_before_values: ClassVar[bool] = False
    """Whether the system's ``result_type`` takes its type arguments before its value arguments, whatever
    order they are given in (``np.result_type``: its rule is order-sensitive, and it reads dtypes first)."""
    builtin_types_are_weak: ClassVar[bool] = False
    """Whether the Python types ``int``, ``float`` and ``complex`` given as *types* stand for weak types
    (JAX: ``jnp.promote_types(int, 'int8')`` is int8, since ``jax.dtypes`` keeps them weak) or for the
    dtypes NumPy maps them to (NumPy: ``np.promote_types(int, 'int8')`` is int64). ``bool`` is always
    ``DType.bool``."""

    @classmethod
    def from_table(cls, path: "str | os.PathLike[str]", *, name: str | None = None) -> "Policy":
        """The policy a CSV promotion table defines: a header row of type names, a first column of
        type names, each cell the promoted type or empty for no promotion (the format of
        ``latticecast table --format csv``; :mod:`latticecast.policies.table_file` has the rules).
        ``name`` defaults to the file's name. Raises :class:`~latticecast.TableFormatError` with
        ``file:line:col`` and the fix for a file that breaks a rule. An unchanged file gives the same
        policy object.

        >>> pol = Policy.from_table("my.csv")                                  # doctest: +SKIP
        >>> Graph("g", input_types=[...], policy=pol)                          # doctest: +SKIP
        """
        found = read_table_file(path)
        key = (found, name)
        if key not in _FROM_TABLE:
            policy_name = name or found.name
            made = type(f"CsvTablePolicy[{policy_name}]", (CsvTablePolicy,), {
                "name": policy_name, "title": f"the promotion table {found.path}", "source": found.path,
                "table_path": found.path, "dtypes": found.dtypes, "weak_types": found.weak_types,
                "positions": found.positions,
                "promotion_table": PromotionTable(found.table.rows, found.table.columns, found.table.cells,
                                                  policy_name)})
            _FROM_TABLE[key] = made()
        return _FROM_TABLE[key]

    # -- the three decisions (subclasses) ------------------------------------------------

    @abstractmethod
    def two_strong(self, a: DType, b: DType) -> Decision:
        """Two strongly typed operands (both canonical dtypes of this policy)."""

    @abstractmethod
    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        """A weak value ``w`` (either side) and a strong dtype ``d``. Systems are symmetric here."""

    @abstractmethod
    def two_weak(self, a: Weak, b: Weak) -> Decision:
        """Two weak values, in program order (TensorFlow's answer depends on it)."""

    # -- components (override where the system differs) ----------------------------------

    @functools.cached_property
    def literals(self) -> LiteralRules:
        """The system's Python literal rules (default: :class:`~.components.LiteralRules`, out-of-range
        float literals refused)."""
        return LiteralRules(self)

    @functools.cached_property
    def numpy_values(self) -> NumpyValueRules:
        """The system's rules for NumPy values (default: :class:`~.components.NumpyValueRules`, NumPy
        values strongly typed)."""
        return NumpyValueRules(self)

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        """What true division and sums compute in (default: :class:`~.components.OpTypeRules`)."""
        return OpTypeRules(self)

    # -- canonical forms ----------------------------------------------------------------

    @property
    def types(self) -> tuple[PType, ...]:
        """Every type the policy's tables show: its dtypes, then its weak types."""
        return tuple(self.dtypes) + tuple(self.weak_types)

    @functools.cached_property
    def _dtype_set(self) -> frozenset[DType]:
        return frozenset(self.dtypes)

    @functools.cached_property
    def weak_nodes(self) -> Mapping[Kind, PType]:
        """The policy's type for a weak value of each kind (a weak bool is plain ``bool`` where
        Python bools are not weak; a weak unsigned value is a Python int where the system has
        one weak type per Python scalar type)."""
        nodes: dict[Kind, PType] = {w.dtype.kind: w for w in self.weak_types}
        if Kind.BOOL not in nodes and not self.weak_bool and DType.bool in self._dtype_set:
            nodes[Kind.BOOL] = DType.bool
        if Kind.UNSIGNED not in nodes and self.weak_uint_is_int and Kind.SIGNED in nodes:
            nodes[Kind.UNSIGNED] = nodes[Kind.SIGNED]
        return nodes

    def canonical(self, t: "PType | str") -> PType:
        """The policy's own form of ``t``; raises :class:`PromotionError` if the system has no such type."""
        t = parse_ptype(t)
        if isinstance(t, Weak):
            found = self.weak_nodes.get(t.dtype.kind)
            if found is None:
                raise PromotionError(f"policy {self.name!r} has no weakly typed {t.dtype.kind.value} values",
                                     lhs=t, policy=self.name)
            return found
        if t not in self._dtype_set:
            raise PromotionError(
                f"{t.name} is not a dtype of policy {self.name!r} ({self.title}){self.missing_dtype_reason(t)}; "
                f"its dtypes are {', '.join(d.name for d in self.dtypes)}",
                lhs=t, policy=self.name)
        return t

    def missing_dtype_reason(self, d: DType) -> str:
        """Why the system lacks ``d`` (``": NumPy has no bfloat16"``), for the error; empty by default."""
        return ""

    def type_name(self, t: PType | None) -> str:
        """How tables and messages spell a type of this policy."""
        return "-" if t is None else ptype_name(t)

    # -- the decision and what derives from it ------------------------------------------

    def decide(self, a: "PType | str", b: "PType | str") -> Decision:
        """The policy's decision for ``a op b``: the one place the weak/strong split is made."""
        key = (a, b)
        try:
            return self._decisions[key]
        except (KeyError, TypeError):
            pass
        ca, cb = self.canonical(a), self.canonical(b)
        if isinstance(ca, Weak):
            found = self.two_weak(ca, cb) if isinstance(cb, Weak) else self.weak_and_strong(ca, cb)
        elif isinstance(cb, Weak):
            found = self.weak_and_strong(cb, ca)
        else:
            found = self.two_strong(ca, cb)
        # remembered by its spelling only where equal spellings mean one type: a DType, a weak type or a
        # name (np.bool_(True) == 1 == True, but they are three arguments)
        if type(a) in _MEMO_KEYS and type(b) in _MEMO_KEYS and len(self._decisions) < 100_000:
            self._decisions[key] = found
        return found

    def decide_ranked(self, a: PType, a_zero_dim: bool, b: PType, b_zero_dim: bool) -> Decision:
        """:meth:`decide` for operands of known rank (``*_zero_dim``: a 0-d tensor). Only a
        :attr:`rank_sensitive` system decides differently; for the others rank is irrelevant."""
        return self.decide(a, b)

    @functools.cached_property
    def _decisions(self) -> dict[tuple[object, object], Decision]:
        """Decisions already made (a policy never changes): the one memo of pair decisions, which
        graph builders and the pass ask millions of times."""
        return {}

    def promote_types(self, a: "PType | str", b: "PType | str") -> PType:
        """The promoted type of ``a op b``; raises :class:`PromotionError` where the system has none."""
        found = self.decide(a, b)
        if found.result is None:
            raise self.error(self.canonical(a), self.canonical(b), found)
        return found.result

    def try_promote(self, a: "PType | str", b: "PType | str") -> PType | None:
        """:meth:`promote_types` that answers ``None`` instead of raising."""
        try:
            return self.decide(a, b).result
        except PromotionError:
            return None

    def error(self, a: PType, b: PType, decision: Decision | None = None) -> PromotionError:
        """The error for a refused promotion: both types, the policy, why, and the cast that fixes it."""
        decision = decision or self.decide(a, b)
        cast_to = suggest_cast(a, b, self._cast_targets)
        return PromotionError(
            f"no implicit promotion of {self.type_name(a)} and {self.type_name(b)} under policy "
            f"{self.name!r}: {decision.why_not}{cast_advice(a, b, cast_to, self.type_name)}",
            lhs=a, rhs=b, policy=self.name, cast_to=cast_to)

    @functools.cached_property
    def _cast_targets(self) -> frozenset[DType]:
        """The dtypes an explicit cast may sensibly target: those the system computes with (a dtype
        TensorFlow only stores, ``int4``, does not even promote with itself)."""
        return frozenset(d for d in self.dtypes if self.try_promote(d, d) == d)

    def result_type(self, *types: "PType | str", left_to_right: bool = False,
                    zero_dim: Sequence[bool] | None = None) -> PType:
        """The type of an op over all of ``types`` at once, by the system's own n-ary rule (:meth:`nary`).

        ``zero_dim`` says which operands are 0-d arrays (PyTorch ranks them apart); ``left_to_right``
        folds :meth:`promote_types` in the order given, ``((a . b) . c) ...``, whatever the system's rule.
        """
        if not types:
            raise ValueError("result_type needs at least one type")
        if zero_dim is not None and len(zero_dim) != len(types):
            raise ValueError(f"zero_dim has {len(zero_dim)} flags for {len(types)} types")
        if left_to_right:
            return self.fold(types)
        return self.nary(types, tuple(zero_dim) if zero_dim is not None else (False,) * len(types))

    def fold(self, types: Sequence["PType | str"]) -> PType:
        """``((t0 . t1) . t2) ...`` with :meth:`promote_types`."""
        acc = self.canonical(types[0])
        for t in types[1:]:
            acc = self.promote_types(acc, t)
        return acc

    def nary(self, types: Sequence["PType | str"], zero_dim: Sequence[bool]) -> PType:
        """The system's rule for the type of many operands at once (``jnp.result_type``,
        ``np.result_type``, PyTorch's ``result_type`` over a list, the Array API's ``result_type``).

        The default, for a system that publishes only its pairwise promotion (a table): the pairwise
        promotion folded, where the order cannot matter (the promotion is associative); otherwise
        refused, naming a triple whose bracketings differ. A policy whose system has its own rule
        overrides this.
        """
        if len(types) > 2 and not views.policy_audit(self).associative:
            a, b, c, left, right = views.policy_audit(self).associativity_examples[0]
            raise PromotionError(
                f"policy {self.name!r} is not associative ({self.type_name(as_ptype(a))}, "
                f"{self.type_name(as_ptype(b))}, {self.type_name(as_ptype(c))} give "
                f"{self.type_name(cell_ptype(left))} bracketed left and "
                f"{self.type_name(cell_ptype(right))} bracketed right) and its system defines no rule for "
                f"{len(types)} types at once; pass left_to_right=True to fold them in order",
                policy=self.name)
        return self.fold(types)

    def scalars_after_arrays(self, types: Sequence["PType | str"]) -> PType:
        """The n-ary rule of a system whose Python scalars only ever take an array's dtype (the Array
        API's ``result_type``, MAX): the strongly typed operands promote with each other, then each
        scalar takes its type against their result, and that type joins the result (as
        ``array_api_strict.result_type`` does). At least one operand must be strongly typed."""
        given = [self.canonical(t) for t in types]
        strong = [t for t in given if not isinstance(t, Weak)]
        if not strong:
            raise PromotionError(
                f"policy {self.name!r} defines Python scalars only against an array or a dtype, and all "
                f"{len(given)} operands are Python scalars; give at least one array or dtype",
                lhs=given[0], policy=self.name)
        base: PType = self.fold(strong)
        acc = base
        for t in given:
            if isinstance(t, Weak):
                acc = self.promote_types(acc, self.promote_types(base, t))
        return acc

    # -- weak values ------------------------------------------------------------------------

    def materialize(self, t: "PType | str") -> DType:
        """The concrete dtype a value of type ``t`` has when it leaves the program."""
        if isinstance(t, DType) and t in self._dtype_set:
            return t
        t = self.canonical(t)
        return self.weak_default(t) if isinstance(t, Weak) else t

    def weak_default(self, t: Weak) -> DType:
        """The dtype a weak value takes when nothing strong decides it (JAX: the default type)."""
        return t.dtype

    # -- the lattice, where there is one -----------------------------------------------------

    @property
    def lattice(self) -> Lattice[PType] | None:
        """The lattice that defines the policy, when one does."""
        return None

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        """The types the policy's promotion is claimed to be a lattice over: all of them, unless
        weak values follow a rule of their own outside the lattice (MAX's and the Array API's
        Python scalars, which only ever take the other operand's dtype)."""
        return self.types

    # -- derived views (delegations to :mod:`.views`, kept as the documented public API) ------

    def explain(self, a: "PType | str", b: "PType | str") -> str:
        """Why ``a`` and ``b`` promote to what they do, as text (delegates to
        :func:`~latticecast.policies.views.explain_promotion`)."""
        return views.explain_promotion(self, a, b)

    def table(self, types: Sequence["PType | str"] | None = None) -> PromotionTable:
        """The promotion of every ordered pair of ``types`` (default: :attr:`types`; delegates to
        :func:`~latticecast.policies.views.policy_table`)."""
        return views.policy_table(self, types)

    def audit(self) -> AuditReport:
        """Commutativity, associativity and lattice structure of this policy's full table (delegates
        to :func:`~latticecast.policies.views.policy_audit`)."""
        return views.policy_audit(self)

    def __repr__(self) -> str:
        return f"<policy {self.name}: {self.title}>"


class LatticePolicy(Policy):
    """A policy whose promotion is the join of a lattice over its (canonical) types."""

    edges: ClassVar[Mapping[PType, Sequence[PType]]]
    lattice_rule: ClassVar[str] = ""
    """How :meth:`explain` names the rule (default: ``join on the <name> lattice``)."""

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        """The nodes of the lattice (all :attr:`types`, unless weak values follow a separate rule)."""
        return self.types

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        return self.lattice_types

    @functools.cached_property
    def _lattice(self) -> Lattice[PType]:
        return Lattice(self.edges, nodes=self.lattice_types, name=self.name)

    @property
    def lattice(self) -> Lattice[PType]:
        return self._lattice

    def join(self, a: PType, b: PType, why_not: str | None = None) -> Decision:
        """The lattice's decision for ``a`` and ``b``: their join, or why there is none."""
        joined = self._lattice.join(a, b)
        rule = self.lattice_rule or f"join on the {self.name} lattice"
        if joined is not None:
            return Decision(joined, rule)
        return Decision(None, rule, why_not or (
            f"no type lies above both on the {self.name} lattice ({self.type_name(a)} may become "
            f"{self._reach(a)}; {self.type_name(b)} may become {self._reach(b)})"))

    def _reach(self, t: PType) -> str:
        ups = [u for u in self._lattice.upper_bounds(t) if u != t]
        return ", ".join(self.type_name(u) for u in ups) if ups else "nothing else"

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self.join(a, b)

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        return self.join(w, d)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return self.join(a, b)


class TablePolicy(Policy):
    """A policy given by a promotion table alone (``promotion_table``: a
    :class:`~latticecast.PromotionTable` over its types), as a system that publishes only a table
    is. Every decision is a lookup; ``latticecast verify`` then judges whether the table is a lattice."""

    promotion_table: ClassVar[PromotionTable]
    table_rule: ClassVar[str] = "the system's promotion table"

    def _lookup(self, a: PType, b: PType) -> Decision:
        return Decision(cell_ptype(self.promotion_table.cells.get((a, b))), self.table_rule,
                        f"the {self.name} table has no entry for this pair")

    def two_strong(self, a: DType, b: DType) -> Decision:
        return self._lookup(a, b)

    def weak_and_strong(self, w: Weak, d: DType) -> Decision:
        return self._lookup(w, d)

    def two_weak(self, a: Weak, b: Weak) -> Decision:
        return self._lookup(a, b)


class CsvTablePolicy(TablePolicy):
    """A user-defined :class:`TablePolicy` read from a CSV file (:meth:`Policy.from_table`; the rules of
    the file are :mod:`.table_file`'s). ``table_path`` is the file, ``positions`` the ``(line, column)``
    of each cell, so that a refusal names the cell that says so. What a table does not say follows
    :class:`Policy`'s defaults; ``/`` of integers is refused, since a table does not say which float
    it computes in."""

    table_path: ClassVar[str]
    positions: ClassVar[Mapping[tuple[PType, PType], Position]]

    def _lookup(self, a: PType, b: PType) -> Decision:
        line, col = self.positions.get((a, b), (0, 0))
        return Decision(cell_ptype(self.promotion_table.cells.get((a, b))), f"the promotion table {self.table_path}",
                        f"the cell at {self.table_path}:{line}:{col} is empty")

    @functools.cached_property
    def _weak_set(self) -> frozenset[Weak]:
        return frozenset(self.weak_types)

    @functools.cached_property
    def weak_nodes(self) -> Mapping[Kind, PType]:
        """One weak type per kind for values that are not the table's own weak types (a Python int is
        ``Weak(int64)``): the table's weak type of the policy's default dtype of that kind, else its
        widest; a bool is plain ``bool`` when the table has no weak bool."""
        nodes: dict[Kind, PType] = {}
        for w in sorted(self.weak_types, key=lambda w: w.dtype.bitwidth):
            nodes[w.dtype.kind] = w
        for w in self.weak_types:
            if w.dtype in (self.default_int, self.default_float, self.default_complex):
                nodes[w.dtype.kind] = w
        if Kind.BOOL not in nodes and DType.bool in self._dtype_set:
            nodes[Kind.BOOL] = DType.bool
        if Kind.UNSIGNED not in nodes and Kind.SIGNED in nodes:  # a weak unsigned value is a Python int
            nodes[Kind.UNSIGNED] = nodes[Kind.SIGNED]
        return nodes

    def canonical(self, t: "PType | str") -> PType:
        """A weak type the table names is itself (anvil's ``i8?`` and ``i32?`` are two types); any
        other weak value is the table's weak type of its kind."""
        t = parse_ptype(t)
        if isinstance(t, Weak) and t in self._weak_set:
            return t
        return super().canonical(t)

    def weak_default(self, t: Weak) -> DType:
        if t.dtype in self._dtype_set:
            return t.dtype
        same_kind = [d for d in self.dtypes if d.kind is t.dtype.kind]
        return max(same_kind, key=lambda d: d.bitwidth) if same_kind else t.dtype

    @functools.cached_property
    def op_types(self) -> OpTypeRules:
        return _CsvTableOpTypes(self)


class _CsvTableOpTypes(OpTypeRules):
    """A promotion table does not say which float ``/`` of integers computes in, so it is refused."""

    policy: CsvTablePolicy

    def true_divide(self, t: "PType | str") -> PType | None:
        policy = self.policy
        t = policy.canonical(t)
        if dtype_of(t).is_inexact:
            return t
        raise DomainError(f"the promotion table {policy.table_path} does not say what true division of "
                          f"{policy.type_name(t)} computes in; cast the operands to a float first, or use // "
                          "for integer division", lhs=t, policy=policy.name)
