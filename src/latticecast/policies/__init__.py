"""Promotion policies: one module per system, all behind :func:`policy`.

Each built-in policy has its module here (``latticecast.policies.max_seed`` is MAX's, as its
seed specifies it); :mod:`.registry` finds them by name. :func:`policies` lists the names and
is also ``latticecast.policies()``, the function of the design's API; this package is a
plain module (``from latticecast.policies import Policy, policy``).
"""

from .base import Decision, LatticePolicy, Policy, TablePolicy
from .registry import policies, policy, register_policy

__all__ = ["Policy", "LatticePolicy", "TablePolicy", "Decision", "policy", "policies", "register_policy"]
