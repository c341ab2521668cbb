"""What is derived from a policy's decisions: its table, its audit and the explanation of one pair.

These are functions over any :class:`~latticecast.policies.base.Policy`; they read only its
decisions (``try_promote``, ``decide``) and its lattice, so a new policy gets them for nothing.
``Policy.table``, ``Policy.audit`` and ``Policy.explain`` delegate here.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Sequence

from ..promotion.tables import PromotionTable
from ..promotion.weak import PType, Weak

if TYPE_CHECKING:  # the audit loads when one is asked for, not with every policy (start-up)
    from ..promotion.audit import AuditReport
    from .base import Decision, Policy

__all__ = ["policy_table", "policy_audit", "explain_promotion"]

_AUDITS: weakref.WeakKeyDictionary[Policy, AuditReport] = weakref.WeakKeyDictionary()
"""Each policy's audit of its full table, made once (a policy never changes)."""


def policy_table(policy: Policy, types: Sequence[PType | str] | None = None) -> PromotionTable:
    """The promotion of every ordered pair of ``types`` under ``policy``.

    Args:
        policy: The policy whose decisions fill the table.
        types: The rows and columns (default: ``policy.types``, its dtypes then its weak types).

    Returns:
        The table; a refused pair's cell is ``None``.

    Raises:
        PromotionError: A type in ``types`` that the policy does not have.

    Example:
        >>> import latticecast as lc
        >>> from latticecast.policies.views import policy_table
        >>> table = policy_table(lc.policy("jax"), [lc.DType.int8, lc.DType.uint8])
        >>> table.cells[(lc.DType.int8, lc.DType.uint8)]
        DType.int16
    """
    ts = policy.types if types is None else tuple(policy.canonical(t) for t in types)
    return PromotionTable.from_function(ts, None, policy.try_promote, name=policy.name)


def policy_audit(policy: Policy) -> AuditReport:
    """Commutativity, associativity and lattice structure of ``policy``'s full table (made once per policy).

    Args:
        policy: The policy to audit.

    Returns:
        The audit of :func:`policy_table` over all the policy's types.

    Example:
        >>> import latticecast as lc
        >>> from latticecast.policies.views import policy_audit
        >>> policy_audit(lc.policy("jax")).is_lattice
        True
    """
    found = _AUDITS.get(policy)
    if found is None:
        from ..promotion.audit import audit

        found = _AUDITS[policy] = audit(policy_table(policy))
    return found


def explain_promotion(policy: Policy, a: PType | str, b: PType | str) -> str:
    """Why ``a`` and ``b`` promote to what they do under ``policy``, as text: the result and the
    system's rule, the lattice paths where a lattice decided, or the error for a refusal.

    Args:
        policy: The policy that decides.
        a: The left operand's type.
        b: The right operand's type.

    Returns:
        Lines of text, ending in a newline.

    Raises:
        PromotionError: A type the policy does not have.

    Example:
        >>> import latticecast as lc
        >>> from latticecast.policies.views import explain_promotion
        >>> print(explain_promotion(lc.policy("jax"), lc.DType.int8, lc.DType.uint8), end="")
        i8 . u8 under jax (JAX, jax.numpy with jax_enable_x64) = i16
          i8 -> i16
          u8 -> i16
    """
    ca, cb = policy.canonical(a), policy.canonical(b)
    found = policy.decide(ca, cb)
    name = policy.type_name
    head = f"{name(ca)} . {name(cb)} under {policy.name} ({policy.title})"
    if found.result is None:
        return f"{head}: undefined\n  {policy.error(ca, cb, found)}\n"
    lines = [f"{head} = {name(found.result)}"]
    lines += _lattice_paths(policy, ca, cb, found) or [f"  rule: {found.rule}"]
    if isinstance(found.result, Weak):
        lines.append(f"  {name(found.result)} is weakly typed; on its own it materialises as "
                     f"{policy.weak_default(found.result).name}")
    return "\n".join(lines) + "\n"


def _lattice_paths(policy: Policy, a: PType, b: PType, decision: Decision) -> list[str]:
    """The lattice paths from each input to the result, where the policy's lattice decided (none
    where the policy has no lattice, or a rule outside it decided: a Python scalar's, say)."""
    lattice, result = policy.lattice, decision.result
    if lattice is None or result is None or any(t not in lattice for t in (a, b, result)) or \
            not all(lattice.leq(t, result) for t in (a, b)):
        return []
    lines = []
    for t in (a, b):
        path = lattice.path(t, result) or [t, result]
        lines.append("  " + " -> ".join(policy.type_name(n) for n in path))
    return lines
