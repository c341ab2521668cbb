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
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence, cast

from ...promotion.device_ref import DeviceRef, DeviceRefLike
from ...promotion.dims import SymbolicDim
from ...errors import AxisError, GraphError
from .external import _max_type, check_same_device
from ..value import TensorValueLike, Value
from .operands import Literal, graph_of, operand
from .reduction import reduce_sum
from .shape import concat, format_shape, normalize_axis, stack, unsqueeze
from .sharding import shard

if TYPE_CHECKING:
    from ..graph import Graph

class _SignalBuffer(Protocol):
    """What MAX's multi-device collectives read of a signal buffer (a :class:`~latticecast.graph.value.BufferValue`
    of :class:`latticecast.max.nn.Signals`): its device."""

    @property
    def device(self) -> object: ...


__all__ = ["allgather", "allreduce", "reducescatter", "allreduce_sum", "reducescatter_sum", "distributed_broadcast",
           "distributed_scatter", "shard_and_stack"]


def _inputs(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object], group_size: int | None,
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


def _mesh_allgather(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object], axis: int = 0,
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


def _mesh_allreduce_sum(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object],
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


def _mesh_reducescatter_sum(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object], axis: int = 0,
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
            index: list[slice] = [slice(None)] * rank
            index[axis] = slice(i * chunk, (i + 1) * chunk)
            out.append(total[tuple(index)])
    return out


def _mesh_distributed_broadcast(input: TensorValueLike, signal_buffers: Iterable[object]) -> list[Value]:
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


# -- MAX's multi-device graphs: one value per device, no mesh ------------------------------------------


def _shape_text(shape: Iterable["int | SymbolicDim"]) -> str:
    return "[" + ", ".join(f"Dim({d.name!r})" if not isinstance(d, int) else f"Dim({d})" for d in shape) + "]"


def _per_device(inputs: Sequence[TensorValueLike], g: "Graph", what: str) -> list[Value]:
    """``inputs`` as graph values (a NumPy array becomes a constant; a Python scalar is refused)."""
    out: list[Value] = []
    for x in inputs:
        v = operand(x, g)
        if isinstance(v, Literal):
            raise GraphError(f"{what} takes tensors, one per device, not the Python scalar {x!r}; make it one with "
                             "ops.constant(value, dtype, device)")
        out.append(v)
    return out


def _count(inputs: Sequence[object], buffers: Sequence[object]) -> None:
    if len(inputs) != len(buffers):
        raise GraphError(f"expected number of inputs ({len(inputs)}) and number of signal buffers ({len(buffers)}) "
                         "to match (one signal buffer per input's device: Signals(devices).input_types())")


def _group_size(group_size: int | None, n: int, what: str) -> int:
    size = group_size or n
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise GraphError(f"{what} operation requires group_size to be at least 1. Got: group_size={group_size!r}")
    if n % size:
        raise GraphError(f"{what} operation requires group_size to evenly divide the number of input tensors. "
                         f"Got: group_size={size} and num_devices={n}")
    return size


def _unique(devices: list[DeviceRef], what: str, across: str = "its input tensors") -> None:
    if len(set(devices)) < len(devices):
        raise GraphError(f"{what} operation must have unique devices across {across}. Got: devices={devices} "
                         "(give each input its own device)")


def _listing(values: list[Value]) -> str:
    return "[" + ", ".join(_max_type(v) for v in values) + "]"


def _on(values: list[Value], device: DeviceRef) -> list[Value]:
    """The values moved to ``device``: a collective's data movement, in the program's view."""
    return [v.graph.place(v, device) for v in values]


def _allgather(values: Sequence[TensorValueLike], buffers: Sequence[object], axis: int, group_size: int | None) -> list[Value]:
    _count(values, buffers)
    if not values:
        return []
    g = graph_of(*values)
    tensors = _per_device(values, g, "allgather")
    size = _group_size(group_size, len(tensors), "allgather")
    if size == 1:
        return tensors
    rank = tensors[0].rank
    if any(v.rank != rank for v in tensors):
        raise GraphError(f"allgather operation must have the same rank across all input tensors. Got: "
                         f"inputs={_listing(tensors)}")
    if any(v.storage is not tensors[0].storage for v in tensors):
        raise GraphError(f"allgather operation must have the same dtype across all input tensors. Got: "
                         f"inputs={_listing(tensors)} (cast them to one dtype first)")
    devices = [v.device for v in tensors]
    _unique(devices, "allgather")
    if not -rank <= axis < rank:
        raise AxisError(f"Dimension out of range {rank}, axis={axis} (give an axis in [-{rank}, {rank}))")
    axis = axis + rank if axis < 0 else axis
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        if any(v.shape[i] != d for v in group for i, d in enumerate(group[0].shape) if i != axis):
            raise GraphError("allgather operation inputs must have the same shape in all dimensions except the "
                             f"concatenation dimension within each group. inputs={_listing(tensors)}")
    out: list[Value] = []
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        gathered = concat(_on(group, group[0].device), axis)
        out.extend(g.place(gathered, v.device) for v in group)
    return out


def _allreduce(values: Sequence[TensorValueLike], buffers: Sequence[object], group_size: int | None) -> list[Value]:
    _count(values, buffers)
    if not values:
        return []
    g = graph_of(*values)
    tensors = _per_device(values, g, "allreduce.sum")
    devices = [v.device for v in tensors]
    size = _group_size(group_size, len(tensors), "allreduce.sum")
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        if any(v.shape != group[0].shape for v in group):
            raise GraphError(f"allreduce.sum operation must have the same shape across all input tensors in each "
                             f"group. Got: inputs={_listing(tensors)}")
    if any(v.storage is not tensors[0].storage for v in tensors):
        raise GraphError(f"allreduce.sum operation must have the same dtype across all input tensors. Got: "
                         f"inputs={_listing(tensors)} (cast them to one dtype first)")
    _unique(devices, "allreduce.sum")
    out: list[Value] = []
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        total = reduce_sum(stack(_on(group, group[0].device), 0), 0) if size > 1 else group[0]
        out.extend(g.place(total, v.device) for v in group)
    return out


def _reducescatter(values: Sequence[TensorValueLike], buffers: Sequence[object], axis: int, group_size: int | None) -> list[Value]:
    _count(values, buffers)
    if not values:
        raise GraphError("reducescatter.sum operation requires at least one input")
    g = graph_of(*values)
    tensors = _per_device(values, g, "reducescatter.sum")
    devices = [v.device for v in tensors]
    size = _group_size(group_size, len(tensors), "reducescatter.sum")
    if any(v.storage is not tensors[0].storage for v in tensors):
        raise GraphError(f"reducescatter.sum operation must have the same dtype across all input tensors. Got: "
                         f"inputs={_listing(tensors)} (cast them to one dtype first)")
    rank = tensors[0].rank
    if any(v.rank != rank for v in tensors):
        raise GraphError(f"reducescatter.sum operation must have the same rank across all input tensors. Got: "
                         f"inputs={_listing(tensors)}")
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        if any(v.shape != group[0].shape for v in group):
            raise GraphError(f"reducescatter.sum operation must have the same shape across all input tensors in "
                             f"each group. Got: inputs={_listing(tensors)}")
    _unique(devices, "reducescatter.sum")
    if axis < 0:
        axis += rank
    if axis < 0 or axis >= rank:
        raise GraphError(f"axis {axis} is out of bounds for tensor with rank {rank} (give an axis in "
                         f"[-{rank}, {rank}))")
    length = tensors[0].shape[axis]
    if not isinstance(length, int):
        raise GraphError(f"reducescatter.sum along axis {axis} of {format_shape(tensors[0].shape)}: latticecast "
                         "splits a static axis only (StableHLO slices have static bounds); rebind it to a size "
                         "first (x.rebind([...]))")
    # as MAX: rank r of a group gets ceil((length - r) / size) rows, the first ranks one more when ragged
    sizes = [(length + size - r - 1) // size for r in range(size)]
    out: list[Value] = []
    for start in range(0, len(tensors), size):
        group = tensors[start:start + size]
        total = reduce_sum(stack(_on(group, group[0].device), 0), 0) if size > 1 else group[0]
        offset = 0
        for r, v in enumerate(group):
            index: list[slice] = [slice(None)] * rank
            index[axis] = slice(offset, offset + sizes[r])
            offset += sizes[r]
            out.append(g.place(total[tuple(index)], v.device))
    return out


def _broadcast(input: TensorValueLike, buffers: Sequence[object]) -> list[Value]:
    g = graph_of(input)
    v = _per_device([input], g, "distributed_broadcast")[0]
    if not buffers:
        raise GraphError("distributed_broadcast requires at least 1 signal buffer (one per device to broadcast "
                         "to: Signals(devices).input_types())")
    # Off a mesh, each must be a signal buffer (one with a device), as in MAX; on one they are only counted.
    devices = [DeviceRef.parse(cast(_SignalBuffer, b).device) for b in buffers]
    if v.device not in devices:
        raise GraphError(f"input tensor device {v.device} not found in signal buffer devices: {devices} (the "
                         "input's device is the broadcast's root: give it a signal buffer)")
    if len(set(devices)) < len(devices):
        raise GraphError(f"distributed_broadcast requires unique devices across signal buffers. Got: "
                         f"devices={devices}")
    return [g.place(v, d) for d in devices]


def distributed_scatter(input_chunks: Iterable[TensorValueLike], signal_buffers: Iterable[_SignalBuffer]) -> list[Value]:
    """One chunk per data-parallel replica, sent from the root device to every device (MAX's
    ``ops.distributed_scatter``).

    The chunks all live on the root device; with ``len(signal_buffers)`` devices and ``len(input_chunks)``
    replicas, each replica has ``ceil(devices / replicas)`` devices, which all get its chunk (the
    last replica takes the devices left over).

    Args:
        input_chunks: The chunks, one per replica, all on one device (the root).
        signal_buffers: One signal buffer per device (:class:`latticecast.max.nn.Signals`); their
            devices are the ones the chunks go to, in order.

    Returns:
        One value per device: its replica's chunk, on that device.

    Raises:
        GraphError: There are no chunks, they are on different devices, the signal buffers' devices
            repeat, or the root device has no signal buffer.

    Example:
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> from latticecast.max.nn import Signals
        >>> devices = [DeviceRef.GPU(i) for i in range(4)]
        >>> types = [TensorType(DType.int32, [5], devices[0])] * 2 + Signals(devices).input_types()
        >>> with Graph("scatter", input_types=types) as g:
        ...     out = ops.distributed_scatter(g.inputs[:2], [b.buffer for b in g.inputs[2:]])
        >>> [v.device for v in out]
        [gpu:0, gpu:1, gpu:2, gpu:3]
    """
    chunks = list(input_chunks)
    buffers = list(signal_buffers)
    if not chunks:
        raise GraphError("distributed_scatter requires at least 1 input chunk. Got: 0")
    g = graph_of(*chunks)
    values = _per_device(chunks, g, "distributed_scatter")
    root = values[0].device
    for i, v in enumerate(values):
        if v.device != root:
            raise GraphError(f"All input chunks must be on the same device. Chunk 0 is on {root}, but chunk {i} is "
                             f"on {v.device} (transfer them to the root device first)")
    devices = [DeviceRef.parse(b.device) for b in buffers]
    if len(set(devices)) < len(devices):
        raise GraphError(f"distributed_scatter requires unique devices across signal buffers. Got: devices={devices}")
    if root not in devices:
        raise GraphError(f"input chunk device {root} not found in signal buffer devices: {devices} (the chunks' "
                         "device is the root: give it a signal buffer)")
    replica = -(-len(devices) // len(values))
    return [g.place(values[min(i // replica, len(values) - 1)], d) for i, d in enumerate(devices)]


def shard_and_stack(inputs: Sequence[TensorValueLike], devices: Sequence[DeviceRefLike], axis: int = 0) -> list[Value]:
    """Each input split into ``len(devices)`` chunks along ``axis``; output ``i`` stacks the ``i``-th chunks
    of all inputs on a new axis 0, on ``devices[i]`` (MAX's ``ops.shard_and_stack``, for distributing
    weights over tensor-parallel devices).

    Args:
        inputs: Tensors of one shape and dtype, on the CPU.
        devices: The devices, one output each (:class:`~latticecast.DeviceRef` s or driver devices).
        axis: The axis to split (negative counts from the end); its size must divide evenly.

    Returns:
        ``len(devices)`` values of shape ``[len(inputs), ...]`` with ``axis + 1`` divided by ``len(devices)``.

    Raises:
        GraphError: No inputs or devices, inputs on different devices, not on the host, of different
            dtypes or shapes, or an axis whose size does not divide.
        AxisError: ``axis`` is out of range (an ``IndexError``, as in MAX).

    Example:
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> with Graph("weights", input_types=[TensorType(DType.float32, [4, 2])] * 2) as g:
        ...     out = ops.shard_and_stack(list(g.inputs), [DeviceRef.GPU(0), DeviceRef.GPU(1)])
        >>> [(v.shape, v.device) for v in out]
        [([Dim(2), Dim(2), Dim(2)], gpu:0), ([Dim(2), Dim(2), Dim(2)], gpu:1)]
    """
    if not inputs:
        raise GraphError("Must provide at least one input tensor.")
    if not devices:
        raise GraphError("Must provide at least one device.")
    targets = [DeviceRef.parse(d) for d in devices]
    g = graph_of(*inputs)
    values = _per_device(list(inputs), g, "shard_and_stack")
    check_same_device(g, **{str(i): v for i, v in enumerate(values)})
    for i, v in enumerate(values[1:], start=1):
        if v.storage is not values[0].storage:
            raise GraphError(f"All input tensors must have the same dtype. Input 0 has dtype {values[0].storage.name}, "
                             f"but input {i} has dtype {v.storage.name}")
    for i, v in enumerate(values[1:], start=1):
        if v.shape != values[0].shape:
            raise GraphError(f"All input tensors must have the same shape. Input 0 has shape "
                             f"{_shape_text(values[0].shape)}, but input {i} has shape {_shape_text(v.shape)}")
    rank = values[0].rank
    if not -rank <= axis < rank:
        raise AxisError(f"Axis must be in range [-{rank}, {rank}), got {axis}")
    off_host = {str(i): v for i, v in enumerate(values) if not v.device.is_cpu()}
    if off_host:
        raise GraphError("Input value must be on the host device\n" + "\n".join(
            f"    {k}: {_max_type(v)}" for k, v in off_host.items()) + "\n  (transfer them to the CPU first)")
    axis = axis + rank if axis < 0 else axis
    length = values[0].shape[axis]
    n = len(targets)
    if isinstance(length, int) and length % n:
        raise GraphError(f"Dimension size along axis {axis} ({length}) must be evenly divisible by number of "
                         f"devices ({n})")
    if not isinstance(length, int):
        raise GraphError(f"shard_and_stack along axis {axis} of {format_shape(values[0].shape)}: latticecast splits a "
                         "static axis only; rebind it to a size first (x.rebind([...]))")
    chunk = length // n
    out: list[Value] = []
    for i, d in enumerate(targets):
        index: list[slice] = [slice(None)] * rank
        index[axis] = slice(i * chunk, (i + 1) * chunk)
        pieces = [unsqueeze(v[tuple(index)], 0) for v in values]
        out.append(g.place(concat(pieces, 0) if len(pieces) > 1 else pieces[0], d))
    return out


def allgather(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object], axis: int = 0,
              group_size: int | None = None) -> list[Value]:
    """Every device's input, concatenated along ``axis``, on every device (MAX's ``ops.allgather``).

    In a graph over a mesh (``Graph(..., mesh=...)``) the inputs are the mesh's shards (see the
    module); otherwise each input lives on its own device, and output ``i`` is on input ``i``'s device.

    Args:
        inputs: One tensor per device, in device order.
        signal_buffers: One signal buffer per input (:class:`latticecast.max.nn.Signals`; counted only).
        axis: The axis to concatenate along.
        group_size: Devices per independent group (contiguous); default all of them.

    Returns:
        One value per input: the concatenation of its group's inputs, on the input's device.

    Raises:
        GraphError: The counts, ranks, dtypes or other sizes differ, a device repeats, or
            ``group_size`` does not divide the inputs.
        AxisError: ``axis`` is out of range (an ``IndexError``, as in MAX).

    Example:
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> from latticecast.max.nn import Signals
        >>> devices = [DeviceRef.GPU(0), DeviceRef.GPU(1)]
        >>> types = [TensorType(DType.float32, [3, 2], d) for d in devices] + Signals(devices).input_types()
        >>> with Graph("allgather", input_types=types) as g:
        ...     out = ops.allgather(g.inputs[:2], [b.buffer for b in g.inputs[2:]], axis=1)
        >>> [(v.shape, v.device) for v in out]
        [([Dim(3), Dim(4)], gpu:0), ([Dim(3), Dim(4)], gpu:1)]
    """
    values = list(inputs)
    buffers = list(signal_buffers)
    if values and graph_of(*values).layout is not None:
        return _mesh_allgather(values, buffers, axis, group_size)
    return _allgather(values, buffers, axis, group_size)


def allreduce_sum(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object],
                  group_size: int | None = None) -> list[Value]:
    """The sum of every device's input, on every device (MAX's ``ops.allreduce.sum``).

    Args:
        inputs: One tensor per device, of one shape and dtype.
        signal_buffers: One signal buffer per input (:class:`latticecast.max.nn.Signals`; counted only).
        group_size: Devices per independent group (contiguous); default all of them.

    Returns:
        One value per input: its group's sum, on the input's device.

    Raises:
        GraphError: The counts, dtypes or shapes differ, a device repeats, or ``group_size`` does not
            divide the inputs.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> from latticecast.max.nn import Signals
        >>> devices = [DeviceRef.CPU(0), DeviceRef.GPU(0)]
        >>> types = [TensorType(DType.float32, [2], d) for d in devices] + Signals(devices).input_types()
        >>> with Graph("allreduce", input_types=types) as g:
        ...     out = ops.allreduce.sum(g.inputs[:2], [b.buffer for b in g.inputs[2:]])
        >>> [v.device for v in out]
        [cpu:0, gpu:0]
    """
    values = list(inputs)
    buffers = list(signal_buffers)
    if values and graph_of(*values).layout is not None:
        return _mesh_allreduce_sum(values, buffers, group_size)
    return _allreduce(values, buffers, group_size)


def reducescatter_sum(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object], axis: int = 0,
                      group_size: int | None = None) -> list[Value]:
    """The sum of every device's input, split along ``axis``: part ``i`` on device ``i``
    (MAX's ``ops.reducescatter.sum``). As in MAX, an axis that does not divide evenly gives the first
    devices of a group one row more.

    Args:
        inputs: One tensor per device, of one shape and dtype.
        signal_buffers: One signal buffer per input (:class:`latticecast.max.nn.Signals`; counted only).
        axis: The axis to split the sum along.
        group_size: Devices per independent group (contiguous); default all of them.

    Returns:
        One value per input: its part of its group's sum, on the input's device.

    Raises:
        GraphError: The counts, dtypes, ranks or shapes differ, a device repeats, ``group_size`` does
            not divide the inputs, or ``axis`` is out of range.

    Example:
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> from latticecast.max.nn import Signals
        >>> devices = [DeviceRef.GPU(0), DeviceRef.GPU(1)]
        >>> types = [TensorType(DType.float32, [5, 2], d) for d in devices] + Signals(devices).input_types()
        >>> with Graph("reducescatter", input_types=types) as g:
        ...     out = ops.reducescatter.sum(g.inputs[:2], [b.buffer for b in g.inputs[2:]])
        >>> [(v.shape, v.device) for v in out]
        [([Dim(3), Dim(2)], gpu:0), ([Dim(2), Dim(2)], gpu:1)]
    """
    values = list(inputs)
    buffers = list(signal_buffers)
    if values and graph_of(*values).layout is not None:
        return _mesh_reducescatter_sum(values, buffers, axis, group_size)
    return _reducescatter(values, buffers, axis, group_size)


def distributed_broadcast(input: TensorValueLike, signal_buffers: Iterable[object]) -> list[Value]:
    """``input`` on every device (MAX's ``ops.distributed_broadcast``): the input's device is the root.

    Args:
        input: The tensor to broadcast.
        signal_buffers: One signal buffer per device (:class:`latticecast.max.nn.Signals`); their devices
            are the ones the input goes to, in order (in a graph over a mesh: one per mesh device).

    Returns:
        One value per signal buffer: ``input`` on its device.

    Raises:
        GraphError: There are no signal buffers, the input's device has none, or their devices repeat.

    Example:
        >>> from latticecast import DType, DeviceRef, Graph, TensorType, ops
        >>> from latticecast.max.nn import Signals
        >>> devices = [DeviceRef.GPU(0), DeviceRef.GPU(1)]
        >>> types = [TensorType(DType.float32, [2], devices[1])] + Signals(devices).input_types()
        >>> with Graph("broadcast", input_types=types) as g:
        ...     out = ops.distributed_broadcast(g.inputs[0], [b.buffer for b in g.inputs[1:]])
        >>> [v.device for v in out]
        [gpu:0, gpu:1]
    """
    buffers = list(signal_buffers)
    if graph_of(input).layout is not None:
        return _mesh_distributed_broadcast(input, buffers)
    return _broadcast(input, buffers)


allreduce = SimpleNamespace(sum=allreduce_sum)
"""MAX's ``ops.allreduce`` module: ``allreduce.sum(inputs, signal_buffers, group_size=None)``."""
reducescatter = SimpleNamespace(sum=reducescatter_sum)
"""MAX's ``ops.reducescatter`` module: ``reducescatter.sum(inputs, signal_buffers, axis=0, group_size=None)``."""
