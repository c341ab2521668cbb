"""The promotion functions of the public API, over any registered policy."""

from __future__ import annotations

import contextlib
from typing import Iterator

from .dtypes import DType
from .policies import Policy, policy as get_policy
from .weak import PType

__all__ = ["promote_types", "implicit_cast_type", "result_type", "explain", "default_policy",
           "set_default_policy"]

_default = "jax"


def set_default_policy(name: "str | Policy") -> None:
    """Set the policy used where none is named (initially ``"jax"``)."""
    global _default
    _default = get_policy(name).name


@contextlib.contextmanager
def default_policy(name: "str | Policy") -> Iterator[Policy]:
    """``with default_policy("max"): ...`` uses MAX's rules where no policy is named."""
    global _default
    saved = _default
    set_default_policy(name)
    try:
        yield get_policy(_default)
    finally:
        _default = saved


def _resolve(policy: "str | Policy | None") -> Policy:
    return get_policy(_default if policy is None else policy)


def promote_types(a: "PType | str", b: "PType | str", policy: "str | Policy | None" = None) -> PType:
    """The type of ``a op b`` under ``policy`` (default ``"jax"``); weak in, weak out.

    Raises :class:`~latticecast.PromotionError` (a ``TypeError``) where the policy
    defines no promotion; the message names the explicit cast to write.
    """
    return _resolve(policy).promote_types(a, b)


def implicit_cast_type(lhs: "PType | str", rhs: "PType | str", policy: "str | Policy | None" = None) -> DType:
    """MAX's name: "the smallest DType to which both DTypes may be promoted", as a concrete dtype."""
    p = _resolve(policy)
    return p.materialize(p.promote_types(lhs, rhs))


def result_type(*types: "PType | str", policy: "str | Policy | None" = None, left_to_right: bool = False) -> PType:
    """Promote several types at once; refused for non-associative policies unless ``left_to_right``."""
    return _resolve(policy).result_type(*types, left_to_right=left_to_right)


def explain(a: "PType | str", b: "PType | str", policy: "str | Policy | None" = None) -> str:
    """The path on the lattice from each input to their join (or the rule that applies), as text."""
    return _resolve(policy).explain(a, b)
