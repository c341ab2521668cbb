"""Policies by name: ``policy("jax")``, ``policies()``, and registration of new ones."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Callable

from ..errors import UnknownPolicyError

if TYPE_CHECKING:
    from .base import Policy

__all__ = ["policy", "policies", "register_policy"]

_FACTORIES: dict[str, Callable[[], Policy]] = {}
_INSTANCES: dict[str, Policy] = {}
_ALIASES = {"strict": "jax-strict", "lax": "jax-lax", "x32": "jax-x32", "mojo": "max", "max-26.7": "max-python", "pytorch": "torch",
            "tf": "tensorflow", "np": "numpy", "arrayapi": "array-api", "array-api-standard": "array-api",
            "array-api-2024.12": "array-api", "array-api-seed": "array-api-proposal"}

# name -> "module:Class", imported on first use so that optional oracles stay optional
_BUILTIN = {
    "jax": "jax:JaxPolicy",
    "jax-x32": "jax:JaxX32Policy",
    "jax-strict": "jax:JaxStrictPolicy",
    "jax-lax": "jax:JaxLaxPolicy",
    "max": "max_seed:MaxPolicy",
    "max-python": "max_python:MaxPythonPolicy",
    "array-api": "array_api:ArrayApiPolicy",
    "array-api-proposal": "array_api:ArrayApiProposalPolicy",
    "anvil": "anvil:AnvilPolicy",
    "numpy": "numpy:NumpyPolicy",
    "torch": "torch:TorchPolicy",
    "tensorflow": "tensorflow:TensorflowPolicy",
}


def _normalise(name: str) -> str:
    if not isinstance(name, str):
        raise UnknownPolicyError(f"a policy is a name such as 'jax' or a Policy object, not "
                                 f"{type(name).__name__} {name!r}; the policies are: {', '.join(policies())}")
    key = name.strip().lower().replace("_", "-")
    return _ALIASES.get(key, key)


def register_policy(name: str, factory: Callable[[], Policy], *, replace: bool = False) -> None:
    """Make ``policy(name)`` return ``factory()``, built once, on first use.

    Args:
        name: The policy's name (case and ``_``/``-`` do not matter).
        factory: A callable without arguments that returns the :class:`~latticecast.Policy`.
        replace: Replace a policy already registered under ``name``.

    Raises:
        ValueError: ``name`` is taken (a built-in policy, or one registered before) and
            ``replace`` is false.

    Example:
        >>> import latticecast as lc
        >>> lc.register_policy("my-jax", lambda: lc.policy("jax"), replace=True)
        >>> lc.promote_types("int8", "uint8", policy="my-jax")
        DType.int16
    """
    key = _normalise(name)
    if not replace and (key in _FACTORIES or key in _BUILTIN):
        raise ValueError(f"a policy named {key!r} is already registered; pass replace=True to replace it")
    _FACTORIES[key] = factory
    _INSTANCES.pop(key, None)


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
    return list(_BUILTIN) + [n for n in _FACTORIES if n not in _BUILTIN]


def policy(name: "str | Policy") -> Policy:
    """The policy called ``name``; a :class:`~latticecast.Policy` passes through.

    Args:
        name: A registered name or alias (``"jax"``, ``"max"``, ``"array_api"``, ``"pytorch"``,
            ...; case and ``_``/``-`` do not matter), or a :class:`~latticecast.Policy`.

    Returns:
        The :class:`~latticecast.Policy` (one instance per name).

    Raises:
        UnknownPolicyError: No policy has that name (the message lists them).

    Example:
        >>> import latticecast as lc
        >>> lc.policy("jax")
        <policy jax: JAX, jax.numpy with jax_enable_x64>
        >>> lc.policy("array_api").promote_types("int8", "int16")
        DType.int16
    """
    from .base import Policy  # here: the names (policies()) need none of the promotion layer

    if isinstance(name, Policy):
        return name
    key = _normalise(name)
    found = _INSTANCES.get(key)
    if found is not None:
        return found
    if key in _FACTORIES:
        found = _FACTORIES[key]()
    elif key in _BUILTIN:
        module, cls = _BUILTIN[key].split(":")
        found = getattr(importlib.import_module(f"{__package__}.{module}"), cls)()
    else:
        raise UnknownPolicyError(f"unknown policy {name!r}; the policies are: {', '.join(policies())}")
    _INSTANCES[key] = found
    return found
