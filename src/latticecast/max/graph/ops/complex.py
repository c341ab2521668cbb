"""MAX's ``max.graph.ops.complex`` (its home: :mod:`latticecast.graph.ops.complex`).

Example:
    >>> from latticecast.max.graph.ops import complex
    >>> complex.mul.__name__
    'mul'
"""

from ....promotion.dims import StaticDim
from ....graph.ops import as_interleaved_complex, reshape, stack
from ....graph.ops.complex import mul
from ....graph.value import TensorValueLike
from ..value import TensorValue

__all__ = ["StaticDim", "TensorValue", "TensorValueLike", "as_interleaved_complex", "mul", "reshape", "stack"]
