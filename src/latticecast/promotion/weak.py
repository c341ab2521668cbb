"""Weakly typed values: JAX's ``i*``/``f*``/``c*`` and anvil's "ambiguous" literal types.

A weak type is a dtype that holds its width only loosely: when it meets a strongly
typed value, the policy may let the strong type win (``int8 + 1`` stays ``int8``).
Which width a weak value finally takes is the policy's rule (JAX: the default type
of its kind; anvil: the literal's default type), so a weak type keeps the dtype it
would have on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Hashable, Union

from .dtypes import DType, DTypeLike, Kind, UnknownDTypeError, valid_dtype_names

__all__ = ["Weak", "weak", "PType", "parse_ptype", "ptype_name", "is_weak", "dtype_of"]


@dataclass(frozen=True)
class Weak:
    """A weakly typed value of ``dtype``: ``weak(DType.int64)`` is JAX's ``i*`` under x64."""

    dtype: DType

    def __post_init__(self) -> None:
        if not isinstance(self.dtype, DType):
            raise UnknownDTypeError(f"Weak needs a DType, not {self.dtype!r}; write weak('int32') or "
                                    "weak(DType.int32)")

    def __repr__(self) -> str:
        return f"weak({self.dtype!r})"

    def __str__(self) -> str:
        return f"weak {self.dtype.name}"

    @property
    def kind(self) -> Kind:
        return self.dtype.kind

    @property
    def short(self) -> str:
        """``i*``, ``f*``, ``c*`` (bool: ``b*``): the JAX design note's spelling, width dropped."""
        return {Kind.BOOL: "b*", Kind.SIGNED: "i*", Kind.UNSIGNED: "u*", Kind.FLOAT: "f*",
                Kind.COMPLEX: "c*"}[self.dtype.kind]


PType = Union[DType, Weak]
"""A promotable type: a dtype or a weakly typed dtype."""

_WEAK_KIND_DEFAULTS = {"b*": DType.bool, "i*": DType.int64, "u*": DType.uint64,
                       "f*": DType.float64, "c*": DType.complex128}


def weak(dtype: DTypeLike) -> Weak:
    """A weakly typed value of ``dtype``: what a Python scalar (or a weakly typed array) has.

    A weak type defers to the other operand's dtype where the policy says so: JAX's ``i*``,
    ``f*`` and ``c*``, anvil's ambiguous types.

    Args:
        dtype: A :class:`~latticecast.DType`, anything :meth:`DType.parse <latticecast.DType.parse>`
            takes, or a weak type (returned as it is).

    Returns:
        The :class:`~latticecast.Weak` type of ``dtype``.

    Raises:
        UnknownDTypeError: ``dtype`` names no dtype.

    Example:
        >>> import latticecast as lc
        >>> lc.weak("int64")
        weak(DType.int64)
        >>> lc.promote_types(lc.weak("int64"), lc.DType.uint8)
        DType.uint8
    """
    if isinstance(dtype, Weak):
        return dtype
    return weak_of(DType.parse(dtype))


@cache
def weak_of(dtype: DType) -> Weak:
    """The weak type of ``dtype``, one object per dtype: an analysis that gives every weakly typed
    value of a module its type makes each weak type once, not once per value.

    Args:
        dtype: The dtype.

    Returns:
        ``Weak(dtype)``, the same object on every call.

    Example:
        >>> from latticecast import DType
        >>> from latticecast.promotion.weak import weak_of
        >>> weak_of(DType.int32) is weak_of(DType.int32), weak_of(DType.int32) == Weak(DType.int32)
        (True, True)
    """
    return Weak(dtype)


def is_weak(t: PType) -> bool:
    return isinstance(t, Weak)


def dtype_of(t: PType) -> DType:
    """The dtype a promotable type carries, weak or not."""
    return t.dtype if isinstance(t, Weak) else t


def as_ptype(label: Hashable) -> PType:
    """A label of a table over types (a policy's, a typed seed table) as the type it is."""
    if isinstance(label, (DType, Weak)):
        return label
    raise TypeError(f"{label!r} is not a dtype or a weak type")


def cell_ptype(cell: Hashable | None) -> PType | None:
    """A cell of a table over types: :func:`as_ptype`, or ``None`` where it is undefined."""
    return None if cell is None else as_ptype(cell)


def ptype_name(t: PType, style: str = "short") -> str:
    """``style="short"``: ``i16``/``i*``, as the design note's tables; ``"long"``: ``int16``/``weak int64``;
    ``"anvil"``: ``i16``/``i32?``."""
    if style == "long":
        return str(t)
    if style == "anvil":
        if isinstance(t, Weak):
            return t.dtype.info.bits_code + "?"
        return t.info.bits_code
    return t.short


def parse_ptype(text: "PType | DTypeLike", *, notation: str = "bits") -> PType:
    """Parse a dtype name or a weak spelling: ``i*``/``f*``/``c*`` (JAX), ``i32?`` (anvil), ``weak int16``.
    Any dtype object :meth:`DType.parse` takes (NumPy, JAX, MAX) is accepted as a strong type."""
    if isinstance(text, (DType, Weak)):
        return text
    if not isinstance(text, str):
        return DType.parse(text, notation=notation)
    s = text.strip()
    if s in _WEAK_KIND_DEFAULTS:
        return Weak(_WEAK_KIND_DEFAULTS[s])
    if s.endswith("?") or s.endswith("*"):
        return Weak(DType.parse(s[:-1], notation=notation))
    for prefix in ("weak ", "weak(", "weak:"):
        if s.startswith(prefix):
            inner = s[len(prefix):].rstrip(")").strip()
            return Weak(DType.parse(inner, notation=notation))
    try:
        return DType.parse(s, notation=notation)
    except UnknownDTypeError:
        raise UnknownDTypeError(
            f"unknown type {text!r}; valid names are: {', '.join(valid_dtype_names())}, "
            "and weak types written i*, f*, c* (JAX) or i32? (anvil)"
        ) from None
