"""Dimensions: static sizes (``int``) and symbolic ones known by name until a graph runs (``"batch"``).

MAX writes ``TensorType(DType.float32, ["batch", 10], device)``: a symbolic dimension
is a name, the same name means the same size wherever it appears, and the size is
fixed only when the compiled graph is called. latticecast keeps MAX's meaning: a
static dimension is a plain ``int`` and a symbolic one a :class:`SymbolicDim` (it
compares equal to its name, so ``x.shape == ("batch", 10)`` reads as in MAX).

MAX also derives *algebraic* dimensions (``batch * 3`` from ``x.reshape([-1])``).
latticecast does not: arithmetic on a :class:`SymbolicDim` raises a :class:`GraphError`
that says so, because a name repeated as a string (``"batch" * 3``) would otherwise
pass silently for a dimension. MAX's own ``Dim`` objects are accepted wherever a
dimension is (duck-typed: a ``StaticDim`` has ``.dim``, a ``SymbolicDim`` has
``.name``), so MAX stays optional.

This module imports nothing from MLIR: it sits in the promotion layer with
:mod:`latticecast.tensor_type`.
"""

from __future__ import annotations

import enum
import math
import re
from typing import Any, Iterable, Union, cast

import numpy as np

from .errors import GraphError

__all__ = ["SymbolicDim", "Dim", "DimLike", "MAX_DIM", "as_dim", "check_shape", "is_static", "static_dims",
           "static_size", "symbols"]

MAX_DIM = (1 << 62) - 1
"""The largest static dimension accepted: MLIR stores dimensions as int64, and products of dimensions
must not overflow while shapes are checked."""

_NAME = re.compile(r"^[a-zA-Z_]\w*$")

_NOT_DIMS = (enum.Enum,)
"""Objects with a ``name`` that are not dimensions (a dtype enum member has one too)."""


class SymbolicDim:
    """A dimension whose size is a name until the graph is called: ``SymbolicDim("batch")``.

    Equal to another symbolic dimension of the same name and to the name itself (as MAX's
    ``SymbolicDim``), so shapes compare with tuples such as ``("batch", 10)``.
    """

    __slots__ = ("name",)
    name: str

    def __init__(self, name: "str | SymbolicDim") -> None:
        if isinstance(name, SymbolicDim):
            name = name.name
        if not isinstance(name, str) or not _NAME.match(name):
            raise GraphError(f"invalid name {name!r} for a symbolic dimension: use an identifier such as "
                             "'batch' (letters, digits and _, not starting with a digit), as MAX requires")
        object.__setattr__(self, "name", name)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a SymbolicDim is immutable")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SymbolicDim):
            return other.name == self.name
        return isinstance(other, str) and other == self.name

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)  # equal to its name, so it hashes as its name

    def __repr__(self) -> str:
        return f"Dim({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[Any, ...]:
        return (SymbolicDim, (self.name,))

    def _algebraic(self, *_: Any) -> Any:
        raise GraphError(f"arithmetic on the symbolic dimension {self.name!r}: latticecast's symbolic dimensions "
                         "are names only (MAX's algebraic dimensions such as batch * 3 are not supported); "
                         "write the shape with the name itself (x.reshape(['batch', 2, 5])) or use static sizes")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _algebraic
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __rmod__ = _algebraic
    __neg__ = __lt__ = __le__ = __gt__ = __ge__ = _algebraic


DimLike = Union[int, str, SymbolicDim, np.integer]
"""What a shape may hold: a size, a name, or a :class:`SymbolicDim` (or MAX's ``Dim`` objects)."""


def as_dim(d: Any, what: str) -> "int | SymbolicDim":
    """``d`` as a dimension: an ``int`` in ``[0, MAX_DIM]`` or a :class:`SymbolicDim`, else a
    :class:`GraphError` that names ``what``."""
    if d.__class__ is int and 0 <= d <= MAX_DIM:
        return d
    if d.__class__ is SymbolicDim:
        return d
    found = _parse_dim(d)
    if isinstance(found, str):
        raise GraphError(f"{what}: {found}")
    return found


def _parse_dim(d: Any) -> "int | SymbolicDim | str":
    """``d`` as a dimension, or (a ``str``) why it is not one."""
    if isinstance(d, str):
        return SymbolicDim(d) if _NAME.match(d) else (
            f"{d!r} is not a valid name for a symbolic dimension: use an identifier such as 'batch'")
    if isinstance(d, SymbolicDim):
        return d
    if isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)):
        return int(d) if 0 <= int(d) <= MAX_DIM else (
            f"dimension {int(d)} is out of range: dimensions must be non-negative integers (at most {MAX_DIM}) "
            "or names such as 'batch'")
    name = getattr(d, "name", None)  # MAX's SymbolicDim
    if isinstance(name, str) and not isinstance(d, _NOT_DIMS):
        return _parse_dim(name)
    static = getattr(d, "dim", None)  # MAX's StaticDim
    if isinstance(static, (int, np.integer)) and not isinstance(static, (bool, np.bool_)):
        return _parse_dim(int(static))
    if type(d).__name__ == "AlgebraicDim":
        return f"{d} is an algebraic dimension (MAX's), which latticecast does not support; use sizes or names"
    return f"{d!r} is not a dimension: dimensions must be non-negative integers (sizes) or names such as 'batch'"


Dim = as_dim
"""MAX's spelling of a dimension from a value: ``Dim(3)`` is ``3``, ``Dim("n")`` a :class:`SymbolicDim`."""


def check_shape(shape: Any, what: str) -> tuple["int | SymbolicDim", ...]:
    """``shape`` as a tuple of dimensions, or a :class:`GraphError` naming the problem."""
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
        raise GraphError(f"{what} must be a sequence of dimensions such as [2, 3] or ['batch', 3], not {shape!r}")
    dims = tuple(shape)
    out: list["int | SymbolicDim"] = []
    for d in dims:
        found = d if (d.__class__ is int and 0 <= d <= MAX_DIM) or d.__class__ is SymbolicDim else _parse_dim(d)
        if isinstance(found, str):
            raise GraphError(f"{what} {list(dims)}: {found}")
        out.append(found)
    return tuple(out)


def is_static(shape: Iterable[Any]) -> bool:
    """Whether every dimension of ``shape`` is a size (no symbolic dimension)."""
    return all(d.__class__ is int for d in shape)


def static_dims(shape: tuple["int | SymbolicDim", ...]) -> tuple[int, ...] | None:
    """``shape`` itself when every dimension is a size (:func:`is_static`), else ``None``."""
    return cast("tuple[int, ...]", shape) if is_static(shape) else None


def static_size(shape: Iterable["int | SymbolicDim"]) -> "int | None":
    """The number of elements of ``shape``, or ``None`` when it has a symbolic dimension."""
    dims = list(shape)
    return math.prod([d for d in dims if isinstance(d, int)]) if is_static(dims) else None


def symbols(shape: Iterable[Any]) -> list[SymbolicDim]:
    """The symbolic dimensions of ``shape``, in order (repeats included)."""
    return [d for d in shape if d.__class__ is SymbolicDim]
