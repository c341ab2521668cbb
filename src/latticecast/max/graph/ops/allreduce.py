"""MAX's ``max.graph.ops.allreduce``: ``allreduce.sum`` (its home: :mod:`latticecast.graph.ops.collectives`).

Example:
    >>> from latticecast.max.graph.ops import allreduce
    >>> allreduce.sum.__name__
    'allreduce_sum'
"""

from ....graph.ops import allreduce as _allreduce
from ....graph.value import BufferValueLike, TensorValueLike
from ..graph import Graph
from ..value import TensorValue

sum = _allreduce.sum  # noqa: A001  # MAX's name
"""Each device's inputs summed over all devices (see :mod:`latticecast.graph.ops.collectives`)."""

__all__ = ["BufferValueLike", "Graph", "TensorValue", "TensorValueLike", "sum"]
