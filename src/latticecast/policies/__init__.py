"""Promotion policies: one module per system, all behind :func:`policy`.

``latticecast.policies`` is both this package (``latticecast.policies.max_seed`` is MAX's
module) and the public function of the design's API: ``lc.policies()`` lists the
registered names. Calling the package calls :func:`registry.policies`.
"""

import sys
import types

from .base import Decision, LatticePolicy, Policy, TablePolicy
from .registry import policies, policy, register_policy

__all__ = ["Policy", "LatticePolicy", "TablePolicy", "Decision", "policy", "policies", "register_policy"]


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[str]:
        return policies()


sys.modules[__name__].__class__ = _CallablePackage
