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

from .errors import GraphError, GraphTypeError

__all__ = ["SymbolicDim", "Dim", "StaticDim", "AlgebraicDim", "Shape", "DimLike", "MAX_DIM", "as_dim", "check_shape", "is_static", "static_dims",
           "static_size", "symbols"]

MAX_DIM = (1 << 63) - 1
"""The largest static dimension accepted, the largest int64: MLIR stores dimensions as int64 (MAX
accepts the same range; shapes are checked with Python's integers, which do not overflow)."""

_NAME = re.compile(r"^[a-zA-Z_]\w*$")

_NOT_DIMS = (enum.Enum,)
"""Objects with a ``name`` that are not dimensions (a dtype enum member has one too)."""


class _DimType(type):
    """``Dim(3)`` gives a :class:`StaticDim` and ``Dim("n")`` a :class:`SymbolicDim`, as in MAX, and every
    dimension a shape holds (a plain ``int`` size included) is an instance of ``Dim``."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Dim:
            if len(args) != 1 or kwargs:
                raise TypeError("Dim(value) takes one value: a size such as 3 or a name such as 'batch'")
            value = args[0]
            if value.__class__ in (StaticDim, SymbolicDim):
                return value
            if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
                return StaticDim(int(value))
            if isinstance(value, str):
                return SymbolicDim(value)
            found = _parse_dim(value)  # MAX's own Dim objects
            if isinstance(found, str):
                raise TypeError(f"Dim({value!r}): {found}")
            return StaticDim(found) if isinstance(found, int) else found
        return super().__call__(*args, **kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        if cls is Dim:
            return isinstance(obj, SymbolicDim) or (isinstance(obj, int) and not isinstance(obj, bool))
        return super().__instancecheck__(obj)


class Dim(metaclass=_DimType):
    """MAX's dimension type: ``Dim(3)`` is ``StaticDim(3)``, ``Dim("batch")`` is ``SymbolicDim("batch")``.

    Every dimension is an instance (``isinstance(3, Dim)`` holds: latticecast's shapes hold sizes as
    plain ``int``). MAX's algebraic dimensions are not supported (see :class:`AlgebraicDim`).

    Example:
        >>> Dim(3) == 3, Dim("batch") == "batch", isinstance(4, Dim)
        (True, True, True)
    """

    __slots__ = ()


class _StaticDimType(_DimType):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, int) and not isinstance(obj, bool)


class StaticDim(int, Dim, metaclass=_StaticDimType):
    """MAX's static dimension: an ``int`` that knows it is a size (``StaticDim(3) == 3``, ``.dim`` is 3).

    Shapes hold sizes as plain ``int`` and ``isinstance(3, StaticDim)`` holds, so a test written for
    MAX's shapes reads the same. The value must fit an int64, as in MAX; a shape also refuses a size
    above :data:`MAX_DIM`.

    Args:
        value: the size, an ``int`` (or a NumPy integer, or another static dimension).

    Raises:
        TypeError: ``value`` is not an integer.
        GraphError: ``value`` does not fit an int64.

    Example:
        >>> StaticDim(3), StaticDim(3).dim, StaticDim(3) + 1
        (Dim(3), 3, 4)
    """

    __slots__ = ()

    def __new__(cls, value: Any) -> "StaticDim":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            static = getattr(value, "dim", None)
            if not isinstance(static, (int, np.integer)) or isinstance(static, (bool, np.bool_)):
                raise TypeError(f"StaticDim({value!r}): a static dimension is an integer size such as 3")
            value = static
        if not -MAX_DIM - 1 <= int(value) <= MAX_DIM:
            raise GraphError(f"StaticDim({int(value)}) does not fit an int64: give a size below 2**63")
        return super().__new__(cls, int(value))

    @property
    def dim(self) -> int:
        """The size as a plain ``int`` (MAX's ``StaticDim.dim``)."""
        return int(self)

    def __repr__(self) -> str:
        return f"Dim({int(self)})"

    def __str__(self) -> str:
        return str(int(self))


class AlgebraicDim(Dim):
    """MAX's dimension derived by arithmetic (``batch * 3``), which latticecast does not support.

    It exists as a type so that code asking ``isinstance(d, AlgebraicDim)`` (false for every
    latticecast dimension) runs; building one raises.

    Raises:
        GraphError: always, naming what to write instead.
    """

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> "AlgebraicDim":
        raise GraphError("latticecast's symbolic dimensions are names only: MAX's algebraic dimensions (batch * 3) "
                         "are not supported; write the shape with names and sizes (['batch', 3])")


class SymbolicDim(Dim):
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
            raise GraphError(f"Invalid name {name!r} for a symbolic dimension: use an identifier such as "
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

    def __int__(self) -> int:
        raise TypeError(f"int(Dim({self.name!r})): Int conversions only supported for static dims: "
                        f"{self.name!r} has no size until the graph runs; read it in the graph "
                        "(ops.shape_to_tensor) or rebind it to a size (x.rebind([...]))")

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
            f"Invalid name {d!r}: it is not a valid name for a symbolic dimension; use an identifier such as "
            "'batch'")
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




def check_shape(shape: Any, what: str) -> "Shape":
    """``shape`` as a :class:`Shape` (a tuple of dimensions), or a :class:`GraphError` naming the problem."""
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
        error = GraphError if isinstance(shape, (str, bytes)) else GraphTypeError  # as MAX: not iterable
        raise error(f"{what} must be a sequence of dimensions such as [2, 3] or ['batch', 3], not {shape!r}")
    dims = tuple(shape)
    out: list["int | SymbolicDim"] = []
    for d in dims:
        found = d if (d.__class__ is int and 0 <= d <= MAX_DIM) or d.__class__ is SymbolicDim else _parse_dim(d)
        if isinstance(found, str):
            if isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) and d < 0:
                raise GraphTypeError(f"{what} {list(dims)}: Static tensor dimensions must be non-negative; {found}")
            raise GraphError(f"{what} {list(dims)}: {found}")
        out.append(found)
    return tuple.__new__(Shape, out)


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


class Shape(tuple["int | SymbolicDim", ...]):
    """A tensor's shape as MAX's ``Shape``: its dimensions, equal to the same dimensions as a list or tuple.

    ``x.shape == [2, 3]`` holds (a plain tuple would be silently unequal to a list), and so does
    ``x.shape == (2, 3)``. It is a tuple (immutable and hashable, so types stay hashable) where
    MAX's is a list; indexing, ``len`` and iteration read the same, and it prints as a tuple.

    Args:
        dims: the dimensions: sizes, names or :class:`SymbolicDim` s.

    Raises:
        GraphError: a dimension is neither a size nor a name.

    Example:
        >>> s = Shape([2, "batch", 3])
        >>> s == [2, "batch", 3], s.rank, s.static_dims
        (True, 3, [2, 3])
    """

    def __new__(cls, dims: Iterable[Any] = ()) -> "Shape":
        return super().__new__(cls, dims if isinstance(dims, Shape) else check_shape(dims, "Shape"))

    @property
    def rank(self) -> int:
        """The number of dimensions."""
        return len(self)

    @property
    def static_dims(self) -> list[int]:
        """The sizes among the dimensions, in order (MAX's ``Shape.static_dims``)."""
        return [d for d in self if isinstance(d, int)]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    def __add__(self, other: Any) -> Any:
        """``shape + [dims]`` is a :class:`Shape`, as MAX's list-like shape concatenates with a list;
        ``shape + (dims,)`` stays a plain tuple, as it always was here."""
        if isinstance(other, list):
            return Shape([*self, *other])
        return tuple.__add__(self, other)

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, list):
            return Shape([*other, *self])
        return NotImplemented
