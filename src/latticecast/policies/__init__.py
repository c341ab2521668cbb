"""Promotion policies: one module per system, all behind :func:`policy`.

``latticecast.policies`` is both this package (``latticecast.policies.max`` is MAX's
module) and the public function of the design's API: ``lc.policies()`` lists the
registered names. Calling the package calls :func:`registry.policies`.
"""

import sys
import types

from .base import Decision, LatticePolicy, Policy, TablePolicy
from .registry import policies as _policy_names
from .registry import policy, register_policy

__all__ = ["Policy", "LatticePolicy", "TablePolicy", "Decision", "policy", "policies", "register_policy"]


def policies() -> list[str]:
    """The names of every registered policy: the built-in ones, then those registered since.

    Returns:
        A list of names, each accepted by :func:`policy` (which also takes aliases such as
        ``"pytorch"`` and ``"array_api"``).

    Example:
        >>> import latticecast as lc
        >>> lc.policies()[:6]
        ['jax', 'jax-x32', 'jax-strict', 'jax-lax', 'max', 'max-python']
    """
    return _policy_names()


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[str]:
        return _policy_names()


sys.modules[__name__].__class__ = _CallablePackage
