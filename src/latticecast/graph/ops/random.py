"""MAX's ``max.graph.ops.random``: random tensors from a seed the graph carries, on ``stablehlo.rng_bit_generator``.

A graph's random ops draw from a seed set once with :func:`set_seed`: a Python int (fixed when the
graph is built) or a ``uint64[1]`` graph input of :func:`SeedType` (a new seed per run). Each op
reads the graph's current seed and moves it on by one (MAX's rotation), so two ops of one graph
differ and a graph run twice with one seed gives the same numbers.

Each op is one ``stablehlo.rng_bit_generator`` with the Threefry algorithm, whose state (``ui64[2]``)
is ``(seed, 0)``; its 32-bit words become floats in ``[0, 1)`` (the top 24 bits, exact in float32).
:func:`uniform` scales them to ``[lower, upper)``; :func:`gaussian` (also :func:`normal`) applies the
Box-Muller transform to two such draws. The numbers are not MAX's (MAX's kernels use another
generator): the same seed gives other values here, with the same distribution.

The generator's result has a static shape, so ``like`` must have static sizes here.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING

import numpy as np
from jaxlib.mlir.dialects import stablehlo

from ...promotion.device_ref import DeviceRef, DeviceRefLike
from ...promotion.dims import is_static
from ...promotion.dtypes import DType
from ...errors import GraphError
from ...promotion.tensor_type import TensorType
from ..current import current_graph
from ..value import TensorValueLike, Value
from .operands import as_value, constant_value, graph_of

if TYPE_CHECKING:
    from ..graph import Graph

__all__ = ["SeedType", "assert_scalar", "gaussian", "normal", "set_seed", "uniform"]

SEEDS: "weakref.WeakKeyDictionary[Graph, Value]" = weakref.WeakKeyDictionary()
"""Each graph's current seed (a ``uint64[1]`` value), set by :func:`set_seed` and moved on by each op."""


def SeedType(device: DeviceRefLike) -> TensorType:  # noqa: N802  # MAX's name: a factory of a type
    """The type of a seed given as a graph input: ``uint64[1]`` on ``device`` (MAX's ``ops.random.SeedType``).

    Args:
        device: The device of the input.

    Returns:
        ``TensorType(DType.uint64, [1], device)``.

    Example:
        >>> from latticecast.graph.ops.random import SeedType
        >>> from latticecast import DeviceRef
        >>> t = SeedType(DeviceRef.CPU())
        >>> t.dtype, list(t.shape), str(t.device)
        (DType.uint64, [Dim(1)], 'cpu:0')
    """
    return TensorType(DType.uint64, [1], device)


def assert_scalar(value: object) -> None:
    """Raise ``ValueError`` if ``value`` is an array or graph value with a non-empty shape.

    Args:
        value: A bound or parameter of a random op.

    Raises:
        GraphError: (a ``ValueError``) ``value`` is not a scalar.

    Example:
        >>> from latticecast.graph.ops.random import assert_scalar
        >>> import numpy as np
        >>> assert_scalar(np.zeros(2))
        Traceback (most recent call last):
        latticecast.errors.GraphError: Expected a scalar value, got shape [2]; ...
    """
    if isinstance(value, (np.ndarray, Value)) and value.shape:
        raise GraphError(f"Expected a scalar value, got shape {list(value.shape)}; give a Python number or a "
                         "rank-0 value")


def _normalize_seed(g: "Graph", seed: "int | Value") -> Value:
    from ..dtype_promotion import _promote_to_strong

    if isinstance(seed, int) and not isinstance(seed, bool):
        if not 0 <= seed < 2 ** 64:  # MAX's check (a uint64) before the constant is made
            _promote_to_strong(seed, DType.uint64, g.device)
        value = g.constant(np.asarray(seed, dtype=np.uint64), DType.uint64)
    else:
        value = as_value(seed, graph_of(seed))
    if value.dtype != DType.uint64:
        value = value.cast(DType.uint64)
    if value.rank == 0:
        value = value.reshape([1])
    if tuple(value.shape) != (1,):
        raise GraphError(f"Seed must be a scalar or rank-1 tensor with shape [1], got shape {list(value.shape)}; "
                         "give a Python int or a graph input of ops.random.SeedType(device)")
    return value


def set_seed(seed: "int | Value" = 0) -> None:
    """Set the seed the current graph's random ops draw from (MAX's ``ops.random.set_seed``).

    Args:
        seed: A Python int in ``[0, 2**64)``, or a graph value: ``uint64[1]`` (:func:`SeedType`), a ``uint64``
            scalar, or another dtype (converted to ``uint64``).

    Raises:
        GraphError: (a ``ValueError``) An int outside ``uint64``, or a value of another shape than ``[1]``.

    Example:
        >>> from latticecast.max import DType, DeviceRef, Graph, TensorType, ops
        >>> with Graph("r", input_types=[ops.random.SeedType(DeviceRef.CPU())]) as g:
        ...     ops.random.set_seed(g.inputs[0])
        ...     ops.random.uniform(TensorType(DType.float32, [2], DeviceRef.CPU())).shape
        [Dim(2)]
    """
    g = current_graph()
    SEEDS[g] = _normalize_seed(g, seed)


def _next_seed(g: "Graph") -> Value:
    seed = SEEDS.get(g)
    if seed is None:
        raise RuntimeError("No seed set! Set with `ops.random.set_seed` (ops.random.set_seed(0), or a graph input of "
                           "ops.random.SeedType(device))")
    SEEDS[g] = seed + 1
    return seed


def _static_shape(like: TensorType | Value, what: str) -> tuple[int, ...]:
    shape = tuple(like.shape)
    if not is_static(shape):
        raise GraphError(f"ops.random.{what}: like has shape {list(shape)}: stablehlo.rng_bit_generator makes a "
                         "result of static shape, so give like static sizes (rebind the value first)")
    return tuple(int(d) for d in shape)


def _unit(g: "Graph", seed: Value, shape: tuple[int, ...]) -> Value:
    """Floats in ``[0, 1)`` (float32, multiples of 2**-24) of ``shape``, from one ``rng_bit_generator``."""
    from .shape import concat
    state = concat([seed, constant_value(g, np.zeros(1, np.uint64), DType.uint64)])
    with g.context:
        attrs = {"rng_algorithm": stablehlo.RngAlgorithmAttr.get("THREE_FRY")}
    op = g._add_op("stablehlo.rng_bit_generator", [g.tc.tensor(DType.uint64, (2,)), g.tc.tensor(DType.uint32, shape)],
                   [state.ir], attrs)
    bits = Value(g, op.results[1], DType.uint32, shape)
    return (bits >> 8).cast(DType.float32) * float(2.0 ** -24)


def _accumulator(dtype: DType) -> DType:
    return DType.float64 if dtype == DType.float64 else DType.float32


def _placed(g: "Graph", value: Value, like: TensorType | Value) -> Value:
    """``value`` on ``like``'s device, where MAX puts a random op's result (the graph's when ``like`` names
    none)."""
    device = getattr(like, "device", None)
    return value if device is None else g.place(value, DeviceRef.parse(device))


def uniform(like: TensorType | Value, range: tuple[TensorValueLike, TensorValueLike] = (0, 1)) -> Value:  # noqa: A002  # MAX's parameter name
    """Values drawn uniformly from ``[lower, upper)`` with ``like``'s dtype and shape (MAX's
    ``ops.random.uniform``).

    Args:
        like: A :class:`~latticecast.TensorType` giving the dtype and (static) shape.
        range: ``(lower, upper)``, scalars that ``like``'s dtype holds (checked as MAX checks a Python
            number meeting that dtype).

    Returns:
        A value of ``like``'s dtype and shape. Integers are the floor of the scaled draw.

    Raises:
        RuntimeError: No seed is set (:func:`set_seed`).
        GraphError: (a ``ValueError``) A bound is not a scalar, or does not fit the dtype ("Unsafe cast"); or
            ``like`` has a symbolic dimension.

    Example:
        >>> import numpy as np
        >>> from latticecast.max import DType, DeviceRef, Graph, TensorType, ops
        >>> with Graph("u") as g:
        ...     ops.random.set_seed(7)
        ...     g.output(ops.random.uniform(TensorType(DType.float32, [10000], DeviceRef.CPU()), range=(2, 4)))
        >>> (x,) = g.compile()()
        >>> bool(2 <= x.min() and x.max() < 4 and abs(x.mean() - 3) < 0.05)
        True
    """
    from ..dtype_promotion import _promote_to_strong

    lower, upper = range
    assert_scalar(lower)
    assert_scalar(upper)
    g = current_graph()
    seed = _next_seed(g)
    dtype = DType.parse(like.dtype)
    lo = _promote_to_strong(lower, dtype, g.device)
    hi = _promote_to_strong(upper, dtype, g.device)
    shape = _static_shape(like, "uniform")
    accumulator = DType.float64 if dtype == DType.float64 or not dtype.is_float() else DType.float32
    lo_a, hi_a = lo.cast(accumulator), hi.cast(accumulator)
    drawn = lo_a + (hi_a - lo_a) * _unit(g, seed, shape).cast(accumulator)
    if not dtype.is_float():
        from .elementwise import floor
        drawn = floor(drawn)
    return _placed(g, drawn.cast(dtype), like)


def gaussian(like: TensorType | Value, mean: TensorValueLike = 0, std: TensorValueLike = 1) -> Value:
    """Values drawn from a normal distribution of ``mean`` and ``std`` with ``like``'s dtype and shape (MAX's
    ``ops.random.gaussian``, also ``normal``).

    The draws are made in float32 (float64 for a float64 ``like``) by the Box-Muller transform of two
    uniform draws, then rounded for a non-float dtype and converted.

    Args:
        like: A :class:`~latticecast.TensorType` giving the dtype and (static) shape.
        mean: The mean, a scalar (taken as float32, as MAX does).
        std: The standard deviation, a scalar.

    Returns:
        A value of ``like``'s dtype and shape.

    Raises:
        RuntimeError: No seed is set (:func:`set_seed`).
        GraphError: (a ``ValueError``) ``mean`` or ``std`` is not a scalar; ``like`` has a symbolic dimension.

    Example:
        >>> from latticecast.max import DType, DeviceRef, Graph, TensorType, ops
        >>> with Graph("n") as g:
        ...     ops.random.set_seed(0)
        ...     g.output(ops.random.gaussian(TensorType(DType.float32, [20000], DeviceRef.CPU()), mean=1.0, std=2.0))
        >>> (x,) = g.compile()()
        >>> bool(abs(x.mean() - 1) < 0.05 and abs(x.std() - 2) < 0.05)
        True
    """
    from ..dtype_promotion import _promote_to_strong
    from .elementwise import cos, log, round, sqrt

    assert_scalar(mean)
    assert_scalar(std)
    g = current_graph()
    seed = _next_seed(g)
    dtype = DType.parse(like.dtype)
    accumulator = _accumulator(dtype)
    mu = _promote_to_strong(mean, DType.float32, g.device).cast(accumulator)
    sigma = _promote_to_strong(std, DType.float32, g.device).cast(accumulator)
    shape = _static_shape(like, "gaussian")
    both = _unit(g, seed, (2, *shape)).cast(accumulator)
    u1, u2 = 1.0 - both[0], both[1]  # u1 in (0, 1]: its log is finite
    z = sqrt(log(u1) * -2.0) * cos(u2 * (2.0 * math.pi))
    drawn = mu + sigma * z
    if not dtype.is_float():
        drawn = round(drawn)
    return _placed(g, drawn.cast(dtype), like)


normal = gaussian
"""MAX's alias of :func:`gaussian`."""
