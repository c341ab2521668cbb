"""Every private jax / jaxlib name latticecast uses, in one place, each with a public alternative.

The runtime's call paths rest on public APIs (``jax.export``, ``jax.jit``'s AOT
``Compiled``, ``jax.device_put``, ``jax.make_array_from_single_device_arrays`` and the
client's ``compile_and_load``/``execute_sharded``). What has no public spelling, or whose
public spelling is slower, is imported here and nowhere else, and each use is gated on the
jax versions it was tested with (:data:`TESTED_JAX`):

====================================  ===========================================================
name                                  why, and the public alternative when it is absent
====================================  ===========================================================
``_jax_mlir_ext.register_dialects``   the upstream dialects of JAX's MLIR contexts (func, arith,
                                      ...); no alternative: without it no module parses
``_mlir_libs._stablehlo`` (``_chlo``,  registers JAX's own dialects without importing their generated
``_mlirHlo``, ``_sdy``, ``_sdyMpmd``)  Python op classes (a fifth of ``latticecast-opt``'s start-up);
                                      else: ``register_dialect`` of the public ``jaxlib.mlir.dialects``
``_jax.DeviceList``                   the device list ``compile_and_load`` takes with an
                                      ``ir.Module``; else: the module's text with a plain list
``_jax.GSPMDSharding``                a ``jax.sharding.Sharding`` for the ``OpSharding`` XLA reports
                                      per parameter and result of a partitioned executable; else:
                                      :func:`sharding_of` builds a ``NamedSharding`` over a mesh
                                      shaped like the tile assignment
``_jax.batched_device_put``           one C++ call that sends the tiles of a host array to their
                                      devices; else: ``jax.device_put(array, sharding)``
``_jax.array_result_handler``         wraps result buffers as ``jax.Array`` s in C++ (its
                                      ``_skip_checks`` argument exists before jaxlib 0.11 only);
                                      else: ``disassemble_into_single_device_arrays`` and
                                      ``jax.make_array_from_single_device_arrays``
``_jax.HostBufferSemantics``          lets PJRT's CPU client use a private host array in place
``_jax.mlir.serialize_portable_artifact``  what ``jax.export`` serializes a module with: it writes
                                      ``chlo`` ops and Shardy's ``sdy`` too; else: StableHLO's public
                                      serializer, which refuses both (such a module then runs on the
                                      client path)
``xla_bridge._backend_errors``        why a GPU plug-in that is installed failed to start; else:
                                      the error is not quoted
``jaxlib.lapack.registrations``       the custom-call targets of jaxlib's CPU LAPACK kernels
``jaxlib.lapack.prepare_lapack_call`` gives those kernels their LAPACK routines (from SciPy):
                                      registered but not prepared, they crash the process when run
                                      (``jax.jit`` calls it while lowering linalg)
``jaxlib.cpu_sparse.registrations``   jaxlib's CPU sparse kernels, which only an import of
                                      ``jax.experimental.sparse`` registers
``xla_client.custom_call_targets``    the targets registered for a platform (listed when a module
                                      calls one that is not)
``xla_client.HloSharding``            reads a GSPMD ``mhlo.sharding`` string (how many devices it spans)
====================================  ===========================================================

:data:`NAMES` lists them all, dotted, for ``tests/test_jax_internals.py``.

Nothing here falls back silently, and nothing fails. On a jax outside :data:`TESTED_JAX`
(or with ``LATTICECAST_PUBLIC_ONLY=1`` in the environment) the gated names are not used at
all: :data:`MISSING` says why, and the runtime takes the public alternative of each, perhaps
more slowly. If a tested jax moves a name, :data:`MISSING` says which and why, the runtime
again takes the public alternative, and ``tests/test_jax_internals.py`` fails, so the move is
noticed in CI rather than as a slowdown.

Importing this module loads only jaxlib (MLIR tools such as ``latticecast-opt`` need no
more); what needs ``jax`` itself, which takes a second to import, loads on first use.
"""

from __future__ import annotations

import importlib
import itertools
import os
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeAlias

# XLA's C++ logging reads TF_CPP_MIN_LOG_LEVEL once, when jaxlib's libraries load; ``import jax``
# sets JAX's default (1: no INFO lines) just before it loads them. latticecast writes no
# environment variable itself: it loads jaxlib here, through jax, so a program using latticecast
# logs exactly as a program using JAX does. A command-line tool that has set the level already
# (``latticecast-opt``) skips the import of jax, which it does not need.
if "jax" not in sys.modules and "TF_CPP_MIN_LOG_LEVEL" not in os.environ:
    import jax  # noqa: F401

import jaxlib.version as _jaxlib_version

from . import _versions
from jaxlib.mlir._mlir_libs import _jax_mlir_ext

__all__ = ["MISSING", "TESTED_JAX", "JAXLIB_VERSION", "PRIVATE_ALLOWED", "DeviceList", "GSPMDSharding",
           "batched_device_put", "ZERO_COPY", "result_handler", "compile_on", "sharding_of", "backend_errors",
           "portable_artifact",
           "INIT_LOCK", "register_upstream_dialects", "register_jax_dialects", "register_shardy_dialects",
           "lapack_targets", "prepare_lapack",
           "registered_custom_call_targets", "lazily_registered_cpu_targets", "gspmd_device_count", "NAMES"]

if TYPE_CHECKING:
    import jax
    import jax.core
    import jax.sharding
    from jaxlib import xla_client
    from jaxlib.mlir import ir

Jaxlib: TypeAlias = Any
"""A name of jaxlib's compiled extension (``jaxlib._jax``) found at run time, or what one returns (a result
handler): ``Any`` deliberately, because that extension ships no type stubs. Where jaxlib names the class
(``xla_client.LoadedExecutable``, ``jax.Device``), the signatures below use that name; a type checker sees it
as ``Any`` too until jaxlib ships stubs."""

INIT_LOCK = threading.RLock()
"""Held while the runtime first touches jax's backends: jax's lazy initialisation is not safe to
start from several threads at once (a partial import, or a crash in the first compile)."""

def _version(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(itertools.takewhile(str.isdigit, piece))
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


JAXLIB_VERSION = _version(getattr(_jaxlib_version, "__version__", "0"))
"""The installed jaxlib's version, as a tuple (``(0, 12, 0)``)."""

TESTED_JAX = _versions.tested_ranges().get("jaxlib", [])
"""The jaxlib versions the gated names were tested with: latticecast's own requirement on jaxlib
(pyproject.toml, read from the installed metadata), e.g. ``[(">=", "0.10.2"), ("<", "0.13")]``."""

_TESTED = bool(TESTED_JAX) and _versions.satisfies(getattr(_jaxlib_version, "__version__", "0"), TESTED_JAX)
_PUBLIC_ONLY = os.environ.get("LATTICECAST_PUBLIC_ONLY", "") not in ("", "0")
PRIVATE_ALLOWED = _TESTED and not _PUBLIC_ONLY
"""Whether the gated names may be used: a tested jaxlib, and ``LATTICECAST_PUBLIC_ONLY`` unset.
Otherwise every runtime path takes its public alternative."""

MISSING: dict[str, str] = {}
"""Private names not used on this jax, with the reason: empty on a supported version."""


def _get(what: str, getter: Callable[[], Jaxlib], *, gated: bool = True) -> Jaxlib:
    if gated and not PRIVATE_ALLOWED:
        MISSING[what] = ("not used: LATTICECAST_PUBLIC_ONLY is set" if _PUBLIC_ONLY
                         else f"not used: jaxlib {getattr(_jaxlib_version, '__version__', '?')} is outside the "
                              f"tested range jaxlib{_versions.format_range(TESTED_JAX)}")
        return None
    try:
        return getter()
    except (ImportError, AttributeError) as e:
        MISSING[what] = f"{type(e).__name__}: {e}"
        return None


_FROM_JAXLIB_JAX: dict[str, str] = {
    "DeviceList": "DeviceList",
    "GSPMDSharding": "GSPMDSharding",
    "batched_device_put": "batched_device_put",
    "_array_result_handler": "array_result_handler",
    "ZERO_COPY": "HostBufferSemantics.ZERO_COPY",
    "_serialize_portable_artifact": "mlir.serialize_portable_artifact",
}
"""The names of jaxlib's compiled runtime extension (``jaxlib._jax``) this module holds, each with its
dotted path in that extension, found on first use (as a module attribute, :func:`__getattr__`): loading
the extension takes about 10 ms, and MLIR tools such as ``latticecast-opt`` use none of it. Each then
stays a module attribute (tests replace it)."""


def __getattr__(name: str) -> Jaxlib:
    """One of :data:`_FROM_JAXLIB_JAX`, found now (``None`` where it is not used: :data:`MISSING` says why)."""
    path = _FROM_JAXLIB_JAX.get(name)
    if path is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def find() -> Jaxlib:
        from jaxlib import _jax

        found: Jaxlib = _jax
        for part in path.split("."):
            found = getattr(found, part)
        return found

    value = globals()[name] = _get(f"jaxlib._jax.{path}", find)
    return value


def _jaxlib_name(name: str) -> Jaxlib:
    """A name of :data:`_FROM_JAXLIB_JAX` as this module holds it now (found on first use)."""
    return globals()[name] if name in globals() else __getattr__(name)


register_upstream_dialects = _get("jaxlib.mlir._mlir_libs._jax_mlir_ext.register_dialects",
                                  lambda: _jax_mlir_ext.register_dialects, gated=False)

_DIALECT_LIBRARIES = (("_sdy", "register_dialect", "sdy", "register_dialect"),
                      ("_sdyMpmd", "register_dialect", "mpmd", "register_dialect"),
                      ("_mlirHlo", "register_mhlo_dialect", "mhlo", "register_mhlo_dialect"),
                      ("_chlo", "register_dialect", "chlo", "register_dialect"),
                      ("_stablehlo", "register_dialect", "stablehlo", "register_dialect"))
"""JAX's own dialects: the native library and its registration function, then the public module
that re-exports it (``jaxlib.mlir.dialects.stablehlo`` is ``_stablehlo`` plus generated op classes)."""


def register_jax_dialects(context: ir.Context, *, shardy: bool = True) -> None:
    """Register StableHLO, CHLO, MHLO, and (``shardy``) Shardy's ``sdy`` and ``mpmd`` in ``context``
    (an ``ir.Context``); :func:`register_shardy_dialects` adds the last two later.

    The native registration functions are called directly where the jaxlib is a tested one:
    importing the public dialect modules would also load their generated op classes, which
    nothing that parses, runs passes and prints needs. Elsewhere (or with
    ``LATTICECAST_PUBLIC_ONLY=1``) the public modules register them.
    """
    for entry in _DIALECT_LIBRARIES:
        if shardy or not entry[0].startswith("_sdy"):
            _register_library(context, *entry)


def register_shardy_dialects(context: ir.Context) -> None:
    """Register Shardy's ``sdy`` and ``mpmd`` dialects in ``context`` (left out of
    :func:`register_jax_dialects` with ``shardy=False``): from jaxlib 0.11 on, their native libraries
    load their generated Python op classes too, a tenth of a small ``latticecast-opt`` run."""
    for entry in _DIALECT_LIBRARIES:
        if entry[0].startswith("_sdy"):
            _register_library(context, *entry)


def _register_library(context: ir.Context, library: str, function: str, public: str, public_function: str) -> None:
    register = None
    # Shardy's native libraries import their public module while they initialise from jaxlib
    # 0.11 on (so they save nothing there), and, loaded first, would leave that module without
    # the attribute classes it re-exports. Before 0.11 they load alone, and the public module
    # imported later is whole (tests/test_jax_internals.py checks both).
    if PRIVATE_ALLOWED and (not library.startswith("_sdy") or JAXLIB_VERSION < (0, 11, 0)):
        try:
            register = getattr(importlib.import_module(f"jaxlib.mlir._mlir_libs.{library}"), function)
        except (ImportError, AttributeError) as e:
            MISSING[f"jaxlib.mlir._mlir_libs.{library}.{function}"] = f"{type(e).__name__}: {e}"
    if register is None:
        register = getattr(importlib.import_module(f"jaxlib.mlir.dialects.{public}"), public_function)
    register(context)


def result_handler(aval: jax.core.ShapedArray, sharding: jax.sharding.Sharding) -> Jaxlib:
    """jaxlib's C++ handler that wraps an output's buffers as a ``jax.Array`` (``consume_with_handlers``),
    or ``None`` where it is not used: the caller then assembles the arrays with public calls.

    jaxlib before 0.11 takes ``_skip_checks`` (skip re-checking what the executable guarantees);
    0.11 and later take three arguments.
    """
    handler = _jaxlib_name("_array_result_handler")
    if handler is None:
        return None
    if JAXLIB_VERSION < (0, 11, 0):
        return handler(aval, sharding, True, _skip_checks=True)
    return handler(aval, sharding, True)


def portable_artifact(bytecode: bytes, *, mixed: bool = True) -> bytes:
    """A StableHLO portable artifact of a module's bytecode, for the installed jaxlib (what
    ``jax.export`` puts in ``Exported.mlir_module_serialized``). Where it is used, jaxlib's own
    serializer, which ``jax.export`` calls (``mixed``: ``sdy`` ops and attributes are kept as they
    are, as JAX does when its backend serializes with Shardy); else StableHLO's public
    ``serialize_portable_artifact_str``, which takes StableHLO only. Call it inside an MLIR context."""
    from jaxlib.mlir.dialects import stablehlo

    target = stablehlo.get_current_version()
    serialize = _jaxlib_name("_serialize_portable_artifact")
    if serialize is not None:
        return bytes(serialize(bytecode, target, mixed))
    return bytes(stablehlo.serialize_portable_artifact_str(bytecode, target))


def compile_on(devices: Sequence[jax.Device], module: ir.Module, options: xla_client.CompileOptions,
               host_callbacks: Sequence[Callable[..., object]] = ()) -> xla_client.LoadedExecutable:
    """``compile_and_load`` of an ``ir.Module`` for ``devices``: with jaxlib's ``DeviceList`` where it
    is used, else (public) the module's bytecode and a plain list of devices. ``host_callbacks`` are
    the Python functions the module's ``xla_ffi_python_*_callback`` custom calls index (jax's
    ``compiler.backend_compile_and_load`` passes its lowering's callbacks the same way)."""
    client = devices[0].client
    extra = {"host_callbacks": list(host_callbacks)} if host_callbacks else {}
    device_list = _jaxlib_name("DeviceList")
    if device_list is not None:
        return client.compile_and_load(module, device_list(tuple(devices)), options, **extra)
    import io

    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    return client.compile_and_load(buffer.getvalue(), list(devices), options, **extra)


def sharding_of(op_sharding: xla_client.OpSharding | xla_client.HloSharding,
                devices: Sequence[jax.Device]) -> jax.sharding.Sharding:
    """A ``jax.sharding.Sharding`` for an ``OpSharding`` that XLA reports, over ``devices`` in partition
    order: jaxlib's ``GSPMDSharding`` where it is used, else (public) a ``NamedSharding``.

    The ``NamedSharding``'s mesh holds ``devices`` in partition order, as ``execute_sharded`` needs
    its arguments' buffers; XLA's iota tile assignments (``{devices=[2,1,4]<=[4,2]T(1,0)
    last_tile_dim_replicate}``, what the partitioner writes) become mesh axes, split where a tile
    dimension takes part of one. An explicit device list that is not in partition order has no
    such mesh: :class:`ValueError`.
    """
    gspmd_sharding, device_list = _jaxlib_name("GSPMDSharding"), _jaxlib_name("DeviceList")
    if gspmd_sharding is not None and device_list is not None:
        gspmd: jax.sharding.Sharding = gspmd_sharding(device_list(tuple(devices)), op_sharding)  # a Sharding subclass
        return gspmd
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec, SingleDeviceSharding
    from jaxlib import xla_client

    hlo = (op_sharding if isinstance(op_sharding, xla_client.HloSharding)
           else xla_client.HloSharding.from_proto(op_sharding))
    in_order = np.array(list(devices), dtype=object)
    if hlo.is_replicated():
        return NamedSharding(Mesh(in_order, ("replicated",)), PartitionSpec())
    if hlo.is_maximal():
        return SingleDeviceSharding(devices[list(hlo.tile_assignment_devices())[0]])
    tile_dims = [int(d) for d in hlo.tile_assignment_dimensions()]
    rank = len(tile_dims) - (1 if hlo.replicate_on_last_tile_dim() else 0) - len(hlo.subgroup_types())
    found = _iota_mesh(str(hlo), tile_dims)
    if found is None:
        order = [int(d) for d in hlo.tile_assignment_devices()]
        if order != sorted(order):
            raise ValueError(f"the sharding {hlo} lists its devices out of partition order; latticecast's public "
                             f"runtime path cannot lay arrays out for it (a tested jaxlib can: pip install "
                             f"\"jaxlib{_versions.format_range(TESTED_JAX)}\")")
        names = tuple(f"tile{i}" for i in range(len(tile_dims)))
        mesh = Mesh(in_order.reshape(tile_dims), names)
        return NamedSharding(mesh, PartitionSpec(*(names[i] if tile_dims[i] > 1 else None for i in range(rank))))
    sizes, axis_names, groups = found
    spec = [None if not groups[i] else groups[i][0] if len(groups[i]) == 1 else tuple(groups[i]) for i in range(rank)]
    return NamedSharding(Mesh(in_order.reshape(sizes), tuple(axis_names)), PartitionSpec(*spec))


def _iota_mesh(text: str, tile_dims: list[int]) -> tuple[list[int], list[str], list[list[str]]] | None:
    """For an iota tile assignment ``<=[reshape]T(perm)``: the mesh's axis sizes and names (the reshape
    dimensions, split where needed) and, per tile dimension, the axes it is sharded over."""
    import re

    match = re.search(r"<=\[([\d,]+)\](?:T\(([\d,]+)\))?", text)
    if match is None:
        return None
    reshape = [int(x) for x in match.group(1).split(",")]
    perm = [int(x) for x in match.group(2).split(",")] if match.group(2) else list(range(len(reshape)))
    pieces: list[list[list[int]]] = [[[size]] for size in reshape]  # per reshape axis: its parts, major first
    queue = [(axis, pieces[axis][0]) for axis in perm]  # the transposed axes, each a mutable [size]
    groups: list[list[list[int]]] = []
    for want in tile_dims:
        group: list[list[int]] = []
        while want > 1:
            if not queue:
                return None
            axis, part = queue[0]
            size = part[0]
            if size == 1:
                queue.pop(0)
            elif want % size == 0:
                group.append(part)
                queue.pop(0)
                want //= size
            elif size % want == 0:  # this tile dimension takes the major part of the axis
                major = [want]
                part[0] = size // want
                parts = pieces[axis]
                parts.insert(next(i for i, p in enumerate(parts) if p is part), major)
                group.append(major)
                want = 1
            else:
                return None
        groups.append(group)
    names: dict[int, str] = {}
    sizes: list[str | int] = []
    for axis, parts in enumerate(pieces):
        for k, part in enumerate(parts):
            names[id(part)] = f"a{axis}_{k}"
            sizes.append(part[0])
    return ([int(x) for x in sizes], [names[id(p)] for parts in pieces for p in parts],
            [[names[id(p)] for p in group if p[0] > 1] for group in groups])


def backend_errors() -> dict[str, str]:
    """Platforms whose plug-in is installed but failed to start, with the reason."""
    if not PRIVATE_ALLOWED:
        return {}
    try:
        from jax._src import xla_bridge
        return dict(getattr(xla_bridge, "_backend_errors", {}) or {})
    except ImportError as e:
        MISSING["jax._src.xla_bridge._backend_errors"] = f"{type(e).__name__}: {e}"
        return {}


def lapack_targets() -> frozenset[str]:
    """The custom-call targets of jaxlib's CPU LAPACK kernels (``lapack_spotrf_ffi``, ...): the
    ones :func:`prepare_lapack` must run before. Empty (and noted in :data:`MISSING`) where this
    jaxlib does not say."""
    try:
        import jaxlib.lapack

        return frozenset(name for name, _, _ in jaxlib.lapack.registrations().get("cpu", ()))
    except (ImportError, AttributeError, TypeError, ValueError) as e:
        MISSING["jaxlib.lapack.registrations"] = f"{type(e).__name__}: {e}"
        return frozenset()


def prepare_lapack() -> None:
    """Give jaxlib's CPU LAPACK kernels their routines. ``import jax`` registers the kernels
    with XLA, but their function pointers stay null (running one is a segmentation fault)
    until this runs; it loads them from SciPy, so it raises ``ImportError`` without SciPy.
    Idempotent: jax calls it every time it lowers a linalg op."""
    import jaxlib.lapack
    import numpy as np

    jaxlib.lapack.prepare_lapack_call("potrf_ffi", np.dtype(np.float32))


_LAZY_CPU_KERNELS = {"jaxlib.cpu_sparse": "jax.experimental.sparse"}
"""jaxlib's CPU kernel modules that ``import jax`` does not register, and the public jax module
whose import does (as it does when jax itself lowers one of their ops)."""


def lazily_registered_cpu_targets() -> dict[str, str]:
    """Custom-call target -> the module to import to register it, for jaxlib's CPU kernels that
    ``import jax`` leaves unregistered (``cpu_csr_sparse_dense_ffi``: ``jax.experimental.sparse``)."""
    import importlib

    found: dict[str, str] = {}
    for kernels, registrar in _LAZY_CPU_KERNELS.items():
        try:
            module = importlib.import_module(kernels)
            found.update({name: registrar for name, _, _ in module.registrations().get("cpu", ())})
        except (ImportError, AttributeError, TypeError, ValueError) as e:
            MISSING[f"{kernels}.registrations"] = f"{type(e).__name__}: {e}"
    return found


def registered_custom_call_targets(platform: str) -> frozenset[str] | None:
    """The custom-call targets XLA has registered for ``platform`` (``"cpu"``, ``"cuda"``), or
    ``None`` where this jaxlib cannot list them. The platform's client must exist already:
    creating it registers the targets jax queued at import."""
    try:
        from jaxlib import xla_client

        return frozenset(xla_client.custom_call_targets(platform))
    except (ImportError, AttributeError) as e:
        MISSING["jaxlib.xla_client.custom_call_targets"] = f"{type(e).__name__}: {e}"
        return None
    except Exception:  # noqa: BLE001 - a platform name XLA does not know: nothing to list
        return None


def gspmd_device_count(sharding: str) -> int | None:
    """How many devices a GSPMD sharding (``"{devices=[4,2]<=[8]}"``, ``"{maximal device=3}"``) needs:
    one more than the highest device it names; ``None`` for text XLA cannot read (XLA reports that
    itself when it compiles) or where this jaxlib cannot say (noted in :data:`MISSING`)."""
    try:
        from jaxlib import xla_client

        parsed = xla_client.HloSharding.from_string(sharding)
    except (ImportError, AttributeError) as e:
        MISSING["jaxlib.xla_client.HloSharding"] = f"{type(e).__name__}: {e}"
        return None
    except Exception:  # noqa: BLE001 - not a sharding XLA can parse
        return None
    devices = parsed.tile_assignment_devices()
    return max(devices) + 1 if devices else 1


NAMES: tuple[str, ...] = (
    "jaxlib.mlir._mlir_libs._jax_mlir_ext.register_dialects",
    *(f"jaxlib.mlir._mlir_libs.{library}.{function}" for library, function, _, _ in _DIALECT_LIBRARIES),
    "jaxlib._jax.DeviceList", "jaxlib._jax.GSPMDSharding",
    "jaxlib._jax.batched_device_put", "jaxlib._jax.array_result_handler", "jaxlib._jax.HostBufferSemantics.ZERO_COPY",
    "jaxlib._jax.mlir.serialize_portable_artifact",
    "jax._src.xla_bridge._backend_errors", "jaxlib.lapack.registrations", "jaxlib.lapack.prepare_lapack_call",
    "jaxlib.cpu_sparse.registrations", "jaxlib.xla_client.custom_call_targets", "jaxlib.xla_client.HloSharding",
)
"""Every private name above, dotted: ``tests/test_jax_internals.py`` imports each one, so a jax
upgrade that moves one fails a test instead of slowing the runtime."""
