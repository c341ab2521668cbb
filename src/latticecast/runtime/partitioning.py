"""Modules partitioned for several devices: what they ask for, on which devices they run, how XLA compiles them.

A module that JAX lowered for a mesh says so in attributes that XLA itself does not
read: ``mhlo.num_partitions = 8`` on the module, ``sdy.mesh`` ops and ``sdy.sharding``
attributes (Shardy, JAX's default), or ``mhlo.sharding`` strings (GSPMD). XLA partitions
a module only when the *compile options* ask for SPMD partitioning over N devices; told
one device, it compiles the module unpartitioned and runs it on that device without a
word (the shardings are ignored). So the runtime reads the partitioning here and builds
the options from it:

1. :func:`read_partitioning`: ``mhlo.num_partitions``, ``mhlo.num_replicas``, the meshes,
   which partitioner the module is written for, and ``@main``'s declared shardings;
2. :func:`choose_devices`: the ``num_partitions`` devices it runs on, in partition order
   (partition ``i`` on ``devices[i]``): those passed as ``devices=``, or the first N
   of the platform ``device`` names (``jax.devices(platform)``: with ``jax.distributed``,
   the devices of every process). Too few is a :class:`DeviceCountError` that says how
   to get more; ``num_replicas != 1`` (replication across programs, not SPMD) is refused;
3. :func:`compile_options`: what ``jax.jit`` builds for a function whose every input and
   output sharding is given (``jax.extend.backend.get_compile_options`` plus the flags
   ``pxla`` sets), with ``use_shardy_partitioner`` decided by the module, not by jax's
   global flag: a Shardy module compiled with Shardy off fails in XLA.

Nothing here partitions anything or writes a collective: that is XLA's SPMD partitioner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence, Union

from ..jax_internals import gspmd_device_count
from .devices import DeviceLike, DeviceList, device_name, resolve_device
from .runtime_errors import DeviceCountError, UnsupportedModuleError
from .signature import find_main

if TYPE_CHECKING:
    import jax
    from jaxlib.mlir import ir

    from .pjrt import CompileOptions

DeclaredSharding = Union["ir.Attribute", str, None]
"""A sharding ``@main`` declares for one input or output: Shardy's ``#sdy.sharding`` attribute, GSPMD's
``mhlo.sharding`` text, or ``None`` (none declared)."""

__all__ = ["Partitioning", "MeshInfo", "read_partitioning", "choose_devices", "compile_options",
           "uses_shardy", "DEVICE_COUNT_FLAG"]

DEVICE_COUNT_FLAG = "--xla_force_host_platform_device_count"
"""The XLA flag that makes the host platform present N CPU devices (set in ``XLA_FLAGS`` before
jax is imported; ``JAX_NUM_CPU_DEVICES=N`` does the same)."""


@dataclass(frozen=True)
class MeshInfo:
    """One ``sdy.mesh``: axis names and sizes, and its explicit ``device_ids`` (``None``: in order)."""

    names: tuple[str, ...]
    sizes: tuple[int, ...]
    device_ids: tuple[int, ...] | None

    @property
    def size(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n if self.names else len(self.device_ids or ()) or 1


@dataclass(frozen=True)
class Partitioning:
    """What a module asks of the devices that run it.

    ``partitioner`` is ``"shardy"`` (``sdy`` ops or attributes), ``"gspmd"`` (``mhlo.sharding``
    attributes) or ``"none"``. ``arg_shardings``/``result_shardings`` hold, per input and output
    of ``@main``, the declared ``#sdy.sharding`` attribute, the ``mhlo.sharding`` string, or
    ``None``.
    """

    num_partitions: int
    num_replicas: int
    partitioner: str
    meshes: dict[str, MeshInfo]
    arg_shardings: tuple[DeclaredSharding, ...]
    result_shardings: tuple[DeclaredSharding, ...]

    @property
    def is_partitioned(self) -> bool:
        return self.num_partitions > 1


def uses_shardy(module: "ir.Module") -> bool:
    """Whether the module has Shardy ops (``sdy.mesh``, ``sdy.sharding_constraint``, ...) anywhere."""
    from jaxlib.mlir import ir

    found = False

    def visit(op: "ir.Operation") -> "ir.WalkResult":
        nonlocal found
        if op.name.startswith("sdy."):
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _int_attribute(attrs: "ir.OpAttributeMap", name: str, what: str) -> int:
    from jaxlib.mlir import ir

    if name not in attrs:
        return 1
    attr = attrs[name]
    if not isinstance(attr, ir.IntegerAttr):
        raise UnsupportedModuleError(f"{what}: the module attribute {name} is {attr}; it must be an integer "
                                     f"(JAX writes `{name} = 8 : i32`).")
    value = ir.IntegerAttr(attr).value
    if value < 1:
        raise UnsupportedModuleError(f"{what}: the module attribute {name} = {value}; it must be at least 1.")
    return value


def _declared(main: "ir.Operation", key: str, count: int) -> tuple[DeclaredSharding, ...]:
    from jaxlib.mlir import ir

    out: list[DeclaredSharding] = [None] * count
    if key not in main.attributes:
        return tuple(out)
    for i, attrs in enumerate(ir.ArrayAttr(main.attributes[key])):
        if i >= count:
            break
        d = ir.DictAttr(attrs)
        if "sdy.sharding" in d:
            out[i] = d["sdy.sharding"]
        elif "mhlo.sharding" in d:
            out[i] = ir.StringAttr(d["mhlo.sharding"]).value
    return tuple(out)


def read_partitioning(module: "ir.Module", what: str = "<module>") -> Partitioning:
    """Read the partitioning attributes of ``module`` and check that they agree with each other.

    A mesh with more devices than ``mhlo.num_partitions`` is refused: compiled as the
    attribute says, the module would run on fewer devices than it was written for (with one
    partition, unpartitioned and silently).
    """
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import sdy

    attrs = module.operation.attributes
    num_partitions = _int_attribute(attrs, "mhlo.num_partitions", what)
    num_replicas = _int_attribute(attrs, "mhlo.num_replicas", what)
    meshes: dict[str, MeshInfo] = {}
    for view in module.body.operations:
        op = view.operation
        if op.name != "sdy.mesh":
            continue
        attr = sdy.MeshAttr(op.attributes["mesh"])
        axes = [sdy.MeshAxisAttr(a) for a in attr.axes]
        ids = tuple(int(i) for i in attr.device_ids)
        meshes[ir.StringAttr(op.attributes["sym_name"]).value] = MeshInfo(
            tuple(a.name for a in axes), tuple(int(a.size) for a in axes), ids or None)
    main = find_main(module)
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    args = _declared(main, "arg_attrs", len(ftype.inputs))
    results = _declared(main, "res_attrs", len(ftype.results))
    declared = [s for s in args + results if s is not None]
    if meshes or any(not isinstance(s, str) for s in declared) or uses_shardy(module):
        partitioner = "shardy"
    elif declared:
        partitioner = "gspmd"
    else:
        partitioner = "none"
    for name, mesh in meshes.items():
        if mesh.size > num_partitions:
            raise UnsupportedModuleError(
                f"{what}: sdy.mesh @{name} has {mesh.size} devices ({_axes_text(mesh)}), but the module says "
                f"mhlo.num_partitions = {num_partitions}; compiled for {num_partitions} device(s) it would not "
                f"run as it was written. Set `mhlo.num_partitions = {mesh.size} : i32` on the module (JAX writes "
                f"it when it lowers for a mesh).")
    if partitioner == "gspmd":
        for kind, shardings in (("input", args), ("output", results)):
            for i, s in enumerate(shardings):
                count = gspmd_device_count(s) if isinstance(s, str) else None  # gspmd: text only
                if count is not None and count > num_partitions:
                    raise UnsupportedModuleError(
                        f"{what}: {kind} {i} of @main has mhlo.sharding = \"{s}\", over {count} devices, but the "
                        f"module says mhlo.num_partitions = {num_partitions}; compiled for {num_partitions} device(s) "
                        f"it would not run as it was written. Set `mhlo.num_partitions = {count} : i32` on the "
                        f"module (JAX writes it when it lowers for a mesh).")
    return Partitioning(num_partitions, num_replicas, partitioner, meshes, args, results)


def _axes_text(mesh: MeshInfo) -> str:
    return ", ".join(f"{n!r}={s}" for n, s in zip(mesh.names, mesh.sizes)) or "no axes"


def _more_devices_hint(platform: str, required: int) -> str:
    if platform == "cpu":
        return (f"On the CPU, start a new Python process with XLA_FLAGS={DEVICE_COUNT_FLAG}={required} "
                f"(or JAX_NUM_CPU_DEVICES={required}) in its environment, set before jax is imported; "
                f"or spread {required} devices over several processes (jax.distributed.initialize() in each, "
                f"before compiling).")
    return (f"Run on a machine with {required} {platform} devices, or across several processes "
            f"(jax.distributed.initialize() before compiling), whose devices add up to {required}.")


def choose_devices(part: Partitioning, device: DeviceLike | None, devices: DeviceList | None,
                   what: str) -> "tuple[jax.Device, ...]":
    """The devices ``what`` runs on, in partition order: one device for an unpartitioned module, else
    ``num_partitions`` of them (``devices=`` or the first of ``device``'s platform).

    Raises :class:`DeviceCountError` when there are too few, :class:`UnsupportedModuleError` for
    ``num_replicas != 1``, and ``ValueError`` when ``devices=`` does not fit the module.
    """
    if part.num_replicas != 1:
        raise UnsupportedModuleError(
            f"{what} asks for mhlo.num_replicas = {part.num_replicas}: replicated programs (pmap-style, "
            f"one program per replica) are not supported; latticecast runs SPMD modules, with "
            f"mhlo.num_replicas = 1 and mhlo.num_partitions = N (what jax.jit writes for a mesh).")
    n = part.num_partitions
    if devices is not None:
        chosen = resolve_devices(devices)
        if len(chosen) == n:
            return chosen
        if len(chosen) < n:
            raise DeviceCountError(
                f"{what} is partitioned for {n} devices (mhlo.num_partitions = {n}), but devices= lists "
                f"{len(chosen)}; pass {n} devices (partition i runs on devices[i]).",
                required=n, present=len(chosen), requested=list(devices))
        if n == 1:
            raise ValueError(
                f"devices= lists {len(chosen)} devices, but {what} is not partitioned (mhlo.num_partitions = 1: "
                f"one device); pass device=... instead, or lower the program for {len(chosen)} devices "
                f"(jax.jit with shardings over a mesh, or a latticecast Graph with mesh=...).")
        raise ValueError(
            f"devices= lists {len(chosen)} devices, but {what} is partitioned for {n} "
            f"(mhlo.num_partitions = {n}); pass exactly {n} devices (partition i runs on devices[i]).")
    first = resolve_device(device if device is not None else "cpu")
    if n == 1:
        return (first,)
    if device is not None and (not isinstance(device, str) or ":" in device):
        raise ValueError(
            f"{what} is partitioned for {n} devices (mhlo.num_partitions = {n}), but device={device!r} names "
            f"one device; pass a platform (device={first.client.platform!r}: its first {n} devices) or "
            f"devices=[...] with {n} devices.")
    import jax

    present = jax.devices(first.client)
    if len(present) < n:
        platform = first.client.platform
        raise DeviceCountError(
            f"{what} is partitioned for {n} devices (mhlo.num_partitions = {n}), but only {len(present)} "
            f"{platform} device{'s are' if len(present) != 1 else ' is'} present "
            f"({', '.join(device_name(d) for d in present)}); latticecast does not run a partitioned module on "
            f"fewer devices. {_more_devices_hint(platform, n)}",
            required=n, present=len(present), requested=device,
            available=[device_name(d) for d in present])
    return tuple(present[:n])


def resolve_devices(devices: DeviceList) -> "tuple[jax.Device, ...]":
    """``devices=`` as ``jax.Device`` s: names (``"cpu:3"``) or devices, distinct, of one platform.

    Devices of other processes are allowed here (with ``jax.distributed``, a program spans
    them), unlike :func:`~latticecast.runtime.devices.resolve_device`, which picks one device
    for this process to run on."""
    if isinstance(devices, (str, bytes)) or not hasattr(devices, "__iter__"):
        raise TypeError(f"devices must be a sequence of devices (names such as 'cpu:0' or jax.Device), "
                        f"not {type(devices).__name__}; for one device, pass device=...")
    import numpy as np

    items = list(np.asarray(devices, dtype=object).flat)  # a list, or a mesh's array of devices
    if not items:
        raise ValueError("devices= is empty; pass the devices to run on, or leave it out (device='cpu')")
    out = []
    for d in items:
        if isinstance(d, str):
            out.append(resolve_device(d))
        elif getattr(d, "client", None) is not None and hasattr(d, "id"):
            out.append(d)
        else:
            raise TypeError(f"devices must hold device names ('cpu:0') or jax.Device objects; got "
                            f"{type(d).__name__}")
    clients = {d.client for d in out}
    if len(clients) > 1:
        raise ValueError(f"devices= mixes platforms ({', '.join(sorted({d.client.platform for d in out}))}); "
                         f"one program runs on the devices of one platform")
    if len({d.id for d in out}) != len(out):
        seen: set[int] = set()
        dup = next(d for d in out if d.id in seen or seen.add(d.id))  # type: ignore[func-returns-value]  # add: None
        raise ValueError(f"devices= lists {device_name(dup)} more than once; each partition needs its own device")
    return tuple(out)


def compile_options(devices: "Sequence[jax.Device]", part: "Partitioning | None" = None, n_in: int = 0,
                    n_out: int = 0) -> "CompileOptions":
    """The ``CompileOptions`` for ``devices`` (partition ``i`` on ``devices[i]``).

    One device: what JAX uses for a one-device computation. N devices: SPMD partitioning over
    N partitions, the device assignment in partition order, shardings neither propagated into
    ``@main``'s parameters nor into its results (the module declares them, as ``jax.jit`` does
    when every sharding is given), and Shardy on exactly when the module is written for it.
    """
    import jax.extend.backend
    import numpy as np

    n = len(devices)
    assignment = np.array(list(devices), dtype=object).reshape(1, n)
    options = jax.extend.backend.get_compile_options(1, n, device_assignment=assignment,
                                                     backend=devices[0].client)
    if n == 1:
        return options
    assert part is not None, "a partitioned compile needs the module's partitioning"
    build = options.executable_build_options
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = part.partitioner == "shardy"
    build.allow_spmd_sharding_propagation_to_parameters = [False] * n_in
    build.allow_spmd_sharding_propagation_to_output = [False] * n_out
    options.parameter_is_tupled_arguments = False
    return options

