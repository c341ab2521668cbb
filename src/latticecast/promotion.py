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
    """Set the policy used where none is named (initially ``"jax"``).

    Args:
        name: A registered policy name, or a :class:`~latticecast.Policy`.

    Raises:
        UnknownPolicyError: ``name`` is not a registered policy.

    Example:
        >>> import latticecast as lc
        >>> lc.set_default_policy("numpy")
        >>> lc.promote_types(lc.DType.int8, lc.DType.uint64)
        DType.float64
        >>> lc.set_default_policy("jax")
    """
    global _default
    _default = get_policy(name).name


@contextlib.contextmanager
def default_policy(name: "str | Policy") -> Iterator[Policy]:
    """A context in which ``policy`` is the default: ``with default_policy("max"): ...``.

    Args:
        name: A registered policy name, or a :class:`~latticecast.Policy`.

    Yields:
        The :class:`~latticecast.Policy` in force inside the block; the previous default is
        restored on exit.

    Raises:
        UnknownPolicyError: ``name`` is not a registered policy.

    Example:
        >>> import latticecast as lc
        >>> from latticecast import DType
        >>> with lc.default_policy("max"):
        ...     lc.promote_types(DType.int8, DType.uint64)
        DType.float16
        >>> lc.promote_types(DType.int8, DType.uint8)
        DType.int16
    """
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
    """The type of ``a op b`` under ``policy``: weak in, weak out.

    Args:
        a: One operand's type: a :class:`~latticecast.DType`, a weak type
            (:func:`~latticecast.weak`: a Python scalar's), or a spelling such as ``"int8"``,
            ``"i8"``, ``"bf16"`` or ``"i*"``.
        b: The other operand's type, as ``a``.
        policy: The policy: a registered name (``"jax"``, ``"max"``, ``"numpy"``, ... see
            :func:`~latticecast.policies.policies`) or a :class:`~latticecast.Policy`; ``None``
            for the default (``"jax"``, see :func:`set_default_policy`).

    Returns:
        The promoted type: a :class:`~latticecast.DType`, or a weak type where the policy keeps
        the result weak (two Python scalars under JAX).

    Raises:
        PromotionError: The policy defines no promotion of ``a`` and ``b`` (a ``TypeError``;
            the message names the explicit cast that makes the program legal).
        UnknownDTypeError: A type spelling names no dtype.
        UnknownPolicyError: ``policy`` is not a registered policy.

    Example:
        >>> import latticecast as lc
        >>> from latticecast import DType, weak
        >>> lc.promote_types(DType.int16, DType.float32)
        DType.float32
        >>> lc.promote_types(weak(DType.int64), DType.uint8)      # a Python int defers to the array
        DType.uint8
        >>> lc.promote_types("i8", "u8", policy="max")
        DType.int16
        >>> lc.promote_types(DType.int32, DType.float32, policy="array_api")
        Traceback (most recent call last):
          ...
        latticecast.errors.PromotionError: no implicit promotion of i32 and f32 under policy 'array-api': ...
    """
    return _resolve(policy).promote_types(a, b)


def implicit_cast_type(lhs: "PType | str", rhs: "PType | str", policy: "str | Policy | None" = None) -> DType:
    """MAX's name: "the smallest DType to which both DTypes may be promoted", as a concrete dtype.

    This is :func:`promote_types`, with a weak result materialised as the policy's default
    dtype of its kind.

    Args:
        lhs: One operand's type: a :class:`~latticecast.DType`, a weak type
            (:func:`~latticecast.weak`: a Python scalar's), or a spelling such as ``"int8"``,
            ``"i8"``, ``"bf16"`` or ``"i*"``.
        rhs: The other operand's type, as ``lhs``.
        policy: The policy: a registered name (``"jax"``, ``"max"``, ``"numpy"``, ... see
            :func:`~latticecast.policies.policies`) or a :class:`~latticecast.Policy`; ``None``
            for the default (``"jax"``, see :func:`set_default_policy`).

    Returns:
        A :class:`~latticecast.DType` (never a weak type).

    Raises:
        PromotionError: The policy defines no promotion of ``lhs`` and ``rhs``.
        UnknownDTypeError: A type spelling names no dtype.

    Example:
        >>> import latticecast as lc
        >>> from latticecast import DType, weak
        >>> lc.implicit_cast_type(DType.int8, DType.uint8)
        DType.int16
        >>> lc.implicit_cast_type(weak(DType.int64), weak(DType.float64))
        DType.float64
    """
    p = _resolve(policy)
    return p.materialize(p.promote_types(lhs, rhs))


def result_type(*types: "PType | str", policy: "str | Policy | None" = None, left_to_right: bool = False) -> PType:
    """The type of an op over several operands: their promotion, folded.

    For a policy whose promotion is associative the order does not matter; for one that is not
    (NumPy's table, for example) folding depends on the order, so it is refused unless
    ``left_to_right`` says to fold in the order given.

    Args:
        *types: The operands' types, each a :class:`~latticecast.DType`, a weak type
            (:func:`~latticecast.weak`: a Python scalar's), or a spelling such as ``"int8"``,
            ``"i8"``, ``"bf16"`` or ``"i*"``.
        policy: The policy: a registered name (``"jax"``, ``"max"``, ``"numpy"``, ... see
            :func:`~latticecast.policies.policies`) or a :class:`~latticecast.Policy`; ``None``
            for the default (``"jax"``, see :func:`set_default_policy`).
        left_to_right: Fold ``((t0 . t1) . t2) ...`` even where the policy is not associative.

    Returns:
        The promoted type, as :func:`promote_types` gives it.

    Raises:
        PromotionError: The policy refuses one of the promotions, or is not associative and
            ``left_to_right`` is false.

    Example:
        >>> import latticecast as lc
        >>> from latticecast import DType
        >>> lc.result_type(DType.int8, DType.uint8, DType.float16)
        DType.float16
        >>> lc.result_type(DType.int8, DType.uint8, DType.float16, policy="numpy", left_to_right=True)
        DType.float32
    """
    return _resolve(policy).result_type(*types, left_to_right=left_to_right)


def explain(a: "PType | str", b: "PType | str", policy: "str | Policy | None" = None) -> str:
    """Why ``a op b`` has the type it has: the path on the lattice from each input to their join,
    or the rule of the policy that decided (or refused), as text.

    Args:
        a: One operand's type: a :class:`~latticecast.DType`, a weak type
            (:func:`~latticecast.weak`: a Python scalar's), or a spelling such as ``"int8"``,
            ``"i8"``, ``"bf16"`` or ``"i*"``.
        b: The other operand's type, as ``a``.
        policy: The policy: a registered name (``"jax"``, ``"max"``, ``"numpy"``, ... see
            :func:`~latticecast.policies.policies`) or a :class:`~latticecast.Policy`; ``None``
            for the default (``"jax"``, see :func:`set_default_policy`).

    Returns:
        Several lines of text: the decision, then the path or rule.

    Raises:
        UnknownDTypeError: A type spelling names no dtype.

    Example:
        >>> import latticecast as lc
        >>> from latticecast import DType
        >>> print(lc.explain(DType.int8, DType.uint64))
        i8 . u64 under jax (JAX, jax.numpy with jax_enable_x64) = f*
          i8 -> i16 -> i32 -> i64 -> f*
          u64 -> f*
          f* is weakly typed; on its own it materialises as float64
        <BLANKLINE>
    """
    return _resolve(policy).explain(a, b)
