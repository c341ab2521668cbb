"""Running on several devices, and ``jax.Array`` arguments on any number of them.

A partitioned executable takes one *global* ``jax.Array`` per input, laid out exactly
as XLA's partitioner decided (``LoadedExecutable.get_parameter_shardings()``: with
Shardy, an input without a sharding, or with an open one, gets whatever propagation
chose, so the layout is read from the executable, never from the module's attributes).
``execute_sharded`` does not check what it is given: a replicated array where tiles
are expected, an array on the right devices in another order, a wrong dtype or a
deleted (donated) buffer is logged by PJRT and then *crashes the process*. So every
argument is checked or placed here first:

* a NumPy array (already checked against ``@main`` and private, see :mod:`.execute`)
  is cut into the executable's tiles and sent to each device this process owns;
* a ``jax.Array`` laid out as the executable expects (same tiles on the same devices)
  is used as it is, with no copy: the outputs of ``jax.jit`` (or of another model) with
  the same shardings chain straight in. Otherwise it is moved (``jax.device_put`` to
  the expected sharding). :func:`.inputs.check_device_array` has refused a deleted one.

Outputs are global ``jax.Array`` s with the executable's output shardings (a module's
own ``NamedSharding`` where the module says one, so they feed ``jax.jit`` functions
over the same mesh); :func:`to_host` gathers one into a NumPy array, across processes
when some of its shards live in another process (every process must then ask for it,
as with any collective).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

import numpy as np

from .. import jax_internals as internals
from .runtime_errors import ExecutionError, InputArrayError
from .inputs import describe_input
from .partitioning import MeshInfo, Partitioning
from .signature import Signature, TensorSpec

if TYPE_CHECKING:
    import jax
    from jaxlib.mlir import ir

    from .partitioning import DeclaredSharding
    from .pjrt import ClientExecutable

__all__ = ["ShardedCall", "ArrayPlacer", "executable_shardings", "to_host", "hosts_numpy"]


def _sdy_named_sharding(attr: "ir.Attribute", part: Partitioning,
                        devices: "Sequence[jax.Device]") -> "jax.sharding.NamedSharding | None":
    """The ``NamedSharding`` an ``#sdy.sharding`` attribute spells, over ``devices`` in partition
    order, or ``None`` where it has no ``PartitionSpec`` (sub-axes, explicit device ids, a mesh
    of another size)."""
    from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import sdy

    sharding = sdy.TensorShardingAttr(attr)
    ref = sharding.mesh_or_ref
    if sdy.MeshAttr.isinstance(ref):
        mesh_attr = sdy.MeshAttr(ref)
        axes = [sdy.MeshAxisAttr(a) for a in mesh_attr.axes]
        ids = tuple(int(i) for i in mesh_attr.device_ids)
        mesh: MeshInfo | None = MeshInfo(tuple(a.name for a in axes), tuple(int(a.size) for a in axes), ids or None)
    else:
        mesh = part.meshes.get(ir.FlatSymbolRefAttr(ref).value)
    if mesh is None or not mesh.names or mesh.device_ids is not None or mesh.size != len(devices):
        return None
    spec: list[str | tuple[str, ...] | None] = []
    for dim in sharding.dimension_shardings:
        refs = [sdy.AxisRefAttr(a) for a in sdy.DimensionShardingAttr(dim).axes]
        if any(r.sub_axis_info is not None for r in refs):
            return None
        names = tuple(r.name for r in refs)
        spec.append(None if not names else names[0] if len(names) == 1 else names)
    grid = np.array(list(devices), dtype=object).reshape(mesh.sizes)
    return NamedSharding(Mesh(grid, mesh.names, axis_types=(AxisType.Auto,) * len(mesh.names)),
                         PartitionSpec(*spec))


def executable_shardings(executable: "ClientExecutable", devices: "Sequence[jax.Device]", part: Partitioning,
                         signature: Signature) -> "tuple[list[jax.sharding.Sharding], list[jax.sharding.Sharding]]":
    """The input and output shardings of a partitioned executable, as ``jax.sharding`` objects.

    XLA's answer (an ``OpSharding`` per parameter and result) is the truth; where the module
    declares a Shardy sharding that is equivalent to it, the module's ``NamedSharding`` is used
    instead, so arrays carry the mesh and ``PartitionSpec`` the program was written with.
    """
    if len(devices) == 1:  # an executable that is not partitioned reports no shardings
        import jax.sharding

        one = jax.sharding.SingleDeviceSharding(devices[0])
        return [one] * len(signature.inputs), [one] * len(signature.outputs)
    xla_in = [internals.sharding_of(s, devices) for s in executable.get_parameter_shardings()]
    xla_out = [internals.sharding_of(s, devices) for s in executable.get_output_shardings()]
    n_out = len(signature.outputs)
    if len(xla_out) == 1 and n_out != 1:  # XLA keeps one sharding when every output has the same
        xla_out = xla_out * n_out
    if len(xla_in) != len(signature.inputs) or len(xla_out) != n_out:
        raise ExecutionError(f"XLA reports {len(xla_in)} parameter and {len(xla_out)} output shardings for a "
                             f"@main of {len(signature.inputs)} inputs and {n_out} outputs; this jaxlib's "
                             f"partitioner is not one latticecast knows how to drive")

    def prefer_declared(declared: "Sequence[DeclaredSharding]", xla: "list[jax.sharding.Sharding]",
                        specs: Sequence[TensorSpec]) -> "list[jax.sharding.Sharding]":
        out: list[jax.sharding.Sharding] = []
        for attr, s, spec in zip(declared, xla, specs):
            named = None
            if attr is not None and not isinstance(attr, str):
                named = _sdy_named_sharding(attr, part, devices)
            out.append(named if named is not None and named.is_equivalent_to(s, len(spec.shape)) else s)
        return out

    return (prefer_declared(part.arg_shardings, xla_in, signature.inputs),
            prefer_declared(part.result_shardings, xla_out, signature.outputs))


def to_host(array: "jax.Array") -> np.ndarray:
    """A global ``jax.Array`` as one NumPy array: read directly when this process holds every
    shard (or a replicated one), else gathered from every process (``process_allgather``, a
    collective: every process must call it for the same array)."""
    if array.is_fully_addressable:
        return np.asarray(array)
    if array.sharding.is_fully_replicated:
        return np.asarray(array.addressable_data(0))
    from jax.experimental import multihost_utils

    return np.asarray(multihost_utils.process_allgather(array, tiled=True))


def hosts_numpy(arrays: "Sequence[jax.Array]") -> list[np.ndarray]:
    return [to_host(a) for a in arrays]


class ArrayPlacer:
    """Makes a checked ``jax.Array`` argument safe to hand to ``execute_sharded``.

    Whether an array's sharding places the same tiles on the same devices as the executable
    expects is answered once per (sharding, input) and remembered (``is_equivalent_to`` costs
    about 1.5 us; the lookup, a dict probe). ``moved`` counts the arrays that had to be moved.
    """

    _CACHE_LIMIT = 256

    def __init__(self, targets: "Sequence[jax.sharding.Sharding]", ndims: Sequence[int],
                 names: "Sequence[str] | None" = None) -> None:
        import jax

        self._targets = list(targets)
        self._ndims = list(ndims)
        self._names = names
        self._equivalent: dict[tuple[jax.sharding.Sharding, int], bool] = {}
        self._device_put = jax.device_put
        self.moved = 0

    def place(self, array: "jax.Array", i: int) -> "jax.Array":
        """``array`` (checked and alive: :func:`.inputs.check_device_array`) laid out as input ``i`` must be."""
        sharding = array.sharding
        target = self._targets[i]
        key = (sharding, i)
        ok = self._equivalent.get(key)
        if ok is None:
            ok = sharding == target or sharding.is_equivalent_to(target, self._ndims[i])
            if len(self._equivalent) >= self._CACHE_LIMIT:
                self._equivalent.clear()
            self._equivalent[key] = ok
        if ok:
            return array
        return self._move(array, target, i)

    def _move(self, array: "jax.Array", target: "jax.sharding.Sharding", i: int) -> "jax.Array":
        self.moved += 1
        moved: jax.Array
        try:
            moved = self._device_put(array, target)
            return moved
        except Exception as e:  # noqa: BLE001 - jax refuses some moves (across permuted meshes); try the host
            if array.is_fully_addressable:
                moved = self._device_put(np.asarray(array), target)
                return moved
            where = describe_input(i, self._names[i] if self._names else None)
            raise InputArrayError(
                f"{where}: the jax.Array is laid out as {array.sharding} and spans devices this process cannot "
                f"read, and jax could not move it to the model's layout {target} ({type(e).__name__}: {e}); "
                f"pass it with the model's input sharding (model.input_shardings[{i}]).", index=i) from None


class ShardedCall:
    """Runs an executable compiled by the client (``compile_and_load``), on one device or partitioned
    over several: inputs placed per its parameter shardings, global arrays out.

    Host arrays go to their devices with jaxlib's ``batched_device_put`` and outputs become
    ``jax.Array`` s through its result handlers where :mod:`latticecast.jax_internals` allows them;
    otherwise through ``jax.device_put`` and ``jax.make_array_from_single_device_arrays``."""

    kind = "client"

    def __init__(self, executable: "ClientExecutable", devices: "Sequence[jax.Device]", signature: Signature,
                 part: Partitioning,
                 name: str = "@main", input_names: "Sequence[str] | None" = None) -> None:
        import jax
        import jax.core
        import jax.errors

        self.executable = executable
        self.devices = tuple(devices)
        self.signature = signature
        self.name = name
        self.in_shardings, self.out_shardings = executable_shardings(executable, devices, part, signature)
        self.in_avals = [jax.core.ShapedArray(s.shape, s.np_dtype) for s in signature.inputs]
        self.out_avals = [jax.core.ShapedArray(s.shape, s.np_dtype) for s in signature.outputs]
        # Per input: the devices of this process and the index of the tile each one holds.
        self._tiles = []
        for s, aval in zip(self.in_shardings, self.in_avals):
            items = list(s.addressable_devices_indices_map(aval.shape).items())
            self._tiles.append(([d for d, _ in items], [tuple(cast("tuple[slice, ...]", ix)) + (Ellipsis,) for _, ix in items]))
        handlers = [internals.result_handler(a, s) for a, s in zip(self.out_avals, self.out_shardings)]
        self._handlers = handlers if all(h is not None for h in handlers) else None
        self.placer = ArrayPlacer(self.in_shardings, [a.ndim for a in self.in_avals], input_names)
        self._put = internals.batched_device_put if internals.ZERO_COPY is not None else None
        self._zero_copy = internals.ZERO_COPY
        self._device_put = jax.device_put
        self._assemble = jax.make_array_from_single_device_arrays
        self._runtime_error = jax.errors.JaxRuntimeError

    def run(self, arrays: "Sequence[jax.Array | np.ndarray]") -> "list[jax.Array]":
        """Global ``jax.Array`` s of the outputs, from checked inputs: private, C-contiguous NumPy
        arrays, or ``jax.Array`` s of the right dtype and shape."""
        put, zc, ndarray = self._put, self._zero_copy, np.ndarray
        buffers = []
        try:
            for i, (a, aval, sharding, (devices, tiles)) in enumerate(
                    zip(arrays, self.in_avals, self.in_shardings, self._tiles)):
                if type(a) is not ndarray:
                    buffers.append(self.placer.place(cast("jax.Array", a), i))
                elif put is not None:
                    # enable_x64=True: with x64 off, jax would send 64-bit host data narrowed to 32
                    # bits under a 64-bit aval, and execute_sharded would crash on the size.
                    buffers.append(put(aval, sharding, [a[t] for t in tiles], devices, True, False, zc, True))
                else:
                    buffers.append(self._device_put_host(a, sharding))
            results = self.executable.execute_sharded(buffers)
            if self._handlers is not None:
                out: list[jax.Array] = results.consume_with_handlers(self._handlers)
                return out
            return [self._assemble(aval.shape, sharding, pieces) for aval, sharding, pieces in
                    zip(self.out_avals, self.out_shardings, results.disassemble_into_single_device_arrays())]
        except self._runtime_error as e:
            raise ExecutionError(f"PJRT failed while running {self.name} on {len(self.devices)} devices: {e}") from e

    def _device_put_host(self, array: np.ndarray, sharding: "jax.sharding.Sharding") -> "jax.Array":
        """The public transfer: ``jax.device_put`` under x64 (off, jax would narrow 64-bit data)."""
        import jax

        with jax.enable_x64(True):
            placed: jax.Array = self._device_put(array, sharding)
        return placed

    def __call__(self, arrays: "Sequence[jax.Array | np.ndarray]") -> list[np.ndarray]:
        return hosts_numpy(self.run(arrays))
