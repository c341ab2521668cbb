"""Promotion policies: one module per system, all behind :func:`policy`.

Each built-in policy has its module here (``latticecast.policies.max_seed`` is MAX's, as its
seed specifies it); :mod:`.registry` finds them by name. :func:`policies` lists the names and
is also ``latticecast.policies()``, the function of the design's API; this package is a
plain module (``from latticecast.policies import Policy, policy``).
"""

from typing import TYPE_CHECKING

from .registry import policies, policy, register_policy

if TYPE_CHECKING:
    from .base import Decision, LatticePolicy, Policy, TablePolicy


def __getattr__(name: str) -> type:
    """The base classes load on first use (they load the promotion layer: NumPy, the tables), so that
    listing the policies' names (:func:`policies`, ``latticecast-opt --help``) loads none of it."""
    if name in ("Decision", "LatticePolicy", "Policy", "TablePolicy"):
        from . import base
        found: type = getattr(base, name)
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Policy", "LatticePolicy", "TablePolicy", "Decision", "policy", "policies", "register_policy"]
