"""The graph's types in MLIR: the attributes a dimension is written as, and the tensor types.

The promotion layer's dimensions (:mod:`latticecast.promotion.dims`) and tensor types
(:mod:`latticecast.promotion.tensor_type`) convert to MLIR as MAX's do, but that layer imports
no MLIR; this module is what they convert with (:class:`~latticecast.promotion.mlir_bridge.MLIRConversions`,
installed by the package's entry). A dimension is an ``i64`` ``IntegerAttr`` (a size), a
``FlatSymbolRefAttr`` (``@batch``, a name) or an ``ArrayAttr`` whose first element names the operator
(``["add", @batch, 1 : i64]``). A tensor type is a ``RankedTensorType`` whose encoding keeps what the
MLIR shape cannot: the device, the names of symbolic dimensions, algebraic dimensions and a filter
layout. Everything is made in the current context, or latticecast's default one
(:func:`~latticecast.dialect_utils.context.current_or_default`).
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeGuard, TypeVar

from jaxlib.mlir import ir

from ..errors import GraphError
from ..promotion.dims import AlgebraicDim, Dim, DimLike
from ..promotion.dtypes import DType
from ..promotion.tensor_type import FilterLayout, TensorType
from .context import current_or_default

__all__ = ["is_attribute", "integer_value", "symbol_name", "string_value", "array_items", "integer_attr",
           "symbol_attr", "string_attr", "array_attr", "token_type", "tensor_type_to_mlir",
           "tensor_type_from_mlir"]


_A = TypeVar("_A", bound=ir.Attribute)


def _cast(value: object, kind: Callable[[ir.Attribute], _A]) -> _A | None:
    """``value`` as an attribute of ``kind`` (``ir.IntegerAttr`` ...), or ``None``."""
    if not isinstance(value, ir.Attribute):
        return None
    try:
        return kind(value)
    except (ValueError, TypeError):
        return None


def is_attribute(value: object) -> TypeGuard[ir.Attribute]:
    """Whether ``value`` is an MLIR attribute."""
    return isinstance(value, ir.Attribute)


def integer_value(value: object) -> int | None:
    """The integer an ``IntegerAttr`` holds, or ``None`` for any other object."""
    found = _cast(value, ir.IntegerAttr)
    return None if found is None else int(found.value)


def symbol_name(value: object) -> str | None:
    """The name a ``FlatSymbolRefAttr`` holds (``@batch``: ``"batch"``), or ``None`` for any other object."""
    found = _cast(value, ir.FlatSymbolRefAttr)
    return None if found is None else str(found.value)


def string_value(value: object) -> str | None:
    """The text a ``StringAttr`` holds, or ``None`` for any other object."""
    found = _cast(value, ir.StringAttr)
    return None if found is None else str(found.value)


def array_items(value: object) -> list[ir.Attribute] | None:
    """The elements of an ``ArrayAttr``, or ``None`` for any other object."""
    found = _cast(value, ir.ArrayAttr)
    return None if found is None else list(found)


def integer_attr(value: int) -> ir.Attribute:
    """An ``i64`` ``IntegerAttr`` of ``value``."""
    with current_or_default():
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def symbol_attr(name: str) -> ir.Attribute:
    """A ``FlatSymbolRefAttr`` of ``name`` (``@name``)."""
    with current_or_default():
        return ir.FlatSymbolRefAttr.get(name)


def string_attr(text: str) -> ir.Attribute:
    """A ``StringAttr`` of ``text``."""
    with current_or_default():
        return ir.StringAttr.get(text)


def array_attr(items: Sequence[ir.Attribute]) -> ir.Attribute:
    """An ``ArrayAttr`` of ``items``."""
    with current_or_default():
        return ir.ArrayAttr.get(list(items))


def token_type() -> ir.Type:
    """``!stablehlo.token``, the type of a graph's chain (MAX's ``!mo.chain``)."""
    with current_or_default():
        return ir.Type.parse("!stablehlo.token")


def tensor_type_to_mlir(t: TensorType) -> ir.RankedTensorType:
    """``t`` as a ranked tensor type whose encoding keeps the device, the names of symbolic dimensions,
    algebraic dimensions (as :meth:`Dim.to_mlir <latticecast.promotion.dims.Dim.to_mlir>` writes them)
    and the filter layout (:meth:`TensorType.to_mlir <latticecast.promotion.tensor_type.TensorType.to_mlir>`).

    Args:
        t: The tensor type.

    Returns:
        The MLIR type.

    Example:
        >>> from latticecast.promotion.tensor_type import TensorType
        >>> str(tensor_type_to_mlir(TensorType("int8", [2, "n"])))
        'tensor<2x?xi8, {device = "cpu:0", symbols = ["", "n"]}>'
    """
    with current_or_default(), ir.Location.unknown():
        element = ir.Type.parse(t.dtype.mlir_name)
        fields: dict[str, ir.Attribute] = {"device": ir.StringAttr.get(str(t.device))}
        if not all(isinstance(d, int) for d in t.shape):
            fields["symbols"] = ir.ArrayAttr.get([ir.StringAttr.get("" if isinstance(d, int) else str(d))
                                                  for d in t.shape])
        if any(isinstance(d, AlgebraicDim) for d in t.shape):
            fields["dims"] = ir.ArrayAttr.get([Dim(d).to_mlir() for d in t.shape])
        if t._layout is not None:
            fields["layout"] = ir.StringAttr.get(t._layout.value)
        dims = [int(d) if isinstance(d, int) else ir.ShapedType.get_dynamic_size() for d in t.shape]
        return ir.RankedTensorType.get(dims, element, ir.DictAttr.get(fields))


def tensor_type_from_mlir(t: ir.Type) -> TensorType:
    """The :class:`~latticecast.promotion.tensor_type.TensorType` of a ranked tensor type: the inverse of
    :func:`tensor_type_to_mlir`; a type without its encoding is on the CPU, its dynamic dimensions
    unnamed ones refused.

    Args:
        t: An ``ir.RankedTensorType`` (or an ``ir.Type`` that is one).

    Returns:
        The type.

    Raises:
        GraphError: ``t`` is not a ranked tensor type, or has a dynamic dimension without a name.

    Example:
        >>> from latticecast.promotion.tensor_type import TensorType
        >>> tensor_type_from_mlir(tensor_type_to_mlir(TensorType("int8", [2])))
        TensorType(dtype=DType.int8, shape=[Dim(2)], device=cpu:0)
    """
    try:
        rt = ir.RankedTensorType(t)
    except (TypeError, ValueError):
        raise GraphError(f"{t} is not a ranked tensor type (MAX's tensor types are)") from None
    element = str(rt.element_type)
    dtype = next((d for d in DType if not d.stablehlo_gap and d.mlir_name == element), None)
    if dtype is None:
        raise GraphError(f"{t}: latticecast has no dtype of element type {element}")
    fields = ir.DictAttr(rt.encoding) if rt.encoding is not None else None

    def field(name: str) -> ir.Attribute | None:
        return fields[name] if fields is not None and name in fields else None

    device, layout, exprs = field("device"), field("layout"), field("dims")
    where = None if device is None else ir.StringAttr(device).value
    filter_layout = None if layout is None else FilterLayout(ir.StringAttr(layout).value)
    if exprs is not None:  # algebraic dimensions: every dimension's attribute
        return TensorType(dtype, [Dim.from_mlir(a) for a in ir.ArrayAttr(exprs)], where, _layout=filter_layout)
    symbols = field("symbols")
    names = [ir.StringAttr(a).value for a in ir.ArrayAttr(symbols)] if symbols is not None else [""] * rt.rank
    shape: list[DimLike] = []
    for i in range(rt.rank):
        if rt.is_dynamic_dim(i):
            if not names[i]:
                raise GraphError(f"{t}: dimension {i} is dynamic and has no name; MAX's tensor types name "
                                 "their symbolic dimensions")
            shape.append(names[i])
        else:
            shape.append(rt.get_dim_size(i))
    return TensorType(dtype, shape, where, _layout=filter_layout)
