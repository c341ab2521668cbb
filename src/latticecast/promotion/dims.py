"""Dimensions: sizes, names known until a graph runs (``"batch"``), and expressions over them.

MAX writes ``TensorType(DType.float32, ["batch", 10], device)``: a symbolic dimension
is a name, the same name means the same size wherever it appears, and the size is
fixed only when the compiled graph is called. latticecast keeps MAX's meaning: a
static dimension is a :class:`StaticDim` (an ``int``), a symbolic one a
:class:`SymbolicDim` (it compares equal to its name, so ``x.shape == ["batch", 10]``
reads as in MAX), and arithmetic on them gives an :class:`AlgebraicDim`
(``Dim("batch") * 3``), kept in a normal form so that equal expressions compare equal.
A graph computes an algebraic dimension's size from its names' sizes when it runs.
:class:`Shape` is a list of dimensions, as MAX's. MAX's own ``Dim`` objects are
accepted wherever a dimension is (duck-typed), so MAX stays optional.

Each dimension converts to an MLIR attribute and back (:meth:`Dim.to_mlir`,
:meth:`Dim.from_mlir`), in the current context or latticecast's default one. This module imports
no MLIR (the promotion layer has none): the attributes are read and made by MLIR's layer,
:mod:`latticecast.dialect_utils.graph_types`, reached through :mod:`.mlir_bridge`.
"""

from __future__ import annotations

import enum
import math
import re
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, Sequence, SupportsIndex, Union, cast

import numpy as np

from ..errors import GraphError, GraphTypeError
from .mlir_bridge import conversions as _mlir

if TYPE_CHECKING:  # types only: this module imports no MLIR at run time
    from jaxlib.mlir import ir

__all__ = ["SymbolicDim", "Dim", "StaticDim", "AlgebraicDim", "Shape", "DimLike", "ShapeLike", "DimensionError", "MAX_DIM", "as_dim",
           "check_shape", "is_dynamic", "is_static", "shape_of", "static_dims", "static_size", "symbols"]

MAX_DIM = (1 << 63) - 1
"""The largest static dimension accepted, the largest int64: MLIR stores dimensions as int64 (MAX
accepts the same range; shapes are checked with Python's integers, which do not overflow)."""

_NAME = re.compile(r"^[a-zA-Z_]\w*$")

_NOT_DIMS = (enum.Enum,)
"""Objects with a ``name`` that are not dimensions (a dtype enum member has one too)."""


# -- algebraic expressions ------------------------------------------------------------------------
#
# An algebraic dimension is kept in a normal form: a polynomial, ``{monomial: coefficient}``, whose
# monomials are sorted tuples of atoms, an atom being a symbol ``("s", name)`` or a floor division
# that does not simplify ``("d", numerator, denominator)`` (both frozen polynomials). Equal
# expressions have equal polynomials (``4 * x + 4 == (x + 1) * 4``), and the printed form follows
# MAX's: products and quotients before bare names, names sorted, the constant last.

_Atom = tuple[object, ...]
"""``("s", name)`` or ``("d", numerator, denominator)``: read through :func:`_symbol` and :func:`_quotient`."""
_Mono = tuple[_Atom, ...]
_Poly = dict[_Mono, int]
_Frozen = tuple[tuple[_Mono, int], ...]
_Key = tuple[object, ...]
"""A sort key of the normal form (tuples of ranks, names and nested keys)."""


def _symbol(atom: _Atom) -> "str | None":
    """The name of a symbol atom, ``None`` for a quotient."""
    return cast(str, atom[1]) if atom[0] == "s" else None


def _quotient(atom: _Atom) -> "tuple[_Poly, _Poly]":
    """The numerator and denominator of a quotient atom."""
    return dict(cast(_Frozen, atom[1])), dict(cast(_Frozen, atom[2]))

_OPS = {"add": "+", "mul": "*", "floordiv": "//"}


class DimOperator(enum.Enum):
    """The operators of an algebraic dimension (MAX's ``kgen.POC``), by the names its MLIR form uses."""

    add = "add"
    mul = "mul"
    floordiv = "floordiv"


class OperatorAttr(NamedTuple):
    """An algebraic dimension's outermost operator and its operands' attributes (:attr:`AlgebraicDim.attr`)."""

    opcode: DimOperator
    operands: list[ir.Attribute]


def _atom_key(atom: _Atom) -> _Key:
    name = _symbol(atom)
    if name is not None:
        return (2, name)
    numerator, denominator = _quotient(atom)
    return (0, _poly_key(numerator), _poly_key(denominator))


def _term_key(mono: _Mono, coef: int) -> _Key:
    if not mono:
        return (3, coef)
    if len(mono) == 1 and coef == 1:
        return _atom_key(mono[0])
    return (1, [_atom_key(a) for a in mono] + ([(3, coef)] if coef != 1 else []))


def _poly_key(poly: _Poly) -> _Key:
    terms = _sorted_terms(poly)
    if len(terms) == 1:
        return _term_key(*terms[0])
    return (0.5, [_term_key(m, c) for m, c in terms])


def _sorted_terms(poly: _Poly) -> list[tuple[_Mono, int]]:
    return sorted(poly.items(), key=lambda t: _term_key(*t))


def _freeze(poly: _Poly) -> _Frozen:
    return tuple(_sorted_terms(poly))


def _add(a: _Poly, b: _Poly) -> _Poly:
    out = dict(a)
    for m, c in b.items():
        total = out.get(m, 0) + c
        if total:
            out[m] = total
        else:
            out.pop(m, None)
    return out


def _mul(a: _Poly, b: _Poly) -> _Poly:
    out: _Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb, key=_atom_key))
            total = out.get(m, 0) + ca * cb
            if total:
                out[m] = total
            else:
                out.pop(m, None)
    return out


def _remove(mono: _Mono, part: _Mono) -> "_Mono | None":
    rest = list(mono)
    for atom in part:
        if atom not in rest:
            return None
        rest.remove(atom)
    return tuple(rest)


def _floordiv(a: _Poly, b: _Poly) -> _Poly:
    if not b:
        raise ZeroDivisionError("floor division of a dimension by zero")
    if not a:
        return {}
    if set(a) <= {()} and set(b) == {()}:  # sizes: Python's floor division (the same for sizes >= 0)
        q = a.get((), 0) // b[()]
        return {(): q} if q else {}
    if len(b) == 1:
        ((mb, cb),) = b.items()
        if cb > 0:  # an exact quotient: every term is a multiple of the divisor
            out: _Poly = {}
            for m, c in a.items():
                rest = _remove(m, mb)
                if rest is None or c % cb:
                    break
                out[rest] = c // cb
            else:
                return out
        if not mb:  # a constant divisor: divide out the common factor
            g = math.gcd(cb, *a.values())
            if g > 1:
                a = {m: c // g for m, c in a.items()}
                b = {(): cb // g}
                if cb // g == 1:
                    return a
    return {(("d", _freeze(a), _freeze(b)),): 1}


class _Node:
    """The printed (and MLIR) form of a normal-form expression: an operator and its operands."""

    __slots__ = ("op", "args")

    def __init__(self, op: str, args: "list[_Expr]") -> None:
        self.op, self.args = op, args


_Expr = Union[_Node, int, str, "Dim"]
"""An expression tree: an operator's node, a size, a name, or (while rebuilding one) a dimension."""

_Tree = Union[tuple[str, list["_Tree"]], int, str]
"""An expression tree as plain data (what a pickled :class:`AlgebraicDim` holds)."""


def _node(poly: _Poly) -> _Expr:
    """The expression tree of ``poly``: a ``_Node``, an ``int`` or a name (``str``)."""
    terms = _sorted_terms(poly)
    if not terms:
        return 0
    parts = [_term_node(m, c) for m, c in terms]
    return parts[0] if len(parts) == 1 else _Node("add", parts)


def _atom_node(atom: _Atom) -> _Expr:
    name = _symbol(atom)
    if name is not None:
        return name
    numerator, denominator = _quotient(atom)
    return _Node("floordiv", [_node(numerator), _node(denominator)])


def _term_node(mono: _Mono, coef: int) -> _Expr:
    parts: list[_Expr] = [_atom_node(a) for a in mono]
    parts += [coef] if coef != 1 or not mono else []
    return parts[0] if len(parts) == 1 else _Node("mul", parts)


def _format(node: _Expr, leaf: Callable[[_Expr], object]) -> str:
    if isinstance(node, _Node):
        return f" {_OPS[node.op]} ".join(
            f"({_format(a, leaf)})" if isinstance(a, _Node) else _format(a, leaf) for a in node.args)
    return str(leaf(node))


def _poly_of(d: object) -> "_Poly | None":
    """``d`` (a dimension, ``int`` or name) as a polynomial, or ``None`` if it is not a dimension."""
    if isinstance(d, AlgebraicDim):
        return d._poly
    if isinstance(d, SymbolicDim):
        return {(("s", d.name),): 1}
    if isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)):
        return {(): int(d)} if int(d) else {}
    if isinstance(d, str):
        return {(("s", SymbolicDim(d).name),): 1}
    if _is_max_dim(d):
        return _poly_of(Dim(d))
    return None


def _dim_of(poly: _Poly) -> "Dim":
    """The dimension ``poly`` is: static, symbolic (a bare name), or algebraic."""
    if not poly:
        return StaticDim(0)
    if set(poly) == {()}:
        value = poly[()]  # beyond an int64, a plain int: the caller's own checks name the overflow
        return StaticDim(value) if -MAX_DIM - 1 <= value <= MAX_DIM else cast(Dim, value)
    if len(poly) == 1:
        ((m, c),) = poly.items()
        name = _symbol(m[0]) if c == 1 and len(m) == 1 else None
        if name is not None:
            return SymbolicDim(name)
    return AlgebraicDim._of(poly)


def _apply(op: str, a: object, b: object) -> "Dim | None":
    """``a op b`` for dimensions (``op``: ``add``, ``mul`` or ``floordiv``), ``None`` if either is not one."""
    pa, pb = _poly_of(a), _poly_of(b)
    if pa is None or pb is None:
        return None
    if op == "add":
        return _dim_of(_add(pa, pb))
    if op == "mul":
        return _dim_of(_mul(pa, pb))
    return _dim_of(_floordiv(pa, pb))


def _operator(op: str, a: object, b: object) -> Any:
    """:func:`_apply` for an operator: ``NotImplemented`` (hence ``Any``) where an operand is not a dimension,
    so that its own reflected operator answers."""
    found = _apply(op, a, b)
    return NotImplemented if found is None else found


def _is_max_dim(d: object) -> bool:
    """Whether ``d`` is one of MAX's own dimension objects (duck-typed: MAX stays optional)."""
    return type(d).__name__ in ("StaticDim", "SymbolicDim", "AlgebraicDim") and not isinstance(d, Dim)


def _is_max_operator_attr(value: object) -> bool:
    """Whether ``value`` looks like MAX's ``kgen.ParamOperatorAttr`` (an opcode and operands)."""
    try:
        return getattr(value, "opcode", None) is not None and getattr(value, "operands", None) is not None
    except Exception:  # noqa: BLE001  # a foreign object's attribute may raise anything
        return False


class _Arithmetic:
    """MAX's dimension arithmetic: ``+ - * //`` and unary ``-`` with dimensions, sizes and names give a
    dimension (static when every operand is); any other operand (a graph value) is left to it.

    The results are typed ``Any`` deliberately: :class:`StaticDim` is also an ``int``, whose operators'
    types these must stay compatible with, and an operand that is not a dimension gets ``NotImplemented``
    so that its own reflected operator (a graph value's) answers."""

    __slots__ = ()

    def __add__(self, other: object) -> Any:
        return _operator("add", self, other)

    def __radd__(self, other: object) -> Any:
        return _operator("add", other, self)

    def __sub__(self, other: object) -> Any:
        negated = _operator("mul", other, -1)
        return negated if negated is NotImplemented else _operator("add", self, negated)

    def __rsub__(self, other: object) -> Any:
        return _operator("add", other, _operator("mul", self, -1))

    def __mul__(self, other: object) -> Any:
        return _operator("mul", self, other)

    def __rmul__(self, other: object) -> Any:
        return _operator("mul", other, self)

    def __floordiv__(self, other: object) -> Any:
        return _operator("floordiv", self, other)

    def __rfloordiv__(self, other: object) -> Any:
        return _operator("floordiv", other, self)

    def __neg__(self) -> Any:
        return _operator("mul", self, -1)


class _DimType(type):
    """``Dim(3)`` gives a :class:`StaticDim`, ``Dim("n")`` a :class:`SymbolicDim` and ``Dim(attr)`` the
    dimension an MLIR attribute describes, as in MAX; every dimension a shape holds (a plain ``int``
    size included) is an instance of ``Dim``."""

    def __call__(cls, *args: object, **kwargs: object) -> Any:  # Any: the checker then reads each class's __new__
        if cls is Dim:
            if len(args) != 1 or kwargs:
                raise TypeError("Dim(value) takes one value: a size such as 3 or a name such as 'batch'")
            value = args[0]
            if value.__class__ in (StaticDim, SymbolicDim, AlgebraicDim):
                return value
            if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
                return StaticDim(int(value))
            if isinstance(value, str):
                return SymbolicDim(value)
            if _is_max_operator_attr(value):
                return AlgebraicDim(value)
            if _mlir().is_attribute(value):
                return Dim.from_mlir(value)
            found = _parse_dim(value)  # MAX's own Dim objects
            if isinstance(found, str):
                raise TypeError(f"Unsupported dimension type {value!r} ({type(value)}): {found}")
            return StaticDim(found) if isinstance(found, int) else found
        return super().__call__(*args, **kwargs)

    def __instancecheck__(cls, obj: object) -> bool:
        if cls is Dim:
            return isinstance(obj, (SymbolicDim, AlgebraicDim)) or (isinstance(obj, int) and not isinstance(obj, bool))
        return super().__instancecheck__(obj)


class Dim(metaclass=_DimType):
    """MAX's dimension type: ``Dim(3)`` is ``StaticDim(3)``, ``Dim("batch")`` is ``SymbolicDim("batch")``,
    and arithmetic on dimensions gives an :class:`AlgebraicDim` (``Dim("batch") + 1``).

    Every dimension is an instance (``isinstance(3, Dim)`` holds). :meth:`to_mlir` and
    :meth:`from_mlir` convert a dimension to and from an MLIR attribute: an ``IntegerAttr`` (``i64``)
    for a size, a ``FlatSymbolRefAttr`` (``@batch``) for a name, and for an algebraic dimension an
    ``ArrayAttr`` whose first element names the operator (``["add", @batch, 1 : i64]``; the operators
    are ``"add"``, ``"mul"`` and ``"floordiv"``).

    Example:
        >>> Dim(3) == 3, Dim("batch") == "batch", isinstance(4, Dim)
        (True, True, True)
        >>> Dim("batch") * 2 + 2, (Dim("x") + 1) * 4 == 4 * Dim("x") + 4
        ((Dim('batch') * Dim(2)) + Dim(2), True)
        >>> print(Dim.from_mlir((Dim("batch") + 1).to_mlir()))
        batch + 1
    """

    __slots__ = ()

    def __new__(cls, value: object) -> "Dim":  # the metaclass picks the kind (MAX's own objects too); for the checkers
        return object.__new__(cls)

    def __int__(self) -> int:
        raise TypeError(f"int({self!r}): Int conversions only supported for static dims; a symbolic or algebraic "
                        "dimension has a size only when the graph runs")

    def __index__(self) -> int:
        raise TypeError(f"{self!r} is not a size: Int conversions only supported for static dims")

    def to_mlir(self) -> ir.Attribute:
        """This dimension as an MLIR attribute (see :class:`Dim`), in the current MLIR context or
        latticecast's default one."""
        raise NotImplementedError

    @staticmethod
    def from_mlir(attr: ir.Attribute) -> "Dim":
        """The dimension an MLIR attribute made by :meth:`to_mlir` describes.

        Args:
            attr: an ``IntegerAttr``, a ``FlatSymbolRefAttr`` or an ``ArrayAttr`` (see :class:`Dim`).

        Returns:
            A :class:`StaticDim`, :class:`SymbolicDim` or :class:`AlgebraicDim`.

        Raises:
            ValueError: ``attr`` describes no dimension.

        Example:
            >>> Dim.from_mlir(Dim(3).to_mlir()), Dim.from_mlir(Dim("n").to_mlir())
            (Dim(3), Dim('n'))
        """
        mlir = _mlir()
        if mlir.integer_value(attr) is not None:
            return StaticDim.from_mlir(attr)
        if mlir.symbol_name(attr) is not None:
            return SymbolicDim.from_mlir(attr)
        if mlir.array_items(attr) is not None:
            return AlgebraicDim.from_mlir(attr)
        raise GraphError(f"{attr} describes no dimension: latticecast writes a size as an integer attribute, a "
                         "name as a symbol reference (@batch) and an expression as [\"add\", ...]; graph api does "
                         "not support unknown dimensions")

    @property
    def parameters(self) -> list["SymbolicDim"]:
        """The symbolic dimensions this dimension depends on (MAX's ``Dim.parameters``)."""
        return []


class _StaticDimType(_DimType):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, int) and not isinstance(obj, bool)


class StaticDim(_Arithmetic, int, Dim, metaclass=_StaticDimType):
    """MAX's static dimension: an ``int`` that knows it is a size (``StaticDim(3) == 3``, ``.dim`` is 3).

    Arithmetic with sizes stays static (``StaticDim(3) + 1`` is ``StaticDim(4)``), with a name it is
    algebraic (whose ``//`` rounds toward zero when the graph runs, as MAX's; sizes are not negative).
    ``isinstance(3, StaticDim)`` holds, and a shape hands its sizes out as ``StaticDim``. The value must fit an int64, as in MAX; a shape also refuses
    a negative size.

    Args:
        value: the size, an ``int`` (or a NumPy integer, an ``IntegerAttr``, or a static dimension).

    Raises:
        TypeError: ``value`` is not an integer.
        GraphError: ``value`` does not fit an int64.

    Example:
        >>> StaticDim(3), StaticDim(3).dim, StaticDim(3) + 1, StaticDim(7) // 2
        (Dim(3), 3, Dim(4), Dim(3))
    """

    __slots__ = ()

    def __new__(cls, value: "int | np.integer | ir.Attribute") -> "StaticDim":
        if isinstance(value, StaticDim) and value.__class__ is StaticDim:
            return value  # the same object, as MAX
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            found = _mlir().integer_value(value)
            if found is not None:
                value = found
            elif _is_max_dim(value) and type(value).__name__ == "StaticDim":
                value = int(getattr(value, "dim"))  # MAX's own StaticDim (MAX is untyped here)
            else:
                raise TypeError(f"StaticDim.__init__ only accepts int, builtin.IntegerAttr, or StaticDim, got "
                                f"{_attr_type_name(value)} (latticecast: a size such as 3; Dim(value) converts "
                                "any dimension)")
        if not -MAX_DIM - 1 <= int(value) <= MAX_DIM:
            raise GraphError(f"StaticDim({int(value)}): Dim value must be -2**63 <= dim < 2**63 (an int64); give "
                             "a smaller size")
        return super().__new__(cls, int(value))

    @property
    def dim(self) -> int:
        """The size as a plain ``int`` (MAX's ``StaticDim.dim``)."""
        return int(self)

    def __int__(self) -> int:
        return int.__int__(self)

    def __index__(self) -> int:
        return int.__index__(self)

    def __repr__(self) -> str:
        return f"Dim({int(self)})"

    def __str__(self) -> str:
        return str(int(self))

    __hash__ = int.__hash__
    __eq__ = int.__eq__
    __ne__ = int.__ne__

    def __reduce__(self) -> "tuple[type[StaticDim], tuple[int]]":
        return (StaticDim, (int(self),))

    def to_mlir(self) -> ir.Attribute:
        """``i64`` ``IntegerAttr`` of the size."""
        return _mlir().integer_attr(int(self))

    @staticmethod
    def from_mlir(attr: ir.Attribute) -> "StaticDim":
        """The size an ``IntegerAttr`` holds.

        Args:
            attr: an ``IntegerAttr``.

        Returns:
            The :class:`StaticDim`.

        Raises:
            TypeError: ``attr`` is not an ``IntegerAttr``.

        Example:
            >>> StaticDim.from_mlir(StaticDim(5).to_mlir())
            Dim(5)
        """
        found = _mlir().integer_value(attr)
        if found is None:
            raise TypeError(f"StaticDim.from_mlir only accepts builtin.IntegerAttr, got {_attr_type_name(attr)} "
                            "(latticecast: the attribute StaticDim.to_mlir() gives)")
        return StaticDim(found)


def _attr_type_name(value: object) -> str:
    """``value``'s type name as MAX's messages spell it (an MLIR attribute by its kind)."""
    mlir = _mlir()
    if mlir.is_attribute(value):
        # latticecast's encodings of MAX's dimension attributes, by MAX's names for them
        if mlir.integer_value(value) is not None:
            return "IntegerAttr"
        if mlir.symbol_name(value) is not None:
            return "ParamDeclRefAttr"
        if mlir.array_items(value) is not None:
            return "ParamOperatorAttr"
    return type(value).__name__


class SymbolicDim(_Arithmetic, Dim):
    """A dimension whose size is a name until the graph is called: ``SymbolicDim("batch")``.

    Equal to another symbolic dimension of the same name and to the name itself (as MAX's
    ``SymbolicDim``), so shapes compare with lists such as ``["batch", 10]``.

    Args:
        name: an identifier (``str``), a ``FlatSymbolRefAttr``, or a symbolic dimension.

    Raises:
        TypeError: ``name`` is of another type.
        GraphError: ``name`` is not an identifier (a ``ValueError``, as MAX's).

    Example:
        >>> SymbolicDim("batch") == "batch", SymbolicDim("batch") + 1
        (True, Dim('batch') + Dim(1))
    """

    __slots__ = ("name",)
    name: str

    def __new__(cls, name: "str | SymbolicDim | ir.Attribute") -> "SymbolicDim":
        if isinstance(name, SymbolicDim) and name.__class__ is SymbolicDim:
            return name  # the same object, as MAX
        return object.__new__(cls)

    def __init__(self, name: "str | SymbolicDim | ir.Attribute") -> None:
        if name is self:
            return
        if not isinstance(name, str):
            found = _mlir().symbol_name(name)
            if found is not None:
                name = found
            elif _is_max_dim(name) and type(name).__name__ == "SymbolicDim":
                name = str(getattr(name, "name"))  # MAX's own SymbolicDim (MAX is untyped here)
            else:
                raise TypeError(f"SymbolicDim.__init__ only accepts str, kgen.ParamDeclRefAttr, or SymbolicDim, "
                                f"got {_attr_type_name(name)} (latticecast: a name such as 'batch', or a "
                                "FlatSymbolRefAttr)")
        if not _NAME.match(name):
            raise GraphError(f"Invalid name for symbolic dimension: {name!r}; use an identifier such as 'batch' "
                             "(letters, digits and _, not starting with a digit), as MAX requires")
        object.__setattr__(self, "name", name)

    def __setattr__(self, key: str, value: object) -> None:
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

    def __reduce__(self) -> "tuple[type[SymbolicDim], tuple[str]]":
        return (SymbolicDim, (self.name,))

    @property
    def parameters(self) -> list["SymbolicDim"]:
        return [self]

    def to_mlir(self) -> ir.Attribute:
        """A ``FlatSymbolRefAttr`` of the name (``@batch``)."""
        return _mlir().symbol_attr(self.name)

    @staticmethod
    def from_mlir(attr: ir.Attribute) -> "SymbolicDim":
        """The name a ``FlatSymbolRefAttr`` holds.

        Args:
            attr: a ``FlatSymbolRefAttr``.

        Returns:
            The :class:`SymbolicDim`.

        Raises:
            TypeError: ``attr`` is not a ``FlatSymbolRefAttr``.

        Example:
            >>> SymbolicDim.from_mlir(SymbolicDim("n").to_mlir())
            Dim('n')
        """
        found = _mlir().symbol_name(attr)
        if found is None:
            raise TypeError(f"SymbolicDim.from_mlir only accepts kgen.ParamDeclRefAttr, got {_attr_type_name(attr)} "
                            "(latticecast: the FlatSymbolRefAttr SymbolicDim.to_mlir() gives)")
        return SymbolicDim(found)

    def substitute(self, mapping: "Mapping[str, DimLike]") -> "Dim":
        """This dimension with names replaced per ``mapping`` (name -> dimension)."""
        replacement = mapping.get(self.name)
        return self if replacement is None else Dim(replacement)


class AlgebraicDim(_Arithmetic, Dim):
    """A dimension computed from others: ``Dim("batch") * 3``, ``(Dim("x") + "y" - 4) // 5``.

    Arithmetic on dimensions makes one (static arithmetic stays a :class:`StaticDim`, and an expression
    that simplifies to a name is that :class:`SymbolicDim`). It is kept in a normal form, so equal
    expressions compare equal (``4 * x + 4 == (x + 1) * 4``) and print as MAX prints them. A graph
    computes its size when it runs from the sizes of the names it uses (``//`` rounds toward zero).

    Args:
        attr: an algebraic dimension, the ``ArrayAttr`` its :meth:`to_mlir` gives, or MAX's own
            algebraic attribute (an object with an ``opcode`` and ``operands``).

    Raises:
        TypeError: ``attr`` is none of these.

    Example:
        >>> d = (Dim("x") + "y" - 4) // 5
        >>> print(d), isinstance(d, AlgebraicDim), d.parameters
        (x + y + -4) // 5
        (None, True, [Dim('x'), Dim('y')])
    """

    __slots__ = ("_normal", "_source")
    _normal: "_Poly | None"
    _source: object  # MAX's own attribute (MAX is untyped here), read when first needed

    def __new__(cls, attr: object) -> "AlgebraicDim":
        if isinstance(attr, AlgebraicDim) and attr.__class__ is AlgebraicDim:
            return attr  # the same object, as MAX
        return object.__new__(cls)

    def __init__(self, attr: object) -> None:
        if attr is self:
            return
        if _mlir().is_attribute(attr) and _mlir().array_items(attr) is not None:
            found = _parse_attr(attr)
            if not isinstance(found, AlgebraicDim):
                raise TypeError(f"AlgebraicDim.__init__: {attr} describes {found!r}, not an algebraic dimension")
            object.__setattr__(self, "_normal", found._poly)
            object.__setattr__(self, "_source", None)
        elif _is_max_operator_attr(attr) or (_is_max_dim(attr) and type(attr).__name__ == "AlgebraicDim"):
            object.__setattr__(self, "_normal", None)  # read when first needed
            object.__setattr__(self, "_source", getattr(attr, "attr", attr))
        else:
            raise TypeError(f"AlgebraicDim.__init__ only accepts kgen.ParamOperatorAttr or AlgebraicDim, got "
                            f"{_attr_type_name(attr)} (latticecast: arithmetic on dimensions such as "
                            "Dim('batch') + 1 makes one)")

    @classmethod
    def _of(cls, poly: _Poly) -> "AlgebraicDim":
        d = object.__new__(cls)
        object.__setattr__(d, "_normal", poly)
        object.__setattr__(d, "_source", None)
        return d

    @property
    def _poly(self) -> _Poly:
        if self._normal is None:
            found = _poly_of(_from_max_attr(self._source))
            assert found is not None
            object.__setattr__(self, "_normal", found)
        return cast(_Poly, self._normal)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("an AlgebraicDim is immutable")

    @property
    def attr(self) -> "OperatorAttr":
        """The expression's outermost operator and its operands' attributes (MAX's ``ParamOperatorAttr``:
        ``.opcode`` and ``.operands``); :meth:`to_mlir` gives the whole expression as one attribute.

        Example:
            >>> a = (Dim("n") + 1).attr
            >>> a.opcode, [Dim.from_mlir(x) for x in a.operands]
            (<DimOperator.add: 'add'>, [Dim('n'), Dim(1)])
        """
        mlir = _mlir()
        items = mlir.array_items(self.to_mlir())
        assert items is not None  # to_mlir writes an expression as an ArrayAttr
        return OperatorAttr(DimOperator(mlir.string_value(items[0])), items[1:])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AlgebraicDim) and self._poly == other._poly

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(frozenset(self._poly.items()))

    def __str__(self) -> str:
        return _format(_node(self._poly), lambda leaf: leaf)

    def __repr__(self) -> str:
        return _format(_node(self._poly), lambda leaf: Dim(leaf).__repr__())

    def __reduce__(self) -> "tuple[Callable[[_Tree], Dim], tuple[_Tree]]":
        return (_rebuild, (_node_tuple(_node(self._poly)),))

    @property
    def parameters(self) -> list["SymbolicDim"]:
        names: list[SymbolicDim] = []
        _collect(self._poly, names)
        return names

    def substitute(self, mapping: "Mapping[str, DimLike]") -> "Dim":
        """This dimension with names replaced per ``mapping`` (name -> dimension); sizes fold.

        Example:
            >>> (Dim("x") * 2 + 1).substitute({"x": 3})
            Dim(7)
        """
        return _eval_node(_node(self._poly), lambda name: Dim(mapping.get(name, name)))

    def to_mlir(self) -> ir.Attribute:
        """An ``ArrayAttr``: the operator's name, then its operands' attributes (``["add", @x, 1 : i64]``)."""
        return _node_attr(_node(self._poly))

    @staticmethod
    def from_mlir(attr: ir.Attribute) -> "AlgebraicDim":
        """The algebraic dimension an ``ArrayAttr`` from :meth:`to_mlir` describes.

        Args:
            attr: the ``ArrayAttr``.

        Returns:
            The :class:`AlgebraicDim`.

        Raises:
            TypeError: ``attr`` is not an ``ArrayAttr``.

        Example:
            >>> AlgebraicDim.from_mlir((Dim("n") * 2).to_mlir())
            Dim('n') * Dim(2)
        """
        if _mlir().array_items(attr) is None:
            raise TypeError(f"AlgebraicDim.from_mlir only accepts kgen.ParamOperatorAttr, got {_attr_type_name(attr)} "
                            "(latticecast: the ArrayAttr AlgebraicDim.to_mlir() gives)")
        return AlgebraicDim(attr)


def _collect(poly: _Poly, names: list[SymbolicDim]) -> None:
    for mono in poly:
        for atom in mono:
            name = _symbol(atom)
            if name is not None:
                if name not in names:
                    names.append(SymbolicDim(name))
            else:
                numerator, denominator = _quotient(atom)
                _collect(numerator, names)
                _collect(denominator, names)


def _eval_node(node: _Expr, leaf: Callable[[str], "Dim"]) -> "Dim":
    """Rebuild ``node`` with dimension arithmetic (``leaf(name)`` for each name)."""
    if isinstance(node, _Node):
        args = [_eval_node(a, leaf) for a in node.args]
        out = args[0]
        for a in args[1:]:
            found = _apply(node.op, out, a)  # the operators' own rule: out + a, out * a, out // a
            assert found is not None  # both are dimensions
            out = found
        return out
    if node.__class__ in _DIMS:
        return cast(Dim, node)
    if isinstance(node, str):
        return leaf(node)
    return StaticDim(cast(int, node))


def _node_tuple(node: _Expr) -> _Tree:
    if isinstance(node, _Node):
        return (node.op, [_node_tuple(a) for a in node.args])
    return node if isinstance(node, str) else int(cast(int, node))


def _rebuild(tree: _Tree) -> "Dim":
    def to_node(t: _Tree) -> _Expr:
        return _Node(t[0], [to_node(a) for a in t[1]]) if isinstance(t, tuple) else t
    return _eval_node(to_node(tree), SymbolicDim)


def _node_attr(node: _Expr) -> ir.Attribute:
    mlir = _mlir()
    if isinstance(node, _Node):
        return mlir.array_attr([mlir.string_attr(node.op)] + [_node_attr(a) for a in node.args])
    return SymbolicDim(node).to_mlir() if isinstance(node, str) else mlir.integer_attr(int(cast(int, node)))


def _parse_attr(attr: ir.Attribute) -> "Dim":
    """The dimension an attribute of :meth:`Dim.to_mlir`'s form describes."""
    mlir = _mlir()
    items = mlir.array_items(attr)
    if items is None:
        return Dim.from_mlir(attr)
    op = mlir.string_value(items[0]) if items else None
    if op is None or op not in _OPS or len(items) < 3:
        raise GraphError(f"{attr} is not an algebraic dimension: latticecast writes one as [\"add\" | \"mul\" | "
                         "\"floordiv\", operands...]")
    operands: list[_Expr] = [_parse_attr(a) for a in items[1:]]
    return _eval_node(_Node(op, operands), SymbolicDim)


_MAX_OPCODES = {"add": "add", "mul_no_wrap": "mul", "mul": "mul", "div": "floordiv"}


def _from_max_attr(attr: object) -> "Dim":
    """A dimension from MAX's own attributes (``kgen.ParamOperatorAttr`` and its operands; MAX is untyped
    here, so they are read by name)."""
    if _is_max_operator_attr(attr):
        opcode = getattr(attr, "opcode")
        name = str(getattr(opcode, "name", str(opcode))).rsplit(".", 1)[-1]
        if name not in _MAX_OPCODES:
            raise GraphError(f"MAX's dimension operator {name} has no latticecast counterpart (add, mul, div)")
        operands: list[_Expr] = [_from_max_attr(o) for o in getattr(attr, "operands")]
        return _eval_node(_Node(_MAX_OPCODES[name], operands), SymbolicDim)
    value = getattr(attr, "value", None)
    if isinstance(value, int):
        return StaticDim(value)
    found = getattr(attr, "name", None)
    found = getattr(found, "value", found)
    if isinstance(found, str):
        return SymbolicDim(found)
    return Dim(attr)


DimLike = Union[int, str, Dim, np.integer]
"""What a shape may hold: a size, a name, or a dimension (:class:`StaticDim`, :class:`SymbolicDim`,
:class:`AlgebraicDim`, or MAX's ``Dim`` objects)."""

ShapeLike = Iterable[DimLike]
"""What a shape may be given as (MAX's ``ShapeLike``): any iterable of :data:`DimLike`."""

_DIMS = (StaticDim, SymbolicDim, AlgebraicDim)


def as_dim(d: object, what: str) -> "StaticDim | SymbolicDim | AlgebraicDim":
    """``d`` as a dimension: a :class:`StaticDim` in ``[0, MAX_DIM]``, a :class:`SymbolicDim` or an
    :class:`AlgebraicDim`, else a :class:`GraphError` that names ``what``."""
    if d.__class__ is int and 0 <= d <= MAX_DIM:
        return int.__new__(StaticDim, d)
    if d.__class__ in _DIMS and (d.__class__ is not StaticDim or d >= 0):
        return d
    found = _parse_dim(d)
    if isinstance(found, str):
        raise GraphError(f"{what}: {found}")
    return found


def _parse_dim(d: object) -> "StaticDim | SymbolicDim | AlgebraicDim | str":
    """``d`` as a dimension, or (a ``str``) why it is not one."""
    if isinstance(d, str):
        return SymbolicDim(d) if _NAME.match(d) else (
            f"Invalid name {d!r}: it is not a valid name for a symbolic dimension; use an identifier such as "
            "'batch'")
    if d.__class__ in (SymbolicDim, AlgebraicDim):
        return d
    if isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)):
        return int.__new__(StaticDim, int(d)) if 0 <= int(d) <= MAX_DIM else (
            f"{'Static tensor dimensions must be non-negative; ' if int(d) < 0 else ''}dimension {int(d)} is out "
            f"of range: dimensions must be non-negative integers (at most {MAX_DIM}) or names such as 'batch'")
    if _is_max_dim(d):
        kind = type(d).__name__
        if kind == "AlgebraicDim":
            return AlgebraicDim(d)
        return _parse_dim(getattr(d, "name" if kind == "SymbolicDim" else "dim"))  # MAX's own (untyped here)
    return f"{d!r} is not a dimension: dimensions must be non-negative integers (sizes) or names such as 'batch'"


class DimensionError(GraphTypeError):
    """A shape holds something that is not a dimension, or a negative size: a :class:`GraphError`
    (``ValueError``), and a ``TypeError`` as MAX raises for it."""


def check_shape(shape: object, what: str) -> "Shape":
    """``shape`` as a :class:`Shape`, or a :class:`DimensionError` naming the problem."""
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
        raise DimensionError(f"{what} must be a sequence of dimensions such as [2, 3] or ['batch', 3], not {shape!r}")
    dims = list(shape)
    out = list.__new__(Shape)
    for d in dims:
        if d.__class__ is int and 0 <= d <= MAX_DIM:
            found: "StaticDim | SymbolicDim | AlgebraicDim | str" = int.__new__(StaticDim, d)
        elif d.__class__ in _DIMS and (d.__class__ is not StaticDim or d >= 0):
            found = d
        else:
            found = _parse_dim(d)
        if isinstance(found, str):
            raise DimensionError(f"{what} {[str(d) for d in dims]}: {found}")
        list.append(out, found)
    return out


def shape_of(dims: "Iterable[int | Dim]") -> "Shape":
    """A :class:`Shape` of dimensions already checked (sizes, names' dimensions, algebraic ones):
    the graph builder's fast path (a plain ``int`` becomes a :class:`StaticDim`)."""
    out = list.__new__(Shape)
    list.extend(out, [int.__new__(StaticDim, d) if d.__class__ is int else d for d in dims])
    return out


def is_static(shape: Iterable[object]) -> bool:
    """Whether every dimension of ``shape`` is a size (no symbolic or algebraic dimension)."""
    return all(isinstance(d, int) for d in shape)


def static_dims(shape: Sequence["int | Dim"]) -> tuple[int, ...] | None:
    """``shape``'s sizes as plain ``int`` s when every dimension is a size (:func:`is_static`), else ``None``."""
    return tuple(int(d) for d in shape) if is_static(shape) else None


def static_size(shape: "Iterable[int | Dim]") -> "int | None":
    """The number of elements of ``shape``, or ``None`` when it has a symbolic or algebraic dimension."""
    dims = list(shape)
    return math.prod([int(d) for d in dims]) if is_static(dims) else None


def symbols(shape: Iterable[object]) -> list[SymbolicDim]:
    """The symbolic dimensions of ``shape``, in order (repeats included)."""
    return [d for d in shape if d.__class__ is SymbolicDim]


def is_dynamic(d: object) -> bool:
    """Whether ``d`` is a symbolic or algebraic dimension (its size known only when the graph runs)."""
    return d.__class__ is SymbolicDim or d.__class__ is AlgebraicDim


class Shape(list[Any]):  # Any: see the note at the end of the docstring
    """A tensor's shape as MAX's ``Shape``: a list of dimensions, equal to the same dimensions as a
    list or tuple.

    As MAX's, it is a list: ``shape[0] = 5``, ``shape.pop(1)`` and ``shape + [3]`` work, each new
    dimension checked as the constructor checks it; its sizes are :class:`StaticDim` s (``shape[0].dim``).
    It also hashes by its dimensions (a type holding it is hashable): do not change one that is a
    dict key. A value's ``.shape`` is a fresh copy, so changing it changes no value.

    Args:
        dims: the dimensions: sizes, names or dimensions.

    Raises:
        GraphError: a dimension is neither a size nor a name.

    Example:
        >>> s = Shape([2, "batch", 3])
        >>> s == [2, "batch", 3], s.rank, s.static_dims
        (True, 3, [2, 3])
        >>> s[0] = 4; s.pop(); s
        Dim(3)
        [Dim(4), Dim('batch')]

    Its elements are typed ``Any`` deliberately, for now: each is a :class:`StaticDim`,
    :class:`SymbolicDim` or :class:`AlgebraicDim`, but the graph's ops read them as sizes or names
    where their own checks have made sure of which, and saying so to the type checker is theirs to do.
    """

    def __init__(self, dims: "Iterable[DimLike]" = ()) -> None:
        super().__init__(dims if isinstance(dims, Shape) else check_shape(dims, "Shape"))

    @property
    def rank(self) -> int:
        """The number of dimensions."""
        return len(self)

    @property
    def static_dims(self) -> list[int]:
        """The sizes among the dimensions, in order (MAX's ``Shape.static_dims``)."""
        return [int(d) for d in self if isinstance(d, int)]

    @property
    def parameters(self) -> list[SymbolicDim]:
        """The symbolic dimensions the shape depends on (MAX's ``Shape.parameters``)."""
        out: list[SymbolicDim] = []
        for d in self:
            out.extend(p for p in Dim(d).parameters if p not in out)
        return out

    @staticmethod
    def is_static(shape: Iterable[object]) -> bool:
        """Whether every dimension of ``shape`` is a non-negative size (MAX's ``Shape.is_static``)."""
        return all(isinstance(d, int) and d >= 0 for d in shape)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):  # the builder's hot path: element by element, in C
            return list.__eq__(self, other)
        if isinstance(other, tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:  # type: ignore[override]  # a list that hashes, as types holding it must
        return hash(tuple(self))

    def __getitem__(self, index: "SupportsIndex | slice") -> Any:
        if isinstance(index, slice):
            return shape_of(list.__getitem__(self, index))
        return list.__getitem__(self, index)

    def __setitem__(self, index: "SupportsIndex | slice", value: object) -> None:
        if isinstance(index, slice):
            list.__setitem__(self, index, check_shape(value, "Shape"))
        else:
            list.__setitem__(self, index, check_shape([value], "Shape")[0])

    def append(self, value: "DimLike") -> None:
        list.append(self, check_shape([value], "Shape")[0])

    def insert(self, index: SupportsIndex, value: "DimLike") -> None:
        list.insert(self, index, check_shape([value], "Shape")[0])

    def extend(self, values: "Iterable[DimLike]") -> None:
        list.extend(self, check_shape(values, "Shape"))

    def __iadd__(self, values: "Iterable[DimLike]") -> "Shape":  # type: ignore[misc,override]
        self.extend(values)
        return self

    def __add__(self, other: object) -> Any:
        """``shape + [dims]`` (or ``+ (dims,)``) is a :class:`Shape`."""
        if isinstance(other, (list, tuple)):
            return shape_of([*self, *check_shape(other, "Shape")])
        return NotImplemented

    def __radd__(self, other: object) -> Any:
        if isinstance(other, (list, tuple)):
            return shape_of([*check_shape(other, "Shape"), *self])
        return NotImplemented

    def __mul__(self, n: SupportsIndex) -> "Shape":
        return shape_of(list.__mul__(self, n))

    def copy(self) -> "Shape":
        return shape_of(self)

    def __repr__(self) -> str:
        return "[" + ", ".join(map(repr, self)) + "]"

    def __str__(self) -> str:
        """``[2, batch]``: the dimensions as they read in messages (``repr`` gives MAX's ``[Dim(2), Dim('batch')]``)."""
        return "[" + ", ".join(map(str, self)) + "]"

    def to_mlir(self) -> ir.Attribute:
        """An ``ArrayAttr`` of the dimensions' attributes (:meth:`Dim.to_mlir`)."""
        return _mlir().array_attr([Dim(d).to_mlir() for d in self])

    @classmethod
    def from_mlir(cls, attr: ir.Attribute) -> "Shape":
        """The shape an ``ArrayAttr`` from :meth:`to_mlir` describes.

        Example:
            >>> Shape.from_mlir(Shape([2, "n"]).to_mlir())
            [Dim(2), Dim('n')]
        """
        array = _mlir().array_items(attr)
        if array is None:
            raise TypeError(f"Shape.from_mlir only supported for an ArrayAttr of dimensions, got {attr}")
        return cls([Dim.from_mlir(a) for a in array])


def solve_for(d: object, name: "str | SymbolicDim") -> "tuple[int, Dim] | None":
    """``(c, rest)`` such that ``d == c * name + rest`` with ``name`` nowhere in ``rest``, or ``None``
    when ``d`` is not of that form: how ``x.rebind([Dim("n") * 4])`` finds the new name's size.

    Example:
        >>> solve_for(Dim("n") * 4 + Dim("m"), "n")
        (4, Dim('m'))
    """
    target = str(name)
    poly = _poly_of(d)
    if poly is None:
        return None
    key: _Mono = (("s", target),)
    coef = poly.get(key)
    if not coef:
        return None
    rest = {m: c for m, c in poly.items() if m != key}
    names: list[SymbolicDim] = []
    _collect(rest, names)
    if target in names:
        return None
    return coef, _dim_of(rest)
