"""MAX's ``max.graph.ops.reducescatter``: ``reducescatter.sum`` (its home: :mod:`latticecast.graph.ops.collectives`).

Example:
    >>> from latticecast.max.graph.ops import reducescatter
    >>> reducescatter.sum.__name__ in ("sum", "reducescatter_sum")
    True
"""

from ....graph.ops import reducescatter as _reducescatter
from ....graph.value import BufferValueLike, TensorValueLike
from ..graph import Graph
from ..value import TensorValue

sum = _reducescatter.sum  # noqa: A001  # MAX's name
"""Each device's inputs summed over the devices, each keeping its own piece (see :mod:`latticecast.graph.ops.collectives`)."""

__all__ = ["BufferValueLike", "Graph", "TensorValue", "TensorValueLike", "sum"]
