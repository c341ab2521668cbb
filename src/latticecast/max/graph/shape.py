"""MAX's ``max.graph.shape``: :class:`Shape`, a list of dimensions (latticecast's :mod:`latticecast.promotion.dims`).

Example:
    >>> from latticecast.max.graph.shape import Shape
    >>> Shape([2, "batch"]).static_dims
    [2]
"""

from ...promotion.dims import Shape, ShapeLike

__all__ = ["Shape", "ShapeLike"]
