"""The promotion layer's one way to MLIR, opened from above.

The graph's types convert to MLIR as MAX's do (``Dim("n").to_mlir()``, ``TensorType.from_mlir(t)``),
but the promotion layer imports no MLIR and no JAX (``tools/import_graph.py --check``). The
conversions live in MLIR's layer, :mod:`latticecast.dialect_utils.graph_types`, in the contexts of
:mod:`latticecast.dialect_utils.context`. The package's entry (``latticecast/__init__.py``), which
sits above every layer, tells this module how to load them (:func:`install`), and :mod:`.dims` and
:mod:`.tensor_type` reach them through :func:`conversions`. Nothing is loaded until a conversion is
asked for, so importing the promotion layer stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol, Sequence, TypeGuard

from ..errors import LatticecastError

if TYPE_CHECKING:  # types only: nothing here imports MLIR at run time
    from jaxlib.mlir import ir

    from .tensor_type import TensorType

__all__ = ["MLIRConversions", "install", "conversions"]


class MLIRConversions(Protocol):
    """What the graph's types need from MLIR: reading and making the attributes a dimension is written
    as (``i64`` integers, ``@name`` symbol references, strings, arrays), and the tensor types. Each
    ``*_value`` reading gives ``None`` for an object that is not that kind of attribute (or no attribute
    at all); each maker works in the current MLIR context, or latticecast's default one."""

    def is_attribute(self, value: object) -> TypeGuard[ir.Attribute]: ...
    def integer_value(self, value: object) -> int | None: ...
    def symbol_name(self, value: object) -> str | None: ...
    def string_value(self, value: object) -> str | None: ...
    def array_items(self, value: object) -> list[ir.Attribute] | None: ...
    def integer_attr(self, value: int) -> ir.Attribute: ...
    def symbol_attr(self, name: str) -> ir.Attribute: ...
    def string_attr(self, text: str) -> ir.Attribute: ...
    def array_attr(self, items: Sequence[ir.Attribute]) -> ir.Attribute: ...
    def token_type(self) -> ir.Type: ...
    def tensor_type_to_mlir(self, t: TensorType) -> ir.RankedTensorType: ...
    def tensor_type_from_mlir(self, t: ir.Type) -> TensorType: ...


_loader: Callable[[], MLIRConversions] | None = None
_loaded: MLIRConversions | None = None


def install(loader: Callable[[], MLIRConversions]) -> None:
    """Say how to load the MLIR conversions (called once, by the package's entry).

    Args:
        loader: Gives the conversions (the module :mod:`latticecast.dialect_utils.graph_types`) when first
            needed.

    Returns:
        None.

    Example:
        >>> from latticecast.promotion import mlir_bridge
        >>> mlir_bridge.conversions().integer_value(mlir_bridge.conversions().integer_attr(3))
        3
    """
    global _loader, _loaded
    _loader, _loaded = loader, None


def conversions() -> MLIRConversions:
    """The MLIR conversions :func:`install` named, loaded on first use.

    Returns:
        The conversions.

    Raises:
        LatticecastError: none were installed (``latticecast/__init__.py`` installs them, so only code
            that bypasses the package's entry sees this).

    Example:
        >>> from latticecast.promotion.mlir_bridge import conversions
        >>> str(conversions().symbol_attr("batch"))
        '@batch'
    """
    global _loaded
    if _loaded is None:
        if _loader is None:
            raise LatticecastError("latticecast's MLIR conversions are not installed: import latticecast (its "
                                   "__init__ installs them) before converting a dimension or a type to MLIR")
        _loaded = _loader()
    return _loaded
