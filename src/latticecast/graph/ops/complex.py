"""MAX's ``max.graph.ops.complex``: complex numbers stored as (real, imaginary) pairs in a last axis of size 2.

MAX has no complex dtypes; its complex ops read a value whose last axis holds the real and
imaginary parts. ``as_interleaved_complex`` views alternating parts that way; ``mul`` multiplies
two such values (elementwise ``stablehlo`` multiplies and adds on the parts, then a concatenate).
latticecast's own complex dtypes (``complex64``, ``complex128``) are another matter: ``x * y`` of
those is StableHLO's complex multiply.
"""

from __future__ import annotations

from ..value import TensorValueLike, Value
from .elementwise import add, multiply, subtract
from .operands import as_value, graph_of
from .shape import as_interleaved_complex, format_shape, stack

__all__ = ["as_interleaved_complex", "mul"]


def mul(lhs: TensorValueLike, rhs: TensorValueLike) -> Value:
    """The product of two complex values stored as (real, imaginary) pairs in their last axis (MAX's
    ``ops.complex.mul``).

    The parts are promoted and broadcast as ``*`` does, so the result has the type of ``lhs * rhs``.

    Args:
        lhs: A value whose last axis has size 2 (real, imaginary).
        rhs: Another such value.

    Returns:
        ``(a*c - b*d, a*d + b*c)`` in a last axis of size 2.

    Raises:
        GraphError: (a ``ValueError``) An operand's last axis is not of size 2, or the shapes do not broadcast.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> from latticecast.graph.ops import complex
        >>> with Graph("cmul", input_types=[TensorType(DType.float32, [2])] * 2) as g:
        ...     g.output(complex.mul(*g.inputs))
        >>> g.compile()(np.array([1, 2], np.float32), np.array([3, 4], np.float32))[0].tolist()  # (1+2j)(3+4j)
        [-5.0, 10.0]
    """
    g = graph_of(lhs, rhs)
    x, y = as_value(lhs, g), as_value(rhs, g)
    if not (x.shape and y.shape and x.shape[-1] == 2 and y.shape[-1] == 2):
        from ...errors import GraphError
        raise GraphError("Complex-valued tensors must be 2-dimensional vectors in their last dimension. Got "
                         f"lhs {x.dtype.name}{format_shape(x.shape)}, rhs {y.dtype.name}{format_shape(y.shape)}; "
                         "store each complex number as (real, imag) in a last axis of size 2 "
                         "(ops.as_interleaved_complex makes one of alternating parts)")
    a, b = x[..., 0], x[..., 1]
    c, d = y[..., 0], y[..., 1]
    return stack([subtract(multiply(a, c), multiply(b, d)), add(multiply(a, d), multiply(b, c))], axis=-1)
