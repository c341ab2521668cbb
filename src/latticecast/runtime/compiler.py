"""``compile``: legal StableHLO in, a :class:`Model` on PJRT devices out, through the cache.

The steps, cheapest first, so that a repeated ``compile`` does as little as possible:

1. resolve the device (or ``devices=``) as asked;
2. look the module *as given* up in the in-memory cache (a SHA-256 of the text,
   or of the bytecode of an ``ir.Module``, with the request) -- a hit ends here;
3. parse the text (or verify the module); refuse host callbacks and tokens, and load the
   LAPACK routines jaxlib's kernels need (:mod:`.custom_calls`); read and check ``@main``'s
   signature. A ``@main`` with dynamic dimensions becomes a :class:`PolymorphicModel`,
   which refines the module to each call's shapes and compiles it per shape
   (:mod:`.polymorphic`);
4. read the partitioning (``mhlo.num_partitions``, shardings) and choose the devices:
   one, or N for a module partitioned N ways, refused when fewer are present
   (:mod:`.partitioning`); build the compile options (JAX's, so XLA sees what it sees
   under ``jax.jit``: same optimisation level, same CUDA data directory, SPMD
   partitioning over the devices in partition order);
5. look the *canonical* program (printed without locations) up in memory, then
   on disk (if enabled), deserializing the stored executable;
6. compile, and store the executable in memory and on disk. One device: through public JAX
   (the module as a ``jax.export.Exported`` compiled by ``jax.jit``, :mod:`.exported`), so
   calls take ``jax.jit``'s C++ dispatch; several devices, or a module ``jax.export`` cannot
   wrap: with the client's ``compile_and_load`` (:mod:`.sharded`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol, Sequence, Union, cast

from ..promotion.device_ref import DeviceRef, DeviceRefLike
from ..promotion.dtypes import DType
from ..jax_internals import INIT_LOCK, compile_on
from .cache import MEMORY_CACHE, CacheDir, disk_cache_for, executable_key, memory_key
from .custom_calls import prepare_custom_calls, unknown_target_error
from .devices import DeviceLike, DeviceList, device_name, resolve_device
from .guards import refuse_what_crashes_xla, shield_divisions
from .runtime_errors import CompileError, UnsupportedModuleError
from .exported import compile_exported, deserialize, needs_x64, serialize
from .model import CompiledProgram, Model
from .partitioning import choose_devices, compile_options, read_partitioning
from .polymorphic import PolymorphicModel
from .resources import inline_dense_resources
from .signature import check_input_names, donated_inputs, read_polymorphic_signature, read_signature
from ..dialect_utils.parsing import read_source
from .source import ModuleSource, canonical_digest, parse_runnable_module, source_digest, verify_module

__all__ = ["compile", "compile_graph", "multi_device_target", "CompilableGraph"]

if TYPE_CHECKING:
    import jax
    from jaxlib.mlir import ir

    from .cache import DiskCache
    from .pjrt import ClientExecutable, CompileOptions, Executable
    from .signature import Signature

_Given = Union[str, bytes, bytearray, memoryview, "ir.Module"]
"""What ``compile`` has once a path is read: text, bytecode or a module."""


def _is_text(source: _Given) -> bool:
    return isinstance(source, (str, bytes, bytearray, memoryview))


_LOWERED_NAMES = frozenset(d.mlir_name for d in DType if d.needs_lowering)


def _unsupported_in(module: "ir.Module") -> tuple[list[str], list[str]]:
    """Element types XLA cannot compile and unregistered ops anywhere in the module (an
    ``ir.Module`` from a lenient context may have both): latticecast's dtypes that the
    ``lower-dtypes`` pass lowers, and types of unregistered dialects. Other element types
    (``f8E4M3FN`` inside a program) are XLA's to judge; ``@main``'s signature is checked
    against what PJRT has buffers for separately. About 3 us per op."""
    from jaxlib.mlir import ir

    types: set[str] = set()
    ops: set[str] = set()
    ctx = module.context

    def visit(op: "ir.Operation") -> "ir.WalkResult":
        if not ctx.is_registered_operation(op.name):
            ops.add(op.name)
        for r in op.results:
            t = r.type
            if isinstance(t, ir.ShapedType):
                element = t.element_type
                if isinstance(element, ir.OpaqueType) or str(element) in _LOWERED_NAMES:
                    types.add(str(element))
        return ir.WalkResult.ADVANCE

    try:
        module.operation.walk(visit)
    except Exception:  # noqa: BLE001 - a hint only
        pass
    return sorted(types), sorted(ops)


def _check_runnable(module: "ir.Module", name: str) -> None:
    """Refuse an ``ir.Module`` with unregistered ops or non-PJRT element types.

    Text is parsed in a context without unregistered dialects, so this only
    matters for modules built elsewhere (the graph builder's context is lenient).
    It is not just for a nicer message: PJRT's compiler crashes the process (a
    segmentation fault) on an unregistered op instead of returning an error.
    """
    types, ops = _unsupported_in(module)
    problems = []
    if ops:
        problems.append(f"unregistered op(s) {', '.join(ops)} (the runtime runs StableHLO, "
                        f"func and chlo; lower other dialects first)")
    if types:
        problems.append(f"element type(s) {', '.join(types)}, which PJRT does not run "
                        f"(latticecast's implicit-cast pass lowers index and !latticecast.address "
                        f"to ui64 and tf32 to f32)")
    if problems:
        raise UnsupportedModuleError(f"{name} cannot run on PJRT: it has " + "; and ".join(problems) + ".")


def _where(devices: "Sequence[jax.Device]") -> str:
    if len(devices) == 1:
        return device_name(devices[0])
    return f"{len(devices)} {devices[0].client.platform} devices (SPMD partitioning)"


class _Compiled:
    """An executable and how it runs (see :class:`CompiledProgram`'s ``route``)."""

    __slots__ = ("executable", "route", "reason", "dispatcher")

    def __init__(self, executable: "Executable", route: str, reason: str | None = None,
                 dispatcher: "jax.stages.Wrapped | None" = None) -> None:
        self.executable = executable
        self.route = route
        self.reason = reason
        self.dispatcher = dispatcher


def _xla_compile(module: "ir.Module", devices: "Sequence[jax.Device]", options: "CompileOptions", what: str,
                 targets: "set[str] | None" = None, signature: "Signature | None" = None,
                 donated: Sequence[int] = (), host_callbacks: Sequence[Callable[..., object]] = ()) -> _Compiled:
    """Compile for ``devices``: through ``jax.jit`` on one device where ``jax.export`` can wrap the
    module (not with host callbacks, which ``jax.export`` cannot carry), else with the client. XLA's
    errors become :class:`CompileError` s."""
    import jax.errors

    device = devices[0]
    try:
        with INIT_LOCK:
            if host_callbacks:
                return _Compiled(compile_on(devices, module, options, host_callbacks), "client",
                                 "host callbacks (ops.print)")
            if len(devices) == 1 and signature is not None:
                compiled, jitted, why = compile_exported(module, device, signature, donated)
                if compiled is not None:
                    return _Compiled(compiled, "jax.jit", dispatcher=jitted)
                return _Compiled(compile_on(devices, module, options), "client", why)
            return _Compiled(compile_on(devices, module, options), "client",
                             f"partitioned over {len(devices)} devices" if len(devices) > 1 else None)
    except jax.errors.JaxRuntimeError as e:
        if targets:
            unknown = unknown_target_error(str(e), targets, device, what)
            if unknown is not None:
                raise unknown from None
        message = f"XLA could not compile {what} for {_where(devices)}: {e}"
        types, ops = _unsupported_in(module) if module is not None else ([], [])
        if types:
            message += (f"\nhint: the module uses element type(s) {', '.join(types)}, which PJRT "
                        f"does not run; latticecast's implicit-cast pass lowers index and "
                        f"!latticecast.address to ui64 and tf32 to f32.")
        if ops:
            message += (f"\nhint: the module has unregistered op(s) {', '.join(ops)}; the runtime "
                        f"runs StableHLO, lower them first.")
        raise CompileError(message) from None


def compile(module_or_text: ModuleSource, device: DeviceLike | None = None, *,
            devices: DeviceList | None = None, input_names: Sequence[str] | None = None,
            cache_dir: CacheDir = None, use_cache: bool = True,
            source_name: str | None = None,
            host_callbacks: Sequence[Callable[..., object]] = ()) -> "Model | PolymorphicModel":
    """Compile legal StableHLO for its devices and return a callable :class:`Model`.

    A ``@main`` with dynamic dimensions (``tensor<?x4xf32>``, symbolic shapes) gives a
    :class:`PolymorphicModel` instead, refined and compiled once per shape of the arguments.
    Compiled executables are cached in memory by the module's fingerprint, and on disk where
    the disk cache is on (``LATTICECAST_DISK_CACHE=1``, ``LATTICECAST_CACHE_DIR``, ``cache_dir``).

    A module partitioned N ways (``mhlo.num_partitions = N``, as ``jax.jit`` writes for a mesh
    of N devices, or a ``Graph`` with a mesh) compiles with XLA's SPMD partitioner for N
    devices: ``devices`` (partition ``i`` on ``devices[i]``), or else the first N of
    ``device``'s platform (with ``jax.distributed``, counted over every process). It never runs
    on fewer devices than it was written for.

    Args:
        module_or_text: An ``ir.Module`` (one of JAX's too:
            ``jax.jit(f).lower(x).compiler_ir("stablehlo")``), or MLIR text (``str``/``bytes``),
            MLIR bytecode or a StableHLO portable artifact (``jax.export``'s
            ``exported.mlir_module_serialized``), with a public ``func.func @main``; or the path
            of a file of any of these: an ``os.PathLike``, or a ``str`` of one line ending in
            ``.mlir`` or ``.mlirbc`` (MLIR text never ends so; see
            :func:`~latticecast.dialect_utils.parsing.is_source_path`). The file's name is then
            the ``source_name`` of errors.
        device: ``"cpu"`` (the default), ``"gpu"``/``"cuda"``/``"rocm"`` (through an installed
            PJRT plug-in), an index such as ``"cpu:0"``, or a ``jax.Device``.
        devices: The N devices of a module partitioned N ways (a mesh's ``mesh.devices``
            works); not together with ``device``.
        input_names: Names of the inputs, for error messages and keyword calls.
        cache_dir: The disk cache for this call: ``False`` (off), ``True`` (the default
            directory) or a path; ``None`` follows the environment.
        use_cache: ``False`` skips every cache and compiles.
        source_name: The file name that error messages give text (default ``<input>``).
        host_callbacks: The Python functions the module's host callbacks call
            (``stablehlo.custom_call @xla_ffi_python_cpu_callback`` with
            ``mhlo.backend_config = {index = i}`` calls ``host_callbacks[i]`` with NumPy arrays), as
            ``ops.print`` writes them. The executable holds the functions, so it is cached in
            neither the memory nor the disk cache. Without them, a module with host callbacks is
            refused.

    Returns:
        A :class:`Model` (a :class:`PolymorphicModel` for dynamic shapes).

    Raises:
        MLIRParseError: Text that does not parse or verify (with ``file:line:col``).
        UnsupportedModuleError: No ``@main``; element types PJRT cannot run or the device's
            compiler cannot (float6 on the CPU); host callbacks or tokens; a custom-call target
            the platform does not have; ``mhlo.num_replicas`` other than 1.
        DeviceNotFoundError: The device asked for is not present (the message lists those that are).
        DeviceCountError: Fewer devices than the module's partitions.
        CompileError: XLA failed to compile the module.
        SourceFileError: A path was given and the file cannot be read.
        TypeError: ``module_or_text`` is neither a module nor text, or both ``device`` and
            ``devices`` are given.

    Example:
        >>> import numpy as np
        >>> import latticecast as lc
        >>> model = lc.compile('''
        ...   func.func @main(%x: tensor<2xi32>, %y: tensor<2xi32>) -> tensor<2xi32> {
        ...     %0 = stablehlo.multiply %x, %y : tensor<2xi32>
        ...     return %0 : tensor<2xi32>
        ...   }''', device="cpu", input_names=["x", "y"])
        >>> model(np.array([1, 2], np.int32), y=np.array([3, 4], np.int32))
        [array([3, 8], dtype=int32)]
        >>> model.input_types[0].dtype
        DType.int32
    """
    given: _Given
    given, source_name = read_source(module_or_text, source_name)
    is_text = _is_text(given)
    _check_arguments(given, is_text, device, devices)
    callbacks = tuple(host_callbacks)
    if callbacks:
        use_cache = False  # the executable holds these Python functions: it is this call's alone
    request = _request(device, devices)
    name = source_name or ("<input>" if is_text else "<module>")
    fast_key = memory_key(source_digest(given), request.device, request.token) if use_cache else None
    if fast_key is not None:
        program = MEMORY_CACHE.lookup(fast_key)
        if program is not None:
            MEMORY_CACHE.stats.hits += 1
            return Model(program, check_input_names(input_names, program.signature), "memory")

    module, targets = _runnable_module(given, is_text, name, request.device, len(callbacks))
    polymorphic = read_polymorphic_signature(module)
    if polymorphic is not None:
        if input_names is not None:
            check_input_names(input_names, polymorphic)

        def compile_static(refined: "ir.Module", names: Sequence[str] | None) -> Model:
            model = compile(refined, device, devices=devices, input_names=names, cache_dir=cache_dir,
                            use_cache=use_cache, source_name=name, host_callbacks=callbacks)
            assert isinstance(model, Model)  # a refined module has static shapes
            return model

        return PolymorphicModel(module, polymorphic, compile_static, name, input_names)
    job = _Job(module, name, targets, device, devices, callbacks)
    names = check_input_names(input_names, job.signature)
    program, source = _program(job, use_cache, cache_dir, fast_key)
    return Model(program, names, source)


def _check_arguments(module_or_text: _Given, is_text: bool, device: DeviceLike | None,
                     devices: DeviceList | None) -> None:
    if not is_text and not (hasattr(module_or_text, "operation") and hasattr(module_or_text, "body")):
        raise TypeError(f"compile takes an ir.Module, MLIR text (str or bytes) or the path of a .mlir/.mlirbc file; "
                        f"got {type(module_or_text).__name__}")
    if devices is not None and device is not None:
        raise TypeError("compile takes device= (one device, or the platform whose first N devices run a module "
                        "partitioned N ways) or devices= (the devices themselves), not both")


def _runnable_module(module_or_text: _Given, is_text: bool, name: str, device: "jax.Device",
                     host_callbacks: int = 0) -> "tuple[ir.Module, set[str] | None]":
    """The module, parsed or verified, made runnable (``dense_resource`` weights inlined, divisions
    that XLA could fold into a crash shielded) and checked (what crashes XLA refused, custom calls'
    kernels loaded): the module and the custom-call targets it calls. The caller's ``ir.Module`` is
    never changed: a copy is, when something must be."""
    if is_text:
        module = parse_runnable_module(cast("str | bytes", module_or_text), source_name=name)  # or a buffer of bytes
    else:
        module = cast("ir.Module", module_or_text)  # _check_arguments: a module
        verify_module(module, source_name=name)
        _check_runnable(module, name)
    module = inline_dense_resources(module, name)  # XLA compiles no dense_resource (torch-mlir's weights)
    # every device chosen later is of this device's platform
    platform = getattr(device, "platform", "cpu")
    divisions = refuse_what_crashes_xla(module, name, platform, device_name(device))
    if divisions:
        if module is module_or_text:  # the caller's module stays as it was: the copy is changed
            module = parse_runnable_module(cast(str, module.operation.get_asm(enable_debug_info=True)), context=module.context,
                                  source_name=name)
            divisions = refuse_what_crashes_xla(module, name, platform, device_name(device))
        shield_divisions(divisions)
    return module, prepare_custom_calls(module, device, name, host_callbacks)


class _Job:
    """One static module to compile: its signature, partitioning, devices, compile options and cache key."""

    def __init__(self, module: "ir.Module", name: str, targets: "set[str] | None", device: DeviceLike | None,
                 devices: DeviceList | None, host_callbacks: Sequence[Callable[..., object]] = ()) -> None:
        self.module = module
        self.host_callbacks = tuple(host_callbacks)
        self.name = name
        self.targets = targets
        self.signature = read_signature(module)
        self.partitioning = read_partitioning(module, name)
        self.devices = choose_devices(self.partitioning, device, devices, name)
        if self.host_callbacks and len(self.devices) > 1:
            raise UnsupportedModuleError(
                f"{name} calls back into Python (ops.print) and is partitioned over {len(self.devices)} devices: "
                "a host callback runs on one device; output the value from the graph and print it after the call")
        self.options = compile_options(self.devices, self.partitioning, len(self.signature.inputs),
                                       len(self.signature.outputs))
        self.donated = donated_inputs(module)
        # The key tells the two routes apart (one device: jax.jit, under x64 where the types need it).
        route = (b"jax.jit" + (b"+x64" if needs_x64(self.signature) else b"") if len(self.devices) == 1
                 else b"client")
        self.key = executable_key(canonical_digest(module), self.devices[0],
                                  route + b":" + self.options.SerializeAsString())

    def compile(self) -> _Compiled:
        return _xla_compile(self.module, self.devices, self.options, self.name, self.targets, self.signature,
                            self.donated, self.host_callbacks)

    def program(self, compiled: _Compiled) -> CompiledProgram:
        return CompiledProgram(compiled.executable, self.devices, self.signature, self.key, self.partitioning,
                               self.donated, compiled.route, compiled.reason, compiled.dispatcher)


def _program(job: _Job, use_cache: bool, cache_dir: CacheDir, fast_key: str | None) -> tuple[CompiledProgram, str]:
    """The job's compiled program and where it came from (``"memory"``, ``"disk"`` or ``"compiled"``):
    from the caches where allowed, else compiled (and stored in them)."""
    stats = MEMORY_CACHE.stats
    if not use_cache:
        stats.compiles += 1
        return job.program(job.compile()), "compiled"
    program = MEMORY_CACHE.lookup(job.key)
    if program is not None:
        stats.hits += 1
        MEMORY_CACHE.store(job.key, program, *(k for k in (fast_key,) if k))
        return program, "memory"
    stats.misses += 1
    disk = disk_cache_for(cache_dir)
    compiled = None
    if disk is not None:
        payload = disk.load(job.key)
        if payload is not None:
            compiled = _deserialize(payload, job.devices, job.options, job.signature)
            if compiled is None:
                disk.warn(f"ignoring entry {disk.path(job.key)} that PJRT cannot deserialize; it will be rebuilt")
            else:
                stats.disk_hits += 1
                return MEMORY_CACHE.store(job.key, job.program(compiled), *(k for k in (fast_key,) if k)), "disk"
    stats.compiles += 1
    compiled = job.compile()
    if disk is not None:
        _store(disk, job.key, compiled)
    return MEMORY_CACHE.store(job.key, job.program(compiled), *(k for k in (fast_key,) if k)), "compiled"


class _Request:
    """What ``compile`` was asked for, before the module is read: the first device, and a token
    that tells apart requests that can choose different devices for the same module (``"cpu"``
    takes the platform's first N for a partitioned module, ``"cpu:0"`` names one device)."""

    __slots__ = ("device", "token")

    def __init__(self, device: "jax.Device", token: bytes) -> None:
        self.device = device
        self.token = token


def _request(device: DeviceLike | None, devices: DeviceList | None) -> _Request:
    from .partitioning import resolve_devices

    if devices is not None:
        chosen = resolve_devices(devices)
        return _Request(chosen[0], b"devices:" + ",".join(str(d.id) for d in chosen).encode())
    first = resolve_device(device if device is not None else "cpu")
    platform = device is None or (isinstance(device, str) and ":" not in device)
    return _Request(first, (b"platform:" if platform else b"device:") + str(first.id).encode())


# A disk entry starts with the route it was compiled by: its payload is jax's serialized
# ``Compiled`` (``jax.experimental.serialize_executable``) or the client executable's bytes.
_ROUTE_TAGS = {"jax.jit": b"J", "client": b"C"}


def _deserialize(payload: bytes, devices: "Sequence[jax.Device]", options: "CompileOptions",
                 signature: "Signature") -> "_Compiled | None":
    try:
        tag, body = payload[:1], payload[1:]
        if tag == _ROUTE_TAGS["jax.jit"] and len(devices) == 1:
            return _Compiled(deserialize(body, devices[0], signature), "jax.jit")
        if tag == _ROUTE_TAGS["client"]:
            client = devices[0].client
            return _Compiled(client.deserialize_executable(body, list(devices), options), "client")
    except Exception:  # noqa: BLE001 - any failure: treat the entry as corrupt
        return None
    return None


def _store(disk: "DiskCache", key: str, compiled: _Compiled) -> None:
    try:
        executable = compiled.executable
        body = (serialize(cast("jax.stages.Compiled", executable)) if compiled.route == "jax.jit"
                else cast("ClientExecutable", executable).serialize())
    except Exception as e:  # noqa: BLE001 - a platform without serialization: no disk entry
        body = None
        reason = str(e)
    else:
        reason = "jax cannot serialize this executable"
    if body is None:
        disk.warn(f"cannot serialize executables on this platform ({reason})")
        return
    disk.store(key, _ROUTE_TAGS[compiled.route] + body)



# -- graphs ------------------------------------------------------------------------------------
# A graph compiles here, as MAX's engine compiles a graph (``InferenceSession.load``): ``Graph`` builds
# the module, and ``Graph.compile`` and ``latticecast.max.engine`` ask this layer for a model of it.


class _Mesh(Protocol):
    """What the compiler reads of a graph's mesh: its devices (``None`` for an ``AbstractMesh``)."""

    @property
    def devices(self) -> "tuple[jax.Device, ...] | None": ...


class CompilableGraph(Protocol):
    """What :func:`compile_graph` reads of a graph (:class:`latticecast.Graph` is one): its name, why it
    does not compile (if it does not), its devices, mesh and module after the pass, the names of its inputs
    and the Python functions its host callbacks call."""

    @property
    def name(self) -> str: ...
    @property
    def compile_refusals(self) -> tuple[str, ...]: ...
    @property
    def device(self) -> DeviceRef: ...
    @property
    def devices(self) -> list[DeviceRef]: ...
    @property
    def multi_device(self) -> bool: ...
    @property
    def layout(self) -> _Mesh | None: ...
    @property
    def module(self) -> "ir.Module": ...
    @property
    def input_names(self) -> tuple[str, ...] | None: ...
    @property
    def host_callbacks(self) -> Sequence[Callable[..., object]]: ...


def compile_graph(graph: CompilableGraph, device: "DeviceRefLike | jax.Device | None" = None, *,
                  devices: DeviceList | None = None) -> "Model | PolymorphicModel":
    """Compile a finished graph with PJRT (what :meth:`latticecast.Graph.compile` does).

    ``device`` defaults to the graph's device (the one its input types name, the CPU if none does): a
    :class:`~latticecast.DeviceRef` (MAX's too), a runtime name (``"cpu"``, ``"gpu:1"``) or a ``jax.Device``.
    A graph over a concrete mesh runs on the mesh's devices unless ``device`` or ``devices`` says otherwise;
    over an ``AbstractMesh``, on the first ``mesh.size`` devices of the graph's platform. A multi-device graph
    (no mesh) runs on its first device, its first accelerator beside CPUs (:func:`multi_device_target`).

    Args:
        graph: A graph with its output given.
        device: Where it runs.
        devices: The devices of a graph over a mesh.

    Returns:
        A :class:`Model`, or a :class:`PolymorphicModel` for a graph with symbolic dimensions.

    Raises:
        GraphError: The graph was made to refuse compiling (``Graph.refuse_compile``), or has no output.
        DeviceNotFoundError: A device it needs is not present.
        CompileError: XLA could not compile it.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType
        >>> from latticecast.runtime.compiler import compile_graph
        >>> with Graph("double", input_types=[TensorType(DType.int32, [2])]) as g:
        ...     g.output(g.inputs[0] * 2)
        >>> compile_graph(g, "cpu")(np.array([1, 2], np.int32))
        [array([2, 4], dtype=int32)]
    """
    from ..errors import GraphError

    refusals = graph.compile_refusals
    if refusals:
        raise GraphError(f"graph {graph.name!r} does not compile: {refusals[0]}")
    if device is None and devices is None and graph.multi_device and graph.layout is None:
        device = multi_device_target(graph)[1]
    if device is None and graph.layout is not None:
        devices = graph.layout.devices if devices is None else devices
        if devices is None:  # an AbstractMesh: the first mesh.size devices of the graph's platform
            device = graph.device.device_type.value
    elif device is None and devices is None:
        device = graph.device
    return compile(graph.module, None if device is None else _runtime_device(device), devices=devices,
                   input_names=list(graph.input_names or ()) or None, host_callbacks=graph.host_callbacks)


def multi_device_target(graph: CompilableGraph) -> "tuple[DeviceRef, jax.Device]":
    """The device a multi-device graph runs on, as its :class:`DeviceRef` and PJRT device: each
    :class:`DeviceRef` it names must be present (``DeviceRef(kind, i)`` is the ``i``-th PJRT device of that
    kind), and the program runs on its first device, its first accelerator where it names CPUs and
    accelerators (see docs/sharding.rst, "Multi-device graphs").

    Args:
        graph: A graph naming several devices.

    Returns:
        The device's :class:`DeviceRef` and its ``jax.Device``.

    Raises:
        DeviceNotFoundError: A device the graph names is not present (the message names those present).

    Example:
        >>> from latticecast import DType, Graph, TensorType
        >>> from latticecast.runtime.compiler import multi_device_target
        >>> multi_device_target(Graph("g", input_types=[TensorType(DType.float32, [2])]))[0]
        cpu:0
    """
    from .devices import available_devices
    from .runtime_errors import DeviceNotFoundError

    needed = ", ".join(map(str, graph.devices))
    kinds = {d.device_type for d in graph.devices}
    found: list[jax.Device] = []
    missing: list[str] = []
    for d in graph.devices:
        try:
            found.append(resolve_device(str(d)))
        except DeviceNotFoundError:
            missing.append(str(d))
    if missing:
        present = available_devices()
        hint = (" For CPU devices, start Python with XLA_FLAGS=--xla_force_host_platform_device_count=N."
                if all(d.is_cpu() for d in graph.devices) else "")
        raise DeviceNotFoundError(
            f"graph {graph.name!r} places values on {needed}, and {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not present (devices present: {', '.join(present)}); "
            f"run it where those devices exist, or transfer its values to the devices present "
            f"(ops.transfer_to).{hint}", requested=missing, available=present)
    if len(kinds) > 1:  # host values beside an accelerator's (MAX's CPU scalars): the accelerator runs them
        return next((d, f) for f, d in zip(found, graph.devices) if not d.is_cpu())
    return graph.devices[0], found[0]


def _runtime_device(device: "DeviceRefLike | jax.Device") -> "DeviceLike":
    """``device`` as :func:`compile` takes it: a name or a ``jax.Device`` as they are; a DeviceRef (ours or
    MAX's, or a MAX driver device) as its name, ``"gpu:1"``."""
    if isinstance(device, str) or hasattr(device, "client"):
        return device
    return str(DeviceRef.parse(device))
