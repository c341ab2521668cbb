"""MAX's ``max.graph.ops.reduction`` (its home: :mod:`latticecast.graph.ops.reduction`).

Example:
    >>> from latticecast.max.graph.ops import reduction
    >>> reduction.max.__name__
    'max'
"""

from ....graph.ops.reduction import *  # noqa: F401,F403
from ....graph.ops.reduction import __all__ as _names
from ....promotion.dims import Dim, Shape
from ....graph.value import TensorValueLike
from ....promotion.tensor_type import TensorType
from ...dtype import DType
from ..graph import Graph
from ..value import TensorValue

__all__ = [*_names, "DType", "Dim", "Graph", "Shape", "TensorType", "TensorValue", "TensorValueLike"]
