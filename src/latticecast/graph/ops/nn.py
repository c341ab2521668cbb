"""Neural-network ops as MAX names them: ``relu``, ``silu``, ``gelu``, ``softmax``, ``logsoftmax``,
``layer_norm``, ``rms_norm``, ``group_norm`` (``sigmoid`` is elementwise: ``stablehlo.logistic``).

Each is a composition of elementwise ops and reductions in one dtype: a float input
is computed in its own dtype (as MAX's kernels do; MAX says to cast float16 to float32
first for a stable ``layer_norm``; ``rms_norm`` and ``group_norm`` reduce half-precision floats in float32,
as MAX's kernels do, and give the input's dtype), an integer one in the float the policy gives its
functions (``softmax(int32)`` is float64 under JAX with x64; MAX would keep ``int32``,
which has no meaningful softmax). The constants inside an op (``0.5``, ``epsilon``) are
strong constants of that dtype, so no policy decides anything about them.
"""

from __future__ import annotations

import math

from ...promotion.dtypes import DType
from ...errors import GraphError
from ..value import TensorValueLike, Value
from .elementwise import (add, cast, divide, erf, exp, float_operand, log, maximum, multiply, rsqrt, sigmoid,
                          subtract, tanh)
from .operands import Literal, constant_value, graph_of, operand, unary_operand
from .reduction import max as max_along, mean, reduce_mean, sum as sum_along
from .shape import format_shape, reshape

__all__ = ["relu", "silu", "gelu", "softmax", "logsoftmax", "layer_norm", "rms_norm", "group_norm"]


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


def _norm_parameter(p: TensorValueLike, v: Value, name: str, what: str = "layer_norm") -> Value:
    """``gamma`` or ``beta`` in the input's dtype (MAX: the result has the input's dtype whatever the
    parameters'), checked against the normalised (last) axis."""
    g = graph_of(v, p)
    found = operand(p, g)
    if isinstance(found, Literal):
        return constant_value(g, found.value, v.storage)
    if found.rank and found.shape[0] != v.shape[-1]:
        raise GraphError(f"{what}: {name.capitalize()} size {found.shape[0]} does not match dimension of reduction "
                         f"{v.shape[-1]}: {name} of shape {format_shape(found.shape)} must have the size of the "
                         f"last axis of the input {format_shape(v.shape)}; give it {v.shape[-1]} elements")
    return found if found.storage is v.storage and not found.is_weak else found.cast(v.storage)


def layer_norm(input: TensorValueLike, gamma: TensorValueLike, beta: TensorValueLike, epsilon: float) -> Value:
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
    _check_epsilon(epsilon, "layer_norm")
    scale, shift = _norm_parameter(gamma, v, "gamma"), _norm_parameter(beta, v, "beta")
    centered = subtract(v, mean(v, -1))
    variance = mean(multiply(centered, centered), -1)
    return add(multiply(multiply(centered, rsqrt(add(variance, _const(v, float(epsilon))))), scale), shift)


def _check_epsilon(epsilon: object, what: str) -> None:
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not epsilon > 0:
        raise GraphError(f"{what}: epsilon must be positive: a number above 0, not {epsilon!r}")


def _reduced_in(v: Value) -> DType:
    """The dtype a normalisation reduces in: float32 for the half-precision floats, as MAX's kernels do."""
    return DType.float32 if v.storage.is_inexact and v.storage.bitwidth < 32 and not v.storage.is_complex \
        else v.storage


def rms_norm(input: TensorValueLike, weight: TensorValueLike, epsilon: float, weight_offset: float = 0.0,
             multiply_before_cast: bool = False) -> Value:
    """Root-mean-square normalisation over the last axis (MAX's ``ops.rms_norm``):
    ``x / sqrt(mean(x ** 2) + epsilon) * (weight + weight_offset)``.

    Half-precision inputs are reduced in float32. Llama's form (the defaults) casts the
    normalised input back to the input's dtype and then scales it; Gemma's
    (``weight_offset=1.0, multiply_before_cast=True``) scales in float32 and casts after.

    Args:
        input: The operand: a graph :class:`~latticecast.Value` (or a NumPy array).
        weight: The scale: a 1-D value whose shape is the input's last dimension, converted to the
            input's dtype (the reduction's, with ``multiply_before_cast``).
        epsilon: A positive number added to the mean of squares.
        weight_offset: Added to ``weight`` before scaling.
        multiply_before_cast: Scale before casting the normalised input back.

    Returns:
        A value of the input's shape, in its dtype if it is a float, else in the policy's float.

    Raises:
        GraphError: The input has rank 0, ``weight``'s shape is not the input's last dimension,
            or ``epsilon`` is not a positive number.
        PromotionError: The policy has no float for the input's dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("rms_norm", input_types=[TensorType(DType.float32, [1, 2])]) as g:
        ...     g.output(ops.rms_norm(g.inputs[0], np.ones(2, np.float32), epsilon=1e-6))
        >>> (out,) = g.compile()(np.array([[3, 4]], np.float32))
        >>> np.round(out, 4)
        array([[0.8485, 1.1314]], dtype=float32)
    """
    v = float_operand(input, "rms_norm")
    g = graph_of(v, weight)
    w = operand(weight, g)
    if v.rank == 0:
        raise GraphError("rms_norm normalises the last axis; a rank-0 value has none")
    if isinstance(w, Literal) or w.shape != v.shape[-1:]:
        shape = "a Python scalar" if isinstance(w, Literal) else f"shape {format_shape(w.shape)}"
        raise GraphError(f"RMSNorm: Could not apply weight of {shape} to input shape {format_shape(v.shape)}, "
                         f"weight shape must match the final input dimension ({format_shape(v.shape[-1:])})")
    _check_epsilon(epsilon, "rms_norm")
    if isinstance(weight_offset, bool) or not isinstance(weight_offset, (int, float)):
        raise GraphError(f"rms_norm: weight_offset must be a number, not {weight_offset!r}")
    acc = _reduced_in(v)
    x = cast(v, acc) if acc is not v.storage else v
    normed = multiply(x, rsqrt(add(mean(multiply(x, x), -1), constant_value(g, float(epsilon), acc))))
    scale_dtype = acc if multiply_before_cast else v.storage
    scale = cast(w, scale_dtype) if w.storage is not scale_dtype or w.is_weak else w
    if weight_offset:
        scale = add(scale, constant_value(g, float(weight_offset), scale_dtype))
    if multiply_before_cast:
        out = multiply(normed, scale)
        return cast(out, v.storage) if acc is not v.storage else out
    return multiply(cast(normed, v.storage) if acc is not v.storage else normed, scale)


def group_norm(input: TensorValueLike, gamma: TensorValueLike, beta: TensorValueLike, num_groups: int,
               epsilon: float) -> Value:
    """Group normalisation over the channel axis 1 (MAX's ``ops.group_norm``).

    The channels of an ``(N, C, ...)`` input are split into ``num_groups`` groups; each group's
    elements (its channels and every axis after them) are normalised to mean 0 and variance 1
    (without Bessel's correction, ``epsilon`` added to the variance), then scaled by ``gamma`` and
    shifted by ``beta`` per channel. Half-precision inputs are reduced in float32.

    Args:
        input: The operand, ``(batch, channels, ...)``: a graph :class:`~latticecast.Value`.
        gamma: The per-channel scale, ``(channels,)``.
        beta: The per-channel shift, ``(channels,)``.
        num_groups: How many groups the channels split into; it divides the channels.
        epsilon: A positive number added to each group's variance.

    Returns:
        A value of the input's shape, in its dtype if it is a float, else in the policy's float.

    Raises:
        GraphError: The input has fewer than 2 dimensions, ``num_groups`` does not divide the
            channels, ``gamma`` or ``beta`` is not ``(channels,)``, or ``epsilon`` is not positive.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("group_norm", input_types=[TensorType(DType.float32, [1, 4, 1, 1])]) as g:
        ...     one, zero = np.ones(4, np.float32), np.zeros(4, np.float32)
        ...     g.output(ops.group_norm(g.inputs[0], one, zero, num_groups=2, epsilon=1e-5))
        >>> (out,) = g.compile()(np.array([1, 3, 1, 3], np.float32).reshape(1, 4, 1, 1))
        >>> np.round(out.ravel(), 3)
        array([-1.,  1., -1.,  1.], dtype=float32)
    """
    v = float_operand(input, "group_norm")
    if v.rank < 2:
        raise GraphError(f"Expected input tensor with >=2 dimensions, got shape {format_shape(v.shape)}")
    channels = v.shape[1]
    if isinstance(num_groups, bool) or not isinstance(num_groups, int) or num_groups < 1:
        raise GraphError(f"group_norm: num_groups={num_groups!r} must be a positive integer")
    if not isinstance(channels, int) or channels % num_groups:
        raise GraphError(f"group_norm: {num_groups} groups do not divide the {channels} channels of "
                         f"{format_shape(v.shape)}; choose num_groups that divides the channel axis (axis 1)")
    _check_epsilon(epsilon, "group_norm")
    g = graph_of(v, gamma, beta)
    params = []
    for name, p in (("gamma", gamma), ("beta", beta)):
        found = operand(p, g)
        if isinstance(found, Literal) or found.shape != (channels,):
            shape = "a Python scalar" if isinstance(found, Literal) else f"shape {format_shape(found.shape)}"
            raise GraphError(f"group_norm: {name} of {shape} must be ({channels},), one value per channel")
        params.append(found)
    acc = _reduced_in(v)
    x = cast(v, acc) if acc is not v.storage else v
    grouped = reshape(x, [v.shape[0], num_groups, -1])
    centered = subtract(grouped, reduce_mean(grouped, -1, keepdims=True))
    variance = reduce_mean(multiply(centered, centered), -1, keepdims=True)
    normed = reshape(multiply(centered, rsqrt(add(variance, constant_value(g, float(epsilon), acc)))), v.shape)
    per_channel = (channels,) + (1,) * (v.rank - 2)
    scale, shift = (reshape(cast(p, acc), per_channel) for p in params)
    out = add(multiply(normed, scale), shift)
    return cast(out, v.storage) if acc is not v.storage else out
