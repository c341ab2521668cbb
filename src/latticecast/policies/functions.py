"""The promotion functions of the public API, over any registered policy."""

from __future__ import annotations

import contextlib
from typing import Iterator


import numpy as np

from ..promotion.dtypes import DType
from .base import Policy
from .registry import policy as get_policy
from ..promotion.weak import PType, Weak, parse_ptype

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


_BUILTIN_DTYPES = {int: DType.int64, float: DType.float64, complex: DType.complex128}


def _type_of(pol: Policy, x: object, *, values: bool = True) -> "PType | str":
    """The promotion type of one argument: a type (a dtype, a spelling, a Python type), or, with
    ``values``, a value (a Python or NumPy scalar, an array), each by the policy's rules for that kind
    of argument. Without ``values`` (``promote_types``, as NumPy's and JAX's), a value is refused as no
    dtype."""
    return _operand_of(pol, x, values=values)[0]


def _is_value(x: object) -> bool:
    """Whether a ``result_type`` argument is a value (an array, a NumPy or Python scalar) rather than a type."""
    if isinstance(x, (np.generic, bool, int, float, complex)) and not isinstance(x, type):
        return True
    return getattr(x, "dtype", None) is not None and not isinstance(x, (type, str, DType, Weak, np.dtype))


def _operand_of(pol: Policy, x: object, *, values: bool = True) -> "tuple[PType | str, bool]":
    """:func:`_type_of`, and whether the argument is a 0-d array (a rank PyTorch's rule tells apart)."""
    if isinstance(x, type) and x in _BUILTIN_DTYPES:
        builtin = _BUILTIN_DTYPES[x]
        return (Weak(builtin) if pol.builtin_types_are_weak else builtin), False
    if not values:
        return parse_ptype(x), False
    if isinstance(x, np.generic):           # before Python scalars: np.float64 is a float, np.complex128 a complex
        return pol.numpy_values.scalar_type(x, in_result_type=True), False
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, type):
        return pol.literals.type_of(x), False   # a Python scalar: weak where the policy's are (JAX, NumPy 2)
    dtype = getattr(x, "dtype", None)
    if dtype is not None and not isinstance(x, type) and not isinstance(x, (str, DType, Weak)):
        strong = DType.parse(dtype)         # an array carries its dtype
        ptype = Weak(strong) if getattr(x, "weak_type", False) else strong   # a weakly typed jax.Array
        return ptype, getattr(x, "ndim", None) == 0
    return parse_ptype(x), False


def promote_types(a: "PType | str", b: "PType | str", policy: "str | Policy | None" = None) -> PType:
    """The type of ``a op b`` under ``policy``: weak in, weak out.

    Args:
        a: One operand's type: a :class:`~latticecast.DType`, a weak type
            (:func:`~latticecast.weak`: a Python scalar's), a spelling such as ``"int8"``,
            ``"i8"``, ``"bf16"`` or ``"i*"``, or a Python type (``int``, ``float``, ``complex``:
            weak where the policy's system keeps them weak, as JAX does).
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
        >>> lc.promote_types(int, "int8")                          # JAX: the Python type int is weak
        DType.int8
        >>> lc.promote_types(int, "int8", policy="numpy")          # NumPy: int is int64
        DType.int64
        >>> lc.promote_types(DType.int32, DType.float32, policy="array_api")
        Traceback (most recent call last):
          ...
        latticecast.errors.PromotionError: no implicit promotion of i32 and f32 under policy 'array-api': ...
    """
    p = _resolve(policy)
    return p.promote_types(_type_of(p, a, values=False), _type_of(p, b, values=False))


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


def result_type(*types: object, policy: "str | Policy | None" = None, left_to_right: bool = False) -> PType:
    """The type of an op over several operands, by the policy's system's own rule for many operands.

    As NumPy's and JAX's ``result_type``, each argument may be a type or a value: a dtype (or its
    spelling, or ``int``/``float``/``complex``, weak where the policy's system keeps them weak), an
    array (its dtype; a weakly typed ``jax.Array`` is weak, of its own width), a NumPy scalar (as the
    system takes one: strongly typed under JAX and NumPy, the Python number it holds under PyTorch
    and MAX 26.7), or a Python scalar (the policy's literal type: weak under JAX and NumPy 2).

    Each system has its own rule for many operands, and this is it, not a fold of
    :func:`promote_types`: ``jnp.result_type`` joins all of them on JAX's lattice at once (a weak
    result is the default type of its kind); ``np.result_type`` finds the most knowledgeable dtype
    first, so ``(int16, uint16, float16)`` is float32 where folding gives float64; PyTorch ranks
    tensors, 0-d tensors and Python scalars in three classes; the Array API promotes the arrays and
    dtypes, then each Python scalar against them. A table without such a rule (a CSV policy) folds
    where the order cannot matter, and refuses otherwise.

    Args:
        *types: The operands: types (a :class:`~latticecast.DType`, a weak type, a spelling such
            as ``"int8"`` or ``"i*"``, a NumPy dtype, a Python type) or values (arrays, NumPy
            scalars, Python scalars).
        policy: The policy: a registered name (``"jax"``, ``"max"``, ``"numpy"``, ... see
            :func:`~latticecast.policies.policies`) or a :class:`~latticecast.Policy`; ``None``
            for the default (``"jax"``, see :func:`set_default_policy`).
        left_to_right: Fold ``((t0 . t1) . t2) ...`` with :func:`promote_types` instead, in the
            order given.

    Returns:
        The promoted type: a :class:`~latticecast.DType`, or a weak type where the system's
        ``result_type`` says the result is weakly typed.

    Raises:
        PromotionError: The system refuses the operands (or a table without an n-ary rule is not
            associative and ``left_to_right`` is false).

    Example:
        >>> import latticecast as lc
        >>> from latticecast import DType
        >>> lc.result_type(DType.int8, DType.uint8, DType.float16)
        DType.float16
        >>> lc.result_type(DType.int16, DType.uint16, DType.float16, policy="numpy")
        DType.float32
        >>> lc.result_type(DType.int16, DType.uint16, DType.float16, policy="numpy", left_to_right=True)
        DType.float64
        >>> import numpy as np
        >>> lc.result_type(np.ones(3, np.int8), 2.5)           # an array and a Python float: weak in, weak out
        weak(DType.float64)
        >>> lc.result_type(np.ones(3, np.float32), np.float64(0))   # a NumPy scalar is strong in JAX
        DType.float64
        >>> lc.result_type(np.ones(3, np.float16), 2.5)
        DType.float16
    """
    p = _resolve(policy)
    operands = [(_operand_of(p, t), _is_value(t)) for t in types]
    if p.types_before_values and not left_to_right:
        operands.sort(key=lambda o: o[1])  # np.result_type takes its dtype arguments first, then the values
    return p.result_type(*(t for (t, _), _ in operands), left_to_right=left_to_right,
                         zero_dim=[z for (_, z), _ in operands])


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
        >>> print(lc.explain("u64", "i8", policy="jax-x32").splitlines()[0])
        u64 is u32 under jax-x32: the policy has no u64
    """
    p = _resolve(policy)
    notes = []
    for t in (a, b):
        asked = parse_ptype(_type_of(p, t, values=False))
        try:
            own = p.canonical(asked)
        except Exception:  # noqa: BLE001 - a type the policy lacks: explain says so itself
            continue
        if own != asked and not isinstance(asked, Weak):
            notes.append(f"{p.type_name(asked)} is {p.type_name(own)} under {p.name}: the policy has no "
                         f"{p.type_name(asked)}\n")
    return "".join(notes) + p.explain(_type_of(p, a, values=False), _type_of(p, b, values=False))
