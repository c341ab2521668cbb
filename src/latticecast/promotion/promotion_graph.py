"""The "promotes to" graph of any policy, lattice or not: what ``latticecast lattice`` draws.

A lattice policy's picture is its generating DAG (:meth:`Lattice.hasse_edges`). Most
systems' rules are tables rather than lattices (PyTorch, NumPy, TensorFlow, MAX's
``max.graph``), and a user still wants to see them. Any table gives an order: ``a``
*promotes to* ``r`` when some ``a . b = r`` with ``r != a``. This module draws that order's
transitive reduction, and marks what makes the table something other than a lattice:

- **refusals**: pairs the policy does not promote at all (``u16 . i8`` under PyTorch);
- **non-lattice cells**: ``a . b = r`` where ``r`` is not the least type both promote to
  (a common upper bound of ``a`` and ``b`` lies below or beside ``r``); where ``a . b`` and
  ``b . a`` differ, each is checked;
- **cycles**: two types that each promote to the other (the order is then only a preorder).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .weak import PType

if TYPE_CHECKING:
    from ..policies import Policy

__all__ = ["PromotionGraph", "promotion_graph"]


@dataclass(frozen=True)
class PromotionGraph:
    """A policy's "promotes to" order over some of its types, and where it fails the lattice laws.

    Attributes:
        nodes: The types, in the policy's order.
        covers: Each type's direct successors (the transitive reduction of "promotes to").
        refusals: Unordered pairs ``(a, b)`` the policy refuses to promote.
        non_lattice: Cells ``(a, b, r)`` whose result ``r`` is not the least common upper bound.
        cycles: Unordered pairs of distinct types that promote to each other.
    """

    nodes: tuple[PType, ...]
    covers: dict[PType, tuple[PType, ...]]
    refusals: tuple[tuple[PType, PType], ...]
    non_lattice: tuple[tuple[PType, PType, PType], ...]
    cycles: tuple[tuple[PType, PType], ...]

    @property
    def is_lattice(self) -> bool:
        """Whether the drawn types form a lattice under the policy (nothing refused or marked)."""
        return not (self.refusals or self.non_lattice or self.cycles)


def promotion_graph(policy: "Policy", types: Sequence[PType] | None = None) -> PromotionGraph:
    """The "promotes to" graph of ``policy`` over ``types`` (default: all of the policy's types).

    A result outside ``types`` still counts for the order (``types`` only chooses what is drawn
    and checked), so a subset is drawn truthfully.

    Args:
        policy: Any policy, a lattice or a table.
        types: The types to draw, in the order to draw them.

    Returns:
        The :class:`PromotionGraph`.

    Example:
        >>> from latticecast import policy
        >>> g = promotion_graph(policy("torch"), [policy("torch").canonical(t) for t in ("u8", "i8", "i16", "u16")])
        >>> [policy("torch").type_name(t) for t in g.covers[policy("torch").canonical("u8")]]
        ['i16']
        >>> len(g.refusals)      # u16 with u8, i8 and i16 (torch promotes uint16 only with itself)
        3
    """
    shown = tuple(policy.types if types is None else types)
    nodes: list[PType] = list(shown)
    index = {t: i for i, t in enumerate(nodes)}
    results: dict[tuple[int, int], int | None] = {}
    pending = list(range(len(nodes)))
    done: set[int] = set()
    # Results may lie outside the shown types: follow them until the set is closed.
    while pending:
        i = pending.pop()
        done.add(i)
        for j in sorted(done):
            for a, b in ((i, j), (j, i)):
                result = policy.try_promote(nodes[a], nodes[b])
                if result is not None and result not in index:
                    index[result] = len(nodes)
                    nodes.append(result)
                    pending.append(index[result])
                results[(a, b)] = None if result is None else index[result]
    n = len(nodes)
    up = [1 << i for i in range(n)]           # reflexive "promotes to", then its closure
    for (a, _b), k in results.items():
        if k is not None:
            up[a] |= 1 << k
    for k in range(n):                         # Warshall's closure on bit rows
        bit = 1 << k
        for i in range(n):
            if up[i] & bit:
                up[i] |= up[k]
    count = len(shown)
    covers: dict[PType, tuple[PType, ...]] = {}
    for i in range(count):
        above = [j for j in range(count) if j != i and up[i] >> j & 1 and not up[j] >> i & 1]
        direct = [j for j in above if not any(k != j and up[k] >> j & 1 for k in above)]
        covers[nodes[i]] = tuple(nodes[j] for j in direct)
    refusals, non_lattice, cycles = [], [], []
    for a in range(count):
        for b in range(a, count):
            if results[(a, b)] is None or results[(b, a)] is None:
                refusals.append((nodes[a], nodes[b]))
            for x, y in ((a, b), (b, a)) if results[(a, b)] != results[(b, a)] else ((a, b),):
                k = results[(x, y)]
                if k is not None and up[x] & up[y] & ~up[k]:
                    non_lattice.append((nodes[x], nodes[y], nodes[k]))
            if a != b and up[a] >> b & 1 and up[b] >> a & 1:
                cycles.append((nodes[a], nodes[b]))
    return PromotionGraph(shown, covers, tuple(refusals), tuple(non_lattice), tuple(cycles))
