"""``shard``: a sharding constraint on a value (``jax.lax.with_sharding_constraint`` over the graph's mesh)."""

from __future__ import annotations

from typing import Any

from ...errors import GraphError
from ..value import TensorValueLike, Value
from .operands import unary_operand

__all__ = ["shard", "shard_and_stack"]


def shard(x: TensorValueLike, spec: Any) -> Value:
    """``x`` laid out over the graph's mesh as ``spec`` says (``jax.lax.with_sharding_constraint``).

    It emits ``sdy.sharding_constraint``: the partitioner puts the value in that layout here and
    propagates it to its neighbours. The value is unchanged; a weakly typed one (a Python literal)
    takes its stored dtype, as a value leaving the promoted ops does. ``P.UNCONSTRAINED`` leaves a
    dimension to the partitioner, and dimensions need not divide evenly (XLA pads the last tile).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array, taken as a constant).
        spec: A ``jax.sharding.PartitionSpec`` over the axes of the graph's mesh.

    Returns:
        ``x``'s values, of its dtype and shape, constrained to the layout.

    Raises:
        GraphError: The graph has no mesh (``Graph(..., mesh=...)``), or ``spec`` does not fit
            ``x`` or the mesh.

    Example:
        >>> import jax
        >>> import numpy as np
        >>> from jax.sharding import Mesh, PartitionSpec as P
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
        >>> with Graph("shard", input_types=[TensorType(DType.float32, [4, 2])], mesh=mesh) as g:
        ...     g.output(ops.shard(g.inputs[0] * 2, P("x", None)))
        >>> g.compile()(np.ones((4, 2), np.float32))[0].shape
        (4, 2)
    """
    v = unary_operand(x, "shard")
    g = v.graph
    if g.layout is None:
        raise GraphError(f"shard: graph {g.name!r} has no mesh to shard over; pass "
                         f"Graph(..., mesh=jax.sharding.Mesh(...))")
    with g.context:
        attr = g.layout.sharding(spec, v.shape, "shard", boundary=False)
    op = g._add_op("sdy.sharding_constraint", [v.ir.type], [v.ir], {"sharding": attr})
    return Value(g, op.result, v.storage, v.shape, storage=v.storage)


def _max_shape(shape: Any) -> str:
    """A shape as MAX prints one: ``[Dim(10), Dim('batch')]``."""
    from ...dims import StaticDim
    return "[" + ", ".join(repr(StaticDim(d)) if isinstance(d, int) else repr(d) for d in shape) + "]"


def shard_and_stack(inputs: Any, devices: Any, axis: int = 0) -> list[Value]:
    """Split each input along ``axis`` into ``len(devices)`` equal pieces and stack piece ``i`` of every input
    into output ``i`` (MAX's ``ops.shard_and_stack``: tensor-parallel weight layout).

    Output ``i`` is ``stack([x[..., i*k:(i+1)*k, ...] for x in inputs])``, of shape ``[len(inputs), *shape]`` with
    ``axis`` divided by ``len(devices)``: a ``concatenate`` of the inputs and one ``slice`` per device. MAX puts
    output ``i`` on ``devices[i]``; latticecast compiles a graph for one device, so every device must be the
    graph's (use a graph over a mesh and ``ops.shard`` to place pieces on several devices).

    Args:
        inputs: Values of one dtype and shape, on the host.
        devices: One device per output (the graph's device).
        axis: The axis to split (negative counts from the end).

    Returns:
        ``len(devices)`` values.

    Raises:
        GraphError: (a ``ValueError``) No inputs or devices, inputs of different shapes or dtypes, an axis size
            that ``len(devices)`` does not divide (or a symbolic one split in several), or a device other
            than the graph's.
        AxisError: (an ``IndexError``) ``axis`` is out of range.

    Example:
        >>> import numpy as np
        >>> from latticecast.max import DType, DeviceRef, Graph, TensorType, ops
        >>> t = TensorType(DType.float32, [4, 2])
        >>> with Graph("ss", input_types=[t, t]) as g:
        ...     g.output(*ops.shard_and_stack(list(g.inputs), [DeviceRef.CPU()] * 2))
        >>> a, b = np.arange(8, dtype=np.float32).reshape(4, 2), -np.ones((4, 2), np.float32)
        >>> [o.shape for o in g.compile()(a, b)]
        [(2, 2, 2), (2, 2, 2)]
    """
    from ...device_ref import DeviceRef
    from ...errors import AxisError
    from .operands import as_value, graph_of
    from .shape import concat

    inputs = list(inputs)
    devices = list(devices)
    if not inputs:
        raise GraphError("Must provide at least one input tensor. (shard_and_stack splits and stacks its inputs)")
    if not devices:
        raise GraphError("Must provide at least one device. (one output per device)")
    g = graph_of(*inputs)
    values = [as_value(x, g) for x in inputs]
    first = values[0]
    for i, v in enumerate(values[1:], 1):
        if v.dtype != first.dtype:
            raise GraphError(f"All input tensors must have the same dtype. Input 0 has dtype {first.dtype.name}, but "
                             f"input {i} has dtype {v.dtype.name}; cast them to one dtype first")
        if tuple(v.shape) != tuple(first.shape):
            raise GraphError(f"All input tensors must have the same shape. Input 0 has shape "
                             f"{_max_shape(first.shape)}, but input {i} has shape {_max_shape(v.shape)}")
    rank = first.rank
    if isinstance(axis, bool) or not isinstance(axis, int) or not -rank <= axis < rank:
        raise AxisError(f"Axis must be in range [-{rank}, {rank}), got {axis}")
    axis = axis % rank
    for device in devices:
        if DeviceRef.parse(device) != g.device:
            raise GraphError(f"shard_and_stack onto {DeviceRef.parse(device)}: graph {g.name!r} runs on {g.device}, "
                             "and latticecast compiles a graph for one device; give the graph's device, or shard "
                             "over a mesh (Graph(..., mesh=...) and ops.shard)")
    size, n = first.shape[axis], len(devices)
    if isinstance(size, int):
        if size % n:
            raise GraphError(f"Dimension size along axis {axis} ({size}) must be evenly divisible by number of "
                             f"devices ({n})")
    elif n > 1:
        raise GraphError(f"shard_and_stack: axis {axis} is symbolic ({size}); its pieces would have an algebraic size "
                         "(MAX's batch // n), which latticecast does not support: rebind it to a size first")
    stacked = concat([v.reshape([1, *v.shape]) for v in values], axis=0)
    if n == 1:
        return [stacked]
    assert isinstance(size, int)
    chunk = size // n
    index: list[slice] = [slice(None)] * (rank + 1)
    outputs = []
    for i in range(n):
        index[axis + 1] = slice(i * chunk, (i + 1) * chunk)
        outputs.append(stacked[tuple(index)])
    return outputs
