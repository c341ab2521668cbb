"""MAX's ``max.graph.dim``: the dimensions of a shape (latticecast's :mod:`latticecast.promotion.dims`).

Example:
    >>> from latticecast.max.graph.dim import Dim, StaticDim
    >>> Dim(3) == StaticDim(3), Dim("batch") + 1
    (True, Dim('batch') + Dim(1))
"""

from ...promotion.dims import AlgebraicDim, Dim, DimLike, StaticDim, SymbolicDim

__all__ = ["AlgebraicDim", "Dim", "DimLike", "StaticDim", "SymbolicDim"]
