"""MAX's parameter expressions (``max._core.dialects.kgen``) in latticecast's encoding of dimensions: a symbolic
dimension is a ``FlatSymbolRefAttr`` (``@batch``), an algebraic one an ``ArrayAttr`` of its operator's name and
its operands (``["add", @batch, 10 : i64]``), as :meth:`Dim.to_mlir <latticecast.promotion.dims.Dim.to_mlir>` writes them
and :meth:`Dim.from_mlir <latticecast.promotion.dims.Dim.from_mlir>` reads them.

Example:
    >>> from latticecast.max.graph import AlgebraicDim, Dim
    >>> from latticecast.max._core.dialects import kgen
    >>> AlgebraicDim(kgen.ParamOperatorAttr(kgen.POC.add, [Dim("batch").to_mlir(), Dim(10).to_mlir()]))
    Dim('batch') + Dim(10)
"""

from __future__ import annotations

from typing import Iterable

from jaxlib.mlir import ir

from ....dialect_utils.context import current_or_default as _context
from ....promotion.dims import DimOperator

__all__ = ["POC", "ParamDeclArrayAttr", "ParamDeclRefAttr", "ParamOperatorAttr"]


POC = DimOperator
"""The operators of an algebraic dimension (MAX's ``kgen.POC``; its home: :class:`latticecast.promotion.dims.DimOperator`)."""


def ParamDeclRefAttr(name: str, type: object = None) -> ir.Attribute:  # noqa: N802,A002  # MAX's names
    """A reference to the symbolic dimension ``name`` (``@name``).

    Args:
        name: The dimension's name.
        type: Its integer type (MAX's ``si64``; the encoding has none).

    Returns:
        The ``FlatSymbolRefAttr``.
    """
    with _context():
        return ir.FlatSymbolRefAttr.get(name)


def ParamOperatorAttr(opcode: DimOperator, operands: Iterable[ir.Attribute]) -> ir.Attribute:  # noqa: N802
    """``opcode`` applied to ``operands`` (dimension attributes).

    Args:
        opcode: The operator.
        operands: Its operands, as :meth:`Dim.to_mlir` gives them.

    Returns:
        The ``ArrayAttr``.
    """
    with _context():
        return ir.ArrayAttr.get([ir.StringAttr.get(DimOperator(opcode).value), *operands])


def ParamDeclArrayAttr(params: Iterable[ir.Attribute]) -> ir.Attribute:  # noqa: N802
    """A list of parameter declarations (an ``ArrayAttr``).

    Args:
        params: The declarations.

    Returns:
        The ``ArrayAttr``.
    """
    with _context():
        return ir.ArrayAttr.get(list(params))
