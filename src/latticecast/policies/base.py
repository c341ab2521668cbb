"""What every promotion policy provides, and the lattice-backed implementation most share.

A *policy* is one system's answer to "what type does ``a op b`` have": JAX's
lattice, NumPy's table, anvil's ambiguous literals. Each policy knows

* its types (the dtypes the system has, and the weak types it gives literals),
* the binary promotion (:meth:`Policy.promote_types`), which raises
  :class:`~latticecast.errors.PromotionError` where the system defines none,
* how a weak value finally materialises (:meth:`Policy.materialize`) and which
  weak type a Python literal gets (:meth:`Policy.literal_type`),
* which literals fit a dtype (:meth:`Policy.check_literal`),
* what true division of integers gives (:meth:`Policy.true_divide_type`).

Everything else (tables, audits, multi-type promotion, explanations) is derived
here once, so a new policy is a small class.
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from typing import Callable, ClassVar, Iterable, Mapping, Sequence

from ..audit import AuditReport, audit
from ..dtypes import DType, Kind
from ..errors import LiteralRangeError, PromotionError
from ..lattice import Lattice
from ..tables import PromotionTable
from ..weak import PType, Weak, dtype_of, parse_ptype, ptype_name

__all__ = ["Policy", "LatticePolicy", "Literal"]

Literal = bool | int | float | complex


class Policy(ABC):
    """A promotion system. Subclasses set the class attributes and implement :meth:`_join`."""

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    dtypes: ClassVar[tuple[DType, ...]]
    weak_types: ClassVar[tuple[Weak, ...]] = ()
    default_int: ClassVar[DType] = DType.int64
    default_float: ClassVar[DType] = DType.float64
    default_complex: ClassVar[DType | None] = DType.complex128
    weak_bool: ClassVar[bool] = False
    """Whether Python ``bool`` literals are weak (anvil's ``TRUE``) or plain ``bool`` (JAX, NumPy)."""
    published_table_name: ClassVar[str | None] = None
    """The seed table (``seeds.seed_table`` name) this policy reproduces, if any."""

    # -- what subclasses implement ----------------------------------------------------

    @abstractmethod
    def _join(self, a: PType, b: PType) -> PType | None:
        """The promotion of two canonical types, ``None`` where undefined."""

    def why_undefined(self, a: PType, b: PType) -> str:
        """Why ``a`` and ``b`` have no promotion (the middle of the error message)."""
        return f"{self.name} defines no implicit promotion between them"

    # -- canonical forms ----------------------------------------------------------------

    @property
    def types(self) -> tuple[PType, ...]:
        """Every type the policy's tables show: its dtypes, then its weak types."""
        return tuple(self.dtypes) + tuple(self.weak_types)

    def canonical(self, t: "PType | str") -> PType:
        """The policy's own form of ``t``; raises if the system has no such type."""
        t = parse_ptype(t)
        if isinstance(t, Weak):
            return self._canonical_weak(t)
        if t not in self.dtypes:
            raise PromotionError(
                f"{t.name} is not a dtype of policy {self.name!r} ({self.title}); its dtypes are "
                f"{', '.join(d.name for d in self.dtypes)}",
                lhs=t, policy=self.name,
            )
        return t

    def _canonical_weak(self, t: Weak) -> PType:
        for w in self.weak_types:
            if w.dtype.kind is t.dtype.kind:
                return w
        if t.dtype.kind is Kind.BOOL and not self.weak_bool and DType.bool in self.dtypes:
            return DType.bool
        raise PromotionError(f"policy {self.name!r} has no weakly typed {t.dtype.kind.value} values",
                             lhs=t, policy=self.name)

    def type_name(self, t: PType | None) -> str:
        """How tables and messages spell a type of this policy."""
        return "-" if t is None else ptype_name(t)

    # -- promotion ------------------------------------------------------------------------

    def promote_types(self, a: "PType | str", b: "PType | str") -> PType:
        """The promoted type of ``a op b``; raises :class:`PromotionError` where undefined."""
        try:
            found = self._promotions[(a, b)]
        except (KeyError, TypeError):
            found = self._promote_uncached(a, b)
        if isinstance(found, PromotionError):
            raise found
        return found

    @functools.cached_property
    def _dtype_set(self) -> frozenset[DType]:
        return frozenset(self.dtypes)

    @functools.cached_property
    def _promotions(self) -> dict[tuple[object, object], "PType | PromotionError"]:
        """Answers already given (a policy never changes): graph builders ask the same few
        questions millions of times."""
        return {}

    def _promote_uncached(self, a: "PType | str", b: "PType | str") -> "PType | PromotionError":
        try:
            result: PType | PromotionError = self._promote_now(a, b)
        except PromotionError as e:
            result = e
        if len(self._promotions) < 100_000:
            self._promotions[(a, b)] = result
        return result

    def _promote_now(self, a: "PType | str", b: "PType | str") -> PType:
        ca, cb = self.canonical(a), self.canonical(b)
        result = self._join(ca, cb)
        if result is None:
            raise self.undefined_error(ca, cb)
        return result

    def try_promote(self, a: PType, b: PType) -> PType | None:
        """:meth:`promote_types` that answers ``None`` instead of raising."""
        try:
            return self.promote_types(a, b)
        except PromotionError:
            return None

    def undefined_error(self, a: PType, b: PType) -> PromotionError:
        cast_to = self.suggest_cast(a, b)
        fix = ""
        if cast_to is not None:
            casts = [t for t in (a, b) if dtype_of(t) != cast_to]
            which = " and ".join(self.type_name(t) for t in casts) or self.type_name(a)
            fix = (f"; make it explicit: cast {which} to {cast_to.name} "
                   f"(x.cast(DType.{cast_to.name}) in a graph, stablehlo.convert to {cast_to.mlir_name} in IR)")
        return PromotionError(
            f"no implicit promotion of {self.type_name(a)} and {self.type_name(b)} under policy "
            f"{self.name!r}: {self.why_undefined(a, b)}{fix}",
            lhs=a, rhs=b, policy=self.name, cast_to=cast_to,
        )

    def suggest_cast(self, a: PType, b: PType) -> DType | None:
        """A dtype to cast to explicitly: the one JAX's lattice (or MAX's, for MAX's extra
        dtypes) would choose, if this policy has it; else the wider of the two operands."""
        from .registry import policy  # local: the registry imports every policy module

        da, db = dtype_of(a), dtype_of(b)
        for ref_name in ("jax", "max"):
            ref = policy(ref_name)
            if ref is self or da not in ref.dtypes or db not in ref.dtypes:
                continue
            d = ref.try_promote(da, db)
            if d is not None and ref.materialize(d) in self.dtypes:
                return ref.materialize(d)
        mine = [d for d in (da, db) if d in self.dtypes]
        return max(mine, key=_rank) if mine else None

    def result_type(self, *types: "PType | str", left_to_right: bool = False) -> PType:
        """Promote several types at once by folding :meth:`promote_types`.

        For a non-associative policy the answer depends on the bracketing, so it is
        refused unless ``left_to_right=True`` asks for ``((a . b) . c) ...``.
        """
        if not types:
            raise ValueError("result_type needs at least one type")
        if len(types) > 2 and not left_to_right and not self.is_associative:
            example = self.audit().associativity_examples[0]
            a, b, c, left, right = example
            raise PromotionError(
                f"policy {self.name!r} is not associative ({self.type_name(a)}, {self.type_name(b)}, "
                f"{self.type_name(c)} give {self.type_name(left)} bracketed left and "
                f"{self.type_name(right)} bracketed right), so promoting {len(types)} types at once "
                "depends on the order; pass left_to_right=True to fold them in order",
                policy=self.name,
            )
        acc = self.canonical(types[0])
        for t in types[1:]:
            acc = self.promote_types(acc, t)
        return acc

    # -- weak values and literals -----------------------------------------------------------

    def materialize(self, t: "PType | str") -> DType:
        """The concrete dtype a value of type ``t`` has when it leaves the program."""
        if isinstance(t, DType) and t in self._dtype_set:
            return t
        t = self.canonical(t)
        if isinstance(t, Weak):
            return self.weak_default(t)
        return t

    def weak_default(self, t: Weak) -> DType:
        """The dtype a weak value takes when nothing strong decides it (JAX: the default type)."""
        return t.dtype

    def literal_type(self, value: Literal) -> PType:
        """The type of a Python literal in this system (weak where the system makes it so)."""
        if isinstance(value, bool):
            return Weak(DType.bool) if self.weak_bool else DType.bool
        if isinstance(value, int):
            return self.canonical(Weak(self.default_int))
        if isinstance(value, float):
            return self.canonical(Weak(self.default_float))
        if isinstance(value, complex):
            if self.default_complex is None:
                raise PromotionError(f"policy {self.name!r} has no complex dtypes for the literal {value!r}",
                                     policy=self.name)
            return self.canonical(Weak(self.default_complex))
        raise TypeError(f"{value!r} is not a Python bool, int, float or complex literal")

    def check_literal(self, value: Literal, target: DType) -> None:
        """Raise :class:`LiteralRangeError` when ``target`` cannot represent ``value``.

        Integers must lie in the target's range; any number must be finite in a
        float target (no silent overflow to inf); a complex literal needs a complex
        target, a float literal an inexact one. Rounding to the nearest float is
        allowed, as in JAX and NumPy.
        """
        problem = literal_problem(value, target)
        if problem:
            raise LiteralRangeError(f"Unsafe cast: {problem}; {literal_fix(value, target)}",
                                    policy=self.name, lhs=self.literal_type(value), rhs=target)

    # -- division ---------------------------------------------------------------------------

    def true_divide_type(self, t: PType) -> PType | None:
        """The type ``a / b`` computes in, given the promoted type ``t`` of ``a`` and ``b``.

        ``None`` means the system divides integers as integers (``jax.lax.div``,
        StableHLO ``divide``: truncation toward zero).
        """
        return t

    def sum_type(self, dtype: DType) -> DType:
        """The dtype a sum of ``dtype`` accumulates in: bool and integers narrower than the
        default integer widen to it, keeping signedness (``jnp.sum``, ``np.sum``, the Array
        API's default for ``sum``); other dtypes sum in themselves."""
        width = self.default_int.bitwidth
        if dtype.is_bool:
            return self.default_int
        if dtype.is_integral and dtype.bitwidth < width and dtype not in (DType.index, DType.address):
            signed = dtype.kind is Kind.SIGNED
            for d in self.dtypes:
                if d.is_integral and d.bitwidth == width and (d.kind is Kind.SIGNED) == signed \
                        and d not in (DType.index, DType.address):
                    return d
        return dtype

    # -- derived views ----------------------------------------------------------------------

    def table(self, types: Sequence["PType | str"] | None = None) -> PromotionTable:
        """The promotion of every ordered pair of ``types`` (default: :attr:`types`)."""
        ts = self.types if types is None else tuple(self.canonical(t) for t in types)
        return PromotionTable.from_function(ts, None, self.try_promote, name=self.name)

    @functools.cached_property
    def _audit(self) -> AuditReport:
        return audit(self.table())

    def audit(self) -> AuditReport:
        """Commutativity, associativity and lattice structure of this policy's full table."""
        return self._audit

    @property
    def is_associative(self) -> bool:
        return self._audit.associative

    @property
    def is_commutative(self) -> bool:
        return self._audit.commutative

    @property
    def lattice(self) -> Lattice | None:
        """The lattice that defines the policy, when one does."""
        return None

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        """The types the policy's promotion is claimed to be a lattice over: all of them, unless
        weak values follow a rule of their own outside the lattice (MAX's and the Array API's
        Python scalars, which only ever take the other operand's dtype)."""
        return self.types

    def published_tables(self) -> dict[str, PromotionTable]:
        """The system's tables as the seeds publish them (title -> table), for audits side by side."""
        if self.published_table_name is None:
            return {}
        from .seeds import seed_table
        return {f"seed table {self.published_table_name}": seed_table(self.published_table_name)}

    def errata(self) -> dict[tuple[PType, PType], str]:
        """Cells (row, column) where this policy deliberately differs from its published
        table, each with the reason. Tests hold the policy to the table everywhere else."""
        return {}

    def explain(self, a: "PType | str", b: "PType | str") -> str:
        """Why ``a`` and ``b`` promote to what they do, as text."""
        ca, cb = self.canonical(a), self.canonical(b)
        result = self._join(ca, cb)
        name = self.type_name
        head = f"{name(ca)} . {name(cb)} under {self.name} ({self.title})"
        if result is None:
            return f"{head}: undefined\n  {self.undefined_error(ca, cb)}\n"
        lines = [f"{head} = {name(result)}"]
        lines += self._explain_lines(ca, cb, result)
        if isinstance(result, Weak):
            lines.append(f"  {name(result)} is weakly typed; on its own it materialises as "
                         f"{self.weak_default(result).name}")
        return "\n".join(lines) + "\n"

    def _explain_lines(self, a: PType, b: PType, result: PType) -> list[str]:
        return [f"  rule: {self.rule(a, b)}"]

    def rule(self, a: PType, b: PType) -> str:
        """The rule of the system that decides ``a . b`` (for :meth:`explain`)."""
        return "the system's promotion table"

    def __repr__(self) -> str:
        return f"<policy {self.name}: {self.title}>"


class LatticePolicy(Policy):
    """A policy whose promotion is the join of a lattice over its (canonical) types."""

    edges: ClassVar[Mapping[PType, Sequence[PType]]]

    @property
    def lattice_types(self) -> tuple[PType, ...]:
        """The nodes of the lattice (all :attr:`types`, unless weak values follow a separate rule)."""
        return self.types

    @property
    def lattice_scope(self) -> tuple[PType, ...]:
        return self.lattice_types

    @functools.cached_property
    def _lattice(self) -> Lattice:
        return Lattice(self.edges, nodes=self.lattice_types, name=self.name)

    @property
    def lattice(self) -> Lattice:
        return self._lattice

    def _join(self, a: PType, b: PType) -> PType | None:
        return self._lattice.join(a, b)

    def why_undefined(self, a: PType, b: PType) -> str:
        return (f"no type lies above both on the {self.name} lattice "
                f"({self.type_name(a)} may become {self._reach(a)}; "
                f"{self.type_name(b)} may become {self._reach(b)})")

    def _reach(self, t: PType) -> str:
        ups = [u for u in self._lattice.upper_bounds(t) if u != t]
        return ", ".join(self.type_name(u) for u in ups) if ups else "nothing else"

    def _explain_lines(self, a: PType, b: PType, result: PType) -> list[str]:
        if any(t not in self._lattice for t in (a, b, result)):
            return [f"  rule: {self.rule(a, b)}"]  # a Python scalar's rule, outside the lattice
        lines = []
        for t in (a, b):
            path = self._lattice.path(t, result)
            assert path is not None
            lines.append("  " + " -> ".join(self.type_name(n) for n in path))
        return lines

    def rule(self, a: PType, b: PType) -> str:
        return f"join on the {self.name} lattice"


# -- literal range checks, shared by every policy ---------------------------------------------


def literal_problem(value: Literal, target: DType) -> str | None:
    """Why ``target`` cannot represent the Python literal ``value`` (``None`` if it can)."""
    if isinstance(value, complex):
        if not target.is_complex:
            return f"can't represent the complex literal {value!r} as {target.name}"
        limit = target.info.max_finite
        if not (math.isfinite(value.real) and math.isfinite(value.imag)):
            return None
        if abs(value.real) > limit or abs(value.imag) > limit:
            return f"{value!r} out of range for {target.name} (largest finite {limit:g})"
        return None
    if isinstance(value, float):
        if not target.is_inexact:
            return f"can't promote the float literal {value!r} to {target.name}"
        if math.isfinite(value) and abs(value) > target.info.max_finite:
            return f"{value!r} out of range for {target.name} (largest finite {target.info.max_finite:g})"
        return None
    # bool and int
    v = int(value)
    if target.is_inexact:
        if abs(v) > target.info.max_finite:
            return f"{v} out of range for {target.name} (largest finite {target.info.max_finite:g})"
        return None
    lo, hi = target.min_value, target.max_value
    if not lo <= v <= hi:
        return f"{v} out of range for {target.name} [{lo}, {hi}]"
    return None


def literal_fix(value: Literal, target: DType) -> str:
    """What to write instead, for the message of a :class:`LiteralRangeError`."""
    if isinstance(value, (float, complex)) and not target.is_inexact:
        return f"cast the other operand to a float type first, or write an integer literal"
    return ("cast the other operand to a wider dtype first (x.cast(...)), or make the literal an "
            f"explicit constant of a dtype that holds it")


def weak_and_strong(a: PType, b: PType) -> tuple[Weak, DType]:
    """The weak operand and the strong one of a mixed pair (either order)."""
    w, d = (a, b) if isinstance(a, Weak) else (b, a)
    assert isinstance(w, Weak) and isinstance(d, DType), (a, b)
    return w, d


def _rank(d: DType) -> tuple[int, int]:
    order = [Kind.BOOL, Kind.UNSIGNED, Kind.SIGNED, Kind.FLOAT, Kind.COMPLEX]
    return order.index(d.kind), d.bitwidth


def weak_of_kind(kind: Kind, weak_types: Iterable[Weak]) -> Weak | None:
    return next((w for w in weak_types if w.dtype.kind is kind), None)


def by_name(dtypes: Iterable[str]) -> tuple[DType, ...]:
    return tuple(DType.parse(d) for d in dtypes)


def edges_from_names(spec: Mapping[str, Sequence[str]], resolve: Callable[[str], PType]) -> dict[PType, list[PType]]:
    """Edges written with short names (``{"i8": ["i16"]}``) turned into types."""
    return {resolve(k): [resolve(v) for v in vs] for k, vs in spec.items()}
