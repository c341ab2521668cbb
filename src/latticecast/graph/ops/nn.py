"""Neural-network ops as MAX names them: ``relu``, ``silu``, ``gelu``, ``softmax``, ``logsoftmax``,
``layer_norm`` (``sigmoid`` is elementwise: ``stablehlo.logistic``).

Each is a composition of elementwise ops and reductions in one dtype: a float input
is computed in its own dtype (as MAX's kernels do; MAX says to cast float16 to float32
first for a stable ``layer_norm``), an integer one in the float the policy gives its
functions (``softmax(int32)`` is float64 under JAX with x64; MAX would keep ``int32``,
which has no meaningful softmax). The constants inside an op (``0.5``, ``epsilon``) are
strong constants of that dtype, so no policy decides anything about them.
"""

from __future__ import annotations

import math
from typing import Any

from ...errors import GraphError
from ..value import TensorValueLike, Value
from .elementwise import add, divide, erf, exp, float_operand, log, maximum, multiply, rsqrt, sigmoid, subtract, tanh
from .promotion import Literal, constant_value, graph_of, operand, unary_operand
from .reduction import max as max_along, mean, sum as sum_along
from .shape import format_shape

__all__ = ["relu", "silu", "gelu", "softmax", "logsoftmax", "layer_norm"]


def _const(v: Value, value: float) -> Value:
    return constant_value(v.graph, value, v.storage)


def relu(x: TensorValueLike) -> Value:
    """``max(x, 0)`` elementwise, in ``x``'s dtype (integers stay integers, as in MAX).

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s dtype and shape.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("relu", input_types=[TensorType(DType.int32, [4])]) as g:
        ...     g.output(ops.relu(g.inputs[0]))
        >>> g.compile()(np.array([-1, 0, 1, 2], np.int32))[0].tolist()
        [0, 0, 1, 2]
    """
    v = unary_operand(x, "relu")
    return maximum(v, constant_value(v.graph, 0, v.storage))


def silu(x: TensorValueLike) -> Value:
    """SiLU (swish): ``x * sigmoid(x)`` elementwise.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).

    Returns:
        A value of ``x``'s shape, in ``x``'s dtype if it is a float, else in the float the
        policy gives its functions (float64 for int32 under ``jax``).

    Raises:
        PromotionError: The policy has no float for ``x``'s dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("silu", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.silu(g.inputs[0]))
        >>> (out,) = g.compile()(np.array([-1, 0, 1, 2], np.float32))
        >>> np.round(out, 4)
        array([-0.2689,  0.    ,  0.7311,  1.7616], dtype=float32)
    """
    v = float_operand(x, "silu")
    return multiply(v, sigmoid(v))


_GELU = ("none", "tanh", "quick")


def gelu(x: TensorValueLike, approximate: str = "none") -> Value:
    """GELU elementwise, exact or approximated (MAX's ``ops.gelu``).

    ``"none"``: ``0.5 x (1 + erf(x / sqrt 2))``; ``"tanh"``:
    ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``; ``"quick"``: ``x sigmoid(1.702 x)``.

    Args:
        x: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        approximate: ``"none"`` (the default), ``"tanh"`` or ``"quick"``.

    Returns:
        A value of ``x``'s shape, in ``x``'s dtype if it is a float, else in the float the
        policy gives its functions (float64 for int32 under ``jax``).

    Raises:
        GraphError: ``approximate`` is not one of the three.
        PromotionError: The policy has no float for ``x``'s dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("gelu", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.gelu(g.inputs[0], approximate="tanh"))
        >>> (out,) = g.compile()(np.array([-1, 0, 1, 2], np.float32))
        >>> np.round(out, 4)
        array([-0.1588,  0.    ,  0.8412,  1.9546], dtype=float32)
    """
    if approximate not in _GELU:
        raise GraphError(f"gelu: invalid approximation method {approximate!r}; use one of {', '.join(_GELU)}")
    v = float_operand(x, "gelu")
    if approximate == "quick":
        return multiply(v, sigmoid(multiply(v, _const(v, 1.702))))
    if approximate == "tanh":
        cube = multiply(multiply(v, v), v)
        inner = multiply(add(v, multiply(cube, _const(v, 0.044715))), _const(v, math.sqrt(2 / math.pi)))
        gate = tanh(inner)
    else:
        gate = erf(multiply(v, _const(v, 1 / math.sqrt(2))))
    return multiply(multiply(v, _const(v, 0.5)), add(gate, _const(v, 1.0)))


def softmax(value: TensorValueLike, axis: int = -1) -> Value:
    """Softmax along ``axis``: ``exp(x - max) / sum(exp(x - max))`` (the maximum is subtracted for range).

    Args:
        value: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The axis to normalise; default -1.

    Returns:
        A value of ``value``'s shape, in ``value``'s dtype if it is a float, else in the float the
        policy gives its functions (float64 for int32 under ``jax``).

    Raises:
        GraphError: ``axis`` is not an axis of ``value``.
        PromotionError: The policy has no float for ``value``'s dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("softmax", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.softmax(g.inputs[0]))
        >>> (out,) = g.compile()(np.array([-1, 0, 1, 2], np.float32))
        >>> np.round(out, 4)
        array([0.0321, 0.0871, 0.2369, 0.6439], dtype=float32)
    """
    v = float_operand(value, "softmax")
    e = exp(subtract(v, max_along(v, axis=axis)))
    return divide(e, sum_along(e, axis))


def logsoftmax(value: TensorValueLike, axis: int = -1) -> Value:
    """Log-softmax along ``axis``: ``x - max - log(sum(exp(x - max)))``.

    Args:
        value: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        axis: The axis to normalise; default -1.

    Returns:
        A value of ``value``'s shape, in ``value``'s dtype if it is a float, else in the float the
        policy gives its functions (float64 for int32 under ``jax``).

    Raises:
        GraphError: ``axis`` is not an axis of ``value``.
        PromotionError: The policy has no float for ``value``'s dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("logsoftmax", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.logsoftmax(g.inputs[0]))
        >>> (out,) = g.compile()(np.array([-1, 0, 1, 2], np.float32))
        >>> np.round(out, 4)
        array([-3.4402, -2.4402, -1.4402, -0.4402], dtype=float32)
    """
    v = float_operand(value, "logsoftmax")
    shifted = subtract(v, max_along(v, axis=axis))
    return subtract(shifted, log(sum_along(exp(shifted), axis)))


def _norm_parameter(p: TensorValueLike, v: Value, name: str) -> Value:
    """``gamma`` or ``beta`` in the input's dtype (MAX: the result has the input's dtype whatever the
    parameters'), checked against the normalised (last) axis."""
    g = graph_of(v, p)
    found = operand(p, g)
    if isinstance(found, Literal):
        return constant_value(g, found.value, v.storage)
    if found.rank and found.shape[-1] != v.shape[-1] and found.shape[-1] != 1:
        raise GraphError(f"layer_norm: {name} of shape {format_shape(found.shape)} does not match the last "
                         f"dimension of the input {format_shape(v.shape)}; give it {v.shape[-1]} elements")
    return found if found.storage is v.storage and not found.is_weak else found.cast(v.storage)


def layer_norm(input: TensorValueLike, gamma: TensorValueLike, beta: TensorValueLike, epsilon: Any) -> Value:
    """Layer normalisation over the last axis: ``(x - mean) / sqrt(var + epsilon) * gamma + beta``.

    ``var`` is without Bessel's correction; the result is computed in the input's dtype
    (MAX advises casting float16 to float32 first for stability).

    Args:
        input: The operand: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        gamma: The scale: a value, array or scalar with as many elements as the last axis (or 1),
            converted to the input's dtype.
        beta: The shift, as ``gamma``.
        epsilon: A positive number added to the variance.

    Returns:
        A value of the input's shape, in its dtype if it is a float, else in the policy's float.

    Raises:
        GraphError: The input has rank 0, ``epsilon`` is not a positive number, or ``gamma`` or
            ``beta`` does not match the last axis.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("layer_norm", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(ops.layer_norm(g.inputs[0], np.ones(4, np.float32), 0.0, 1e-5))
        >>> (out,) = g.compile()(np.array([-1, 0, 1, 2], np.float32))
        >>> np.round(out, 4)
        array([-1.3416, -0.4472,  0.4472,  1.3416], dtype=float32)
    """
    v = float_operand(input, "layer_norm")
    if v.rank == 0:
        raise GraphError("layer_norm normalises the last axis; a rank-0 value has none")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not epsilon > 0:
        raise GraphError(f"layer_norm: epsilon must be a positive number, not {epsilon!r}")
    scale, shift = _norm_parameter(gamma, v, "gamma"), _norm_parameter(beta, v, "beta")
    centered = subtract(v, mean(v, -1))
    variance = mean(multiply(centered, centered), -1)
    return add(multiply(multiply(centered, rsqrt(add(variance, _const(v, float(epsilon))))), scale), shift)
