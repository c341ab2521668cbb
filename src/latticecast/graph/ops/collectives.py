"""MAX's multi-device collectives over the graph's mesh: ``allgather``, ``allreduce.sum``, ``reducescatter.sum``,
``distributed_broadcast``.

MAX writes a multi-device program per device: ``inputs[i]`` lives on device ``i``, and a
collective returns one value per device. A latticecast graph over a mesh
(``Graph(..., mesh=...)``) is one program for all of the mesh's devices (SPMD, as ``jax.jit``'s),
so the ``i``-th input is the ``i``-th shard of one value split over every mesh axis: the
inputs are stacked on a new leading axis that is sharded over the mesh (``sdy.sharding_constraint``),
the collective is computed in that global view, and its result is constrained to the layout MAX
gives it (replicated for ``allgather`` and ``allreduce``, split along ``axis`` for
``reducescatter``). XLA's partitioner turns each change of layout into collectives. Where the
inputs are the shards of a sharded value (``x[8 * i:8 * i + 8]`` of an input sharded over the
mesh), XLA's CPU backend compiles ``allgather`` to ``all-gather``, and ``allreduce.sum`` and
``reducescatter.sum`` to ``all-reduce`` (and then slices); measured in ``tests/test_collectives.py``.
Inputs that are whole graph inputs are replicated on every device already, and need none. The per-device results come back as MAX's
list: every element of ``allgather``'s and ``allreduce``'s is the one replicated value, and
``reducescatter``'s ``i``-th is the ``i``-th slice.

``signal_buffers`` are MAX's GPU synchronisation buffers; StableHLO's collectives need none, so
they are only counted (one per input, as MAX checks). ``group_size`` splits the devices into
contiguous groups that each run the collective on their own inputs.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Iterable

from ...errors import GraphError
from ..value import TensorValueLike, Value
from .operands import Literal, graph_of, operand
from .reduction import reduce_sum
from .shape import concat, format_shape, normalize_axis, stack
from .sharding import shard

__all__ = ["allgather", "allreduce", "reducescatter", "allreduce_sum", "reducescatter_sum", "distributed_broadcast"]


def _inputs(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[Any], group_size: int | None,
            what: str) -> tuple[list[Value], int]:
    """The inputs as values of one graph over a mesh, one per device, and the group size (MAX's checks)."""
    values = list(inputs)
    buffers = list(signal_buffers)
    if len(values) != len(buffers):
        raise GraphError(f"expected number of inputs ({len(values)}) and number of signal buffers ({len(buffers)}) "
                         "to match")
    if not values:
        raise GraphError(f"{what} needs one input per device, not none")
    g = graph_of(*values)
    found = [operand(v, g) for v in values]
    if any(isinstance(v, Literal) for v in found):
        raise GraphError(f"{what} takes tensors, one per device, not Python scalars")
    tensors: list[Value] = [v for v in found if isinstance(v, Value)]
    if g.layout is None:
        raise GraphError(f"{what} runs over the graph's devices, and graph {g.name!r} has no mesh; pass "
                         f"Graph(..., mesh=jax.make_mesh(({len(tensors)},), ('devices',), "
                         "axis_types=(jax.sharding.AxisType.Auto,))): input i is then the shard on device i")
    if len(tensors) != g.layout.size:
        raise GraphError(f"{what}: {len(tensors)} inputs for a mesh of {g.layout.size} devices "
                         f"{g.layout.describe()}; give one input per device")
    size = group_size or len(tensors)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise GraphError(f"{what} operation requires group_size to be at least 1. Got: group_size={group_size!r}")
    if len(tensors) % size:
        raise GraphError(f"{what} operation requires group_size to evenly divide the number of input tensors. "
                         f"Got: group_size={size} and num_devices={len(tensors)}")
    dtypes = {v.storage for v in tensors}
    if len(dtypes) > 1 or any(v.is_weak for v in tensors):
        raise GraphError(f"{what} operation must have the same dtype across all input tensors (strongly typed). "
                         f"Got: {', '.join(sorted(d.name for d in dtypes))}")
    return tensors, size


def _over_devices(tensors: list[Value]) -> Value:
    """The inputs stacked on a new leading axis that is split over every mesh axis: input i on device i."""
    g = tensors[0].graph
    assert g.layout is not None
    from jax.sharding import PartitionSpec as P

    return shard(stack(tensors, 0), P(g.layout.names))


def _same_shapes(group: list[Value], what: str, except_axis: int | None = None) -> None:
    first = group[0].shape
    for v in group[1:]:
        if len(v.shape) != len(first) or any(a != b for i, (a, b) in enumerate(zip(v.shape, first))
                                             if i != except_axis):
            raise GraphError(f"{what} operation must have the same shape across all input tensors in each group"
                             f"{'' if except_axis is None else ' (except the concatenation dimension)'}. Got: "
                             f"{', '.join(format_shape(t.shape) for t in group)}")


def _split_over_devices(v: Value, axis: int) -> Value:
    g = v.graph
    assert g.layout is not None
    from jax.sharding import PartitionSpec as P

    return shard(v, P(*([None] * axis), g.layout.names))


def _replicated(v: Value) -> Value:
    from jax.sharding import PartitionSpec as P

    return shard(v, P())


def allgather(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[Any], axis: int = 0,
              group_size: int | None = None) -> list[Value]:
    """Every device's input, concatenated along ``axis``, on every device (MAX's ``ops.allgather``).

    Args:
        inputs: One tensor per device of the graph's mesh, in the mesh's device order.
        signal_buffers: MAX's synchronisation buffers, one per input (not used by StableHLO).
        axis: The axis to concatenate along.
        group_size: Devices per independent group (contiguous); default all of them.

    Returns:
        One value per device: the concatenation of its group's inputs, replicated.

    Raises:
        GraphError: The graph has no mesh, the inputs are not one per device, the counts, dtypes or
            shapes differ, ``group_size`` does not divide them, or ``axis`` is out of range.

    Example:
        >>> import jax
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> mesh = jax.make_mesh((1,), ("d",), axis_types=(jax.sharding.AxisType.Auto,), devices=jax.devices()[:1])
        >>> with Graph("allgather", input_types=[TensorType(DType.float32, [2])], mesh=mesh) as g:
        ...     g.output(*ops.allgather(g.inputs, [None]))
        >>> g.compile()(np.ones(2, np.float32))[0].tolist()
        [1.0, 1.0]
    """
    tensors, size = _inputs(inputs, signal_buffers, group_size, "allgather")
    if size == 1:
        return tensors
    rank = tensors[0].rank
    if not -rank <= axis < rank:
        raise GraphError(f"Dimension out of range {rank}, axis={axis}")
    axis = normalize_axis(axis, rank, "allgather")
    _over_devices(tensors)
    out: list[Value] = []
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        _same_shapes(group, "allgather", axis)
        gathered = _replicated(concat(group, axis))
        out.extend([gathered] * size)
    return out


def allreduce_sum(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[Any],
                  group_size: int | None = None) -> list[Value]:
    """The sum of every device's input, on every device (MAX's ``ops.allreduce.sum``).

    Args:
        inputs: One tensor per device of the graph's mesh, of one shape and dtype.
        signal_buffers: MAX's synchronisation buffers, one per input (not used by StableHLO).
        group_size: Devices per independent group (contiguous); default all of them.

    Returns:
        One value per device: the sum of its group's inputs, replicated.

    Raises:
        GraphError: The graph has no mesh, the inputs are not one per device, the counts, dtypes
            or shapes differ, or ``group_size`` does not divide them.

    Example:
        >>> import jax
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> mesh = jax.make_mesh((1,), ("d",), axis_types=(jax.sharding.AxisType.Auto,), devices=jax.devices()[:1])
        >>> with Graph("allreduce", input_types=[TensorType(DType.float32, [2])], mesh=mesh) as g:
        ...     g.output(*ops.allreduce.sum(g.inputs, [None]))
        >>> g.compile()(np.ones(2, np.float32))[0].tolist()
        [1.0, 1.0]
    """
    tensors, size = _inputs(inputs, signal_buffers, group_size, "allreduce.sum")
    stacked = _over_devices(tensors)
    out: list[Value] = []
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        _same_shapes(group, "allreduce.sum")
        part = stacked if size == len(tensors) else stack(group, 0)
        total = _replicated(reduce_sum(part, 0))
        out.extend([total] * size)
    return out


def reducescatter_sum(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[Any], axis: int = 0,
                      group_size: int | None = None) -> list[Value]:
    """The sum of every device's input, split along ``axis``: slice ``i`` on device ``i``
    (MAX's ``ops.reducescatter.sum``).

    Args:
        inputs: One tensor per device of the graph's mesh, of one shape and dtype.
        signal_buffers: MAX's synchronisation buffers, one per input (not used by StableHLO).
        axis: The axis to split the sum along; its size must divide by the group size.
        group_size: Devices per independent group (contiguous); default all of them.

    Returns:
        One value per device: its slice of its group's sum.

    Raises:
        GraphError: The graph has no mesh, the inputs are not one per device, the counts, dtypes
            or shapes differ, ``group_size`` does not divide them or the axis, or ``axis`` is out
            of range.

    Example:
        >>> import jax
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> mesh = jax.make_mesh((1,), ("d",), axis_types=(jax.sharding.AxisType.Auto,), devices=jax.devices()[:1])
        >>> with Graph("reducescatter", input_types=[TensorType(DType.float32, [2])], mesh=mesh) as g:
        ...     g.output(*ops.reducescatter.sum(g.inputs, [None]))
        >>> g.compile()(np.ones(2, np.float32))[0].tolist()
        [1.0, 1.0]
    """
    tensors, size = _inputs(inputs, signal_buffers, group_size, "reducescatter.sum")
    rank = tensors[0].rank
    if not -rank <= axis < rank:
        raise GraphError(f"Dimension out of range {rank}, axis={axis}")
    axis = normalize_axis(axis, rank, "reducescatter.sum")
    length = tensors[0].shape[axis]
    if not isinstance(length, int) or length % size:
        raise GraphError(f"reducescatter.sum: axis {axis} of {format_shape(tensors[0].shape)} does not split "
                         f"evenly over {size} devices; give it a multiple of {size} elements")
    stacked = _over_devices(tensors)
    out: list[Value] = []
    chunk = length // size
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        _same_shapes(group, "reducescatter.sum")
        total = reduce_sum(stacked if size == len(tensors) else stack(group, 0), 0)
        if size == len(tensors):  # the sum split along axis over the mesh: a reduce-scatter
            total = _split_over_devices(total, axis)
        for i in range(size):
            index: list[Any] = [slice(None)] * rank
            index[axis] = slice(i * chunk, (i + 1) * chunk)
            out.append(total[tuple(index)])
    return out


def distributed_broadcast(input: TensorValueLike, signal_buffers: Iterable[Any]) -> list[Value]:
    """``input`` on every device of the graph's mesh (MAX's ``ops.distributed_broadcast``).

    Args:
        input: The tensor to broadcast.
        signal_buffers: MAX's synchronisation buffers, one per device of the mesh (not used by StableHLO).

    Returns:
        One value per device: ``input``, replicated.

    Raises:
        GraphError: The graph has no mesh, or there is not one signal buffer per device.

    Example:
        >>> import jax
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> mesh = jax.make_mesh((1,), ("d",), axis_types=(jax.sharding.AxisType.Auto,), devices=jax.devices()[:1])
        >>> with Graph("broadcast", input_types=[TensorType(DType.float32, [2])], mesh=mesh) as g:
        ...     g.output(*ops.distributed_broadcast(g.inputs[0], [None]))
        >>> g.compile()(np.ones(2, np.float32))[0].tolist()
        [1.0, 1.0]
    """
    g = graph_of(input)
    v = operand(input, g)
    if isinstance(v, Literal):
        raise GraphError("distributed_broadcast takes a tensor, not a Python scalar")
    buffers = list(signal_buffers)
    if g.layout is None:
        raise GraphError(f"distributed_broadcast runs over the graph's devices, and graph {g.name!r} has no mesh; "
                         "pass Graph(..., mesh=jax.make_mesh(...))")
    if len(buffers) != g.layout.size:
        raise GraphError(f"distributed_broadcast: {len(buffers)} signal buffers for a mesh of {g.layout.size} "
                         f"devices {g.layout.describe()}; give one per device")
    replicated = _replicated(v)
    return [replicated] * len(buffers)


allreduce = SimpleNamespace(sum=allreduce_sum)
"""MAX's ``ops.allreduce`` module: ``allreduce.sum(inputs, signal_buffers, group_size=None)``."""
reducescatter = SimpleNamespace(sum=reducescatter_sum)
"""MAX's ``ops.reducescatter`` module: ``reducescatter.sum(inputs, signal_buffers, axis=0, group_size=None)``."""
