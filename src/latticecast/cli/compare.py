"""Which cells of a policy's table differ from another policy's, or from a published table.

This is the shading of JAX's promotion table (seed jax-type-promotion-table.rst),
which marks the cells where JAX differs from NumPy, generalised to any two
policies. Policies disagree about *weakness* as well as dtypes: JAX answers
``i* . i* = i*`` where NumPy's table says ``int64``. When exactly one side is
weak the comparison is between the dtypes the values end up with
(:meth:`Policy.materialize`), since that is what a user observes; when both are
weak, or both strong, the types themselves are compared. A type the other
policy lacks makes its cell undefined there, so such cells differ (JAX's
``bfloat16`` row against NumPy).
"""

from __future__ import annotations

from typing import Hashable, Iterable

from ..errors import PromotionError
from ..policies import Policy
from ..promotion.tables import PromotionTable
from ..promotion.weak import PType, Weak, as_ptype, cell_ptype

__all__ = ["Cell", "differs_from_policy", "differs_from_published", "same_result"]

Cell = tuple[Hashable, Hashable]


def _materialize(pol: Policy, t: PType) -> PType:
    """The dtype a value of ``t`` becomes under ``pol``; a weak type the policy does not
    know (one from a seed table) keeps its own dtype, the generic rule of :class:`Weak`."""
    if not isinstance(t, Weak):
        return t
    try:
        return pol.materialize(t)
    except PromotionError:
        return t.dtype


def same_result(mine: PType | None, theirs: PType | None, me: Policy, them: Policy) -> bool:
    """Whether two promotion results agree; see the module docstring for weak types."""
    if mine is None or theirs is None:
        return mine is None and theirs is None
    if isinstance(mine, Weak) != isinstance(theirs, Weak):
        return _materialize(me, mine) == _materialize(them, theirs)
    return mine == theirs


def as_other_reads_it(other: Policy, label: Hashable) -> PType:
    """A label of one policy's table as ``other`` reads it: a weak label is a Python scalar of its kind
    (torch's ``f*``, a Python float, is JAX's ``f*``, not a weakly typed float32 array)."""
    found = as_ptype(label)
    if isinstance(found, Weak):
        return other.weak_nodes.get(found.dtype.kind, found)
    return found


def differs_from_policy(me: Policy, table: PromotionTable, other: Policy) -> set[Cell]:
    """Cells of ``table`` (a table of ``me``) where ``other`` promotes differently."""
    return {(a, b) for (a, b), mine in table.cells.items()
            if not same_result(cell_ptype(mine), other.try_promote(as_other_reads_it(other, a),
                                                                   as_other_reads_it(other, b)), me, other)}


def differs_from_published(me: Policy, table: PromotionTable,
                           published: Iterable[PromotionTable]) -> set[Cell]:
    """Cells of ``table`` that differ from any of the ``published`` tables having the cell;
    cells no published table has are not compared. Weak results of a seed table
    materialise by ``me``'s rules, the only ones that apply to it."""
    seeds = list(published)
    return {(a, b) for (a, b), mine in table.cells.items()
            if any((a, b) in s.cells and not same_result(cell_ptype(mine), cell_ptype(s.cells[(a, b)]), me, me)
                   for s in seeds)}
