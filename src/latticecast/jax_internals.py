"""Every private jax / jaxlib name latticecast uses, in one place.

Public APIs come first (``jax.extend.backend``, ``jax.sharding``, ``jax.errors``,
``jaxlib.mlir.dialects.*``); what has no public spelling is imported here and
nowhere else:

====================================  ===========================================================
name                                  why
====================================  ===========================================================
``_jax_mlir_ext.register_dialects``   the upstream dialects of JAX's MLIR contexts (func, arith, ...)
``_jax.DeviceList``                   ``Client.compile_and_load`` takes devices as one
``_jax.GSPMDSharding``                a ``jax.sharding.Sharding`` for the ``OpSharding`` XLA reports per
                                      parameter and result of a partitioned executable (what ``jax.jit``
                                      wraps them in; ``jax.sharding`` no longer exports it)
``_jax.batched_device_put``           the cheapest host-to-device transfer (what ``jax.device_put`` calls)
``_jax.array_result_handler``         wraps result buffers as ``jax.Array`` without a Python round trip
``_jax.HostBufferSemantics``          lets PJRT's CPU client use a private host array in place
``_jax.pjit``, ``PjitFunctionCache``  jaxlib's C++ dispatcher: ``jax.jit``'s fast path after the first call
``pxla.MeshExecutableFastpathData``   what the dispatcher needs to run an executable in C++ alone
``pxla.JitGlobalCppCacheKeys``,       the dispatcher's other arguments
``pxla.cc_shard_arg``
``tree_util.dispatch_registry``       the pytree registry the dispatcher flattens with
``config.enable_x64``                 x64 must be on while 64-bit inputs pass the dispatcher
``xla_bridge._backend_errors``        why a GPU plug-in that is installed failed to start
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

Nothing here falls back silently. If a jax upgrade moves a name, :data:`MISSING` says
which and why; the runtime then warns once (``RuntimeWarning``) and runs on the plain
path, which needs only public names, and ``tests/test_jax_internals.py`` fails, so the
move is noticed in CI rather than as a slowdown.

Importing this module loads only jaxlib (MLIR tools such as ``latticecast-opt`` need no
more); what needs ``jax`` itself, which takes a second to import, loads on first use.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import warnings
from typing import Any

# XLA's C++ logging reads TF_CPP_MIN_LOG_LEVEL once, when jaxlib's libraries load; ``import jax``
# sets JAX's default (1: no INFO lines) just before it loads them. latticecast writes no
# environment variable itself: it loads jaxlib here, through jax, so a program using latticecast
# logs exactly as a program using JAX does. A command-line tool that has set the level already
# (``latticecast-opt``) skips the import of jax, which it does not need.
if "jax" not in sys.modules and "TF_CPP_MIN_LOG_LEVEL" not in os.environ:
    import jax  # noqa: F401

from jaxlib import _jax
from jaxlib.mlir._mlir_libs import _jax_mlir_ext

__all__ = ["MISSING", "fastpath", "DeviceList", "GSPMDSharding", "batched_device_put", "array_result_handler", "ZERO_COPY",
           "backend_errors", "require_fastpath", "INIT_LOCK", "register_upstream_dialects", "lapack_targets",
           "prepare_lapack", "registered_custom_call_targets", "lazily_registered_cpu_targets", "gspmd_device_count", "NAMES"]

INIT_LOCK = threading.RLock()
"""Held while the runtime first touches jax's backends: jax's lazy initialisation is not safe to
start from several threads at once (a partial import, or a crash in the first compile)."""

MISSING: dict[str, str] = {}
"""Private names this jax/jaxlib lacks, with the error: empty on a supported version."""

DeviceList = _jax.DeviceList
GSPMDSharding = _jax.GSPMDSharding


def _get(what: str, getter: Any) -> Any:
    try:
        return getter()
    except (ImportError, AttributeError) as e:
        MISSING[what] = f"{type(e).__name__}: {e}"
        return None


batched_device_put = _get("jaxlib._jax.batched_device_put", lambda: _jax.batched_device_put)
array_result_handler = _get("jaxlib._jax.array_result_handler", lambda: _jax.array_result_handler)
ZERO_COPY = _get("jaxlib._jax.HostBufferSemantics.ZERO_COPY", lambda: _jax.HostBufferSemantics.ZERO_COPY)
register_upstream_dialects = _get("jaxlib.mlir._mlir_libs._jax_mlir_ext.register_dialects",
                                  lambda: _jax_mlir_ext.register_dialects)


class _Fastpath:
    """The dispatcher's pieces, as one namespace (``None`` when any is missing)."""

    def __init__(self) -> None:
        from jax._src import config as jax_config
        from jax._src import tree_util
        from jax._src.interpreters import pxla

        self.pjit = _jax.pjit
        self.function_cache = _jax.PjitFunctionCache
        self.fastpath_data = pxla.MeshExecutableFastpathData
        self.cache_keys = pxla.JitGlobalCppCacheKeys
        self.shard_arg = pxla.cc_shard_arg
        self.registry = tree_util.dispatch_registry
        self.enable_x64 = jax_config.enable_x64
        fields = getattr(self.fastpath_data, "_fields", ())
        expected = ("xla_executable", "out_pytree_def", "in_shardings", "out_shardings", "out_avals",
                    "out_committed", "kept_var_bitvec", "in_device_local_layouts", "const_args")
        if tuple(fields) != expected:
            raise AttributeError(f"pxla.MeshExecutableFastpathData has fields {fields}, not {expected}")


@functools.cache
def fastpath() -> _Fastpath | None:
    """The dispatcher's pieces (importing jax), or ``None`` where this jax lacks them (see :data:`MISSING`)."""
    return _get("the C++ dispatch fast path (jax._src.interpreters.pxla, jaxlib._jax.pjit)", _Fastpath)


def backend_errors() -> dict[str, str]:
    """Platforms whose plug-in is installed but failed to start, with the reason."""
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
    "jaxlib.mlir._mlir_libs._jax_mlir_ext.register_dialects", "jaxlib._jax.DeviceList", "jaxlib._jax.GSPMDSharding", "jaxlib._jax.batched_device_put", "jaxlib._jax.array_result_handler",
    "jaxlib._jax.HostBufferSemantics.ZERO_COPY", "jaxlib._jax.pjit", "jaxlib._jax.PjitFunctionCache",
    "jax._src.interpreters.pxla.MeshExecutableFastpathData", "jax._src.interpreters.pxla.JitGlobalCppCacheKeys",
    "jax._src.interpreters.pxla.cc_shard_arg", "jax._src.tree_util.dispatch_registry",
    "jax._src.config.enable_x64", "jax._src.xla_bridge._backend_errors", "jaxlib.lapack.registrations",
    "jaxlib.lapack.prepare_lapack_call", "jaxlib.cpu_sparse.registrations", "jaxlib.xla_client.custom_call_targets",
    "jaxlib.xla_client.HloSharding",
)
"""Every private name above, dotted: ``tests/test_jax_internals.py`` imports each one, so a jax
upgrade that moves one fails a test instead of slowing or breaking the runtime."""

_warned = False


def require_fastpath() -> _Fastpath | None:
    """The fast path, or ``None`` after warning once that this jax moved what it needs."""
    global _warned
    found = fastpath()
    if found is None and not _warned:
        import jax

        _warned = True
        warnings.warn(f"latticecast runs models on its plain path (slower per call): jax {jax.__version__} lacks "
                      f"{'; '.join(f'{k} ({v})' for k, v in MISSING.items())}", RuntimeWarning, stacklevel=3)
    return found
