"""Custom calls in a module JAX wrote: what must be ready before it runs, and what cannot run here.

``stablehlo.custom_call @target`` calls a kernel that XLA looks up by name when it
compiles. JAX writes three kinds, and each needs something different of a runtime that
compiles the module outside ``jax.jit``:

* **jaxlib's CPU kernels** (``jnp.linalg``: ``lapack_spotrf_ffi``, ``lapack_sgesdd_ffi``, ...;
  ``jax.experimental.sparse``: ``cpu_csr_sparse_dense_ffi``). ``import jax`` registers the
  LAPACK kernels with XLA, so the module compiles, but their LAPACK routines are loaded
  from SciPy only when jax lowers a linalg op itself. Run without that, a kernel calls a
  null pointer: the process dies with a segmentation fault. The sparse kernels are
  registered only by ``import jax.experimental.sparse``. :func:`prepare_custom_calls`
  does both (once each) before such a module is compiled.
* **Host callbacks** (``jax.debug.print``, ``jax.debug.callback``, ``io_callback``,
  ``pure_callback``): ``@xla_ffi_python_cpu_callback`` and its relatives call a Python
  function that lives in the process that lowered the module; the module carries only an
  index into that process's table. Run anywhere else, the call jumps into nothing (a
  segmentation fault too). They are refused before compiling.
* **Tokens**: an *ordered* effect (``jax.debug.print(..., ordered=True)``,
  ``io_callback(..., ordered=True)``) threads a ``!stablehlo.token`` through ``@main``'s
  arguments and results to order its callbacks; such a ``@main`` is refused with the
  same explanation.

A target that the platform does not know at all is not guessed at here: XLA answers
with a clean ``NOT_FOUND`` error when it compiles, which :func:`unknown_target_error`
turns into a refusal that lists the targets the platform has.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

from .runtime_errors import UnsupportedModuleError

if TYPE_CHECKING:
    import jax
    from jaxlib.mlir import ir

__all__ = ["custom_call_targets", "prepare_custom_calls", "is_host_callback", "unknown_target_error",
           "HOST_CALLBACK"]

HOST_CALLBACK = re.compile(r"^xla_(?:\w+_)?python_(?:\w+_)?callback$")
"""The custom-call targets through which jax calls back into Python: ``xla_python_cpu_callback``,
``xla_ffi_python_cpu_callback``, ``xla_ffi_partitioned_python_gpu_callback``,
``xla_buffer_python_cpu_callback``, ... (``tests/test_jax_internals.py`` checks that every
callback target this jaxlib registers matches)."""

_SHAPE_ASSERTION = "shape_assertion"

_lapack_ready = False


def is_host_callback(target: str) -> bool:
    return HOST_CALLBACK.match(target) is not None


def custom_call_targets(module: "ir.Module") -> set[str]:
    """The targets of every ``stablehlo.custom_call`` in ``module`` (regions included)."""
    from jaxlib.mlir import ir

    found: set[str] = set()

    def visit(op: "ir.Operation") -> "ir.WalkResult":
        if op.name == "stablehlo.custom_call" and "call_target_name" in op.attributes:
            found.add(ir.StringAttr(op.attributes["call_target_name"]).value)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _token_positions(module: "ir.Module") -> list[str]:
    """``input 0``, ``output 1``: where ``@main`` takes or returns a ``!stablehlo.token``."""
    from jaxlib.mlir import ir

    from .signature import find_main

    ftype = ir.FunctionType(ir.TypeAttr(find_main(module).attributes["function_type"]).value)
    where = [f"input {i}" for i, t in enumerate(ftype.inputs) if str(t) == "!stablehlo.token"]
    where += [f"output {i}" for i, t in enumerate(ftype.results) if str(t) == "!stablehlo.token"]
    return where


def prepare_custom_calls(module: "ir.Module", device: "jax.Device", name: str, host_callbacks: int = 0) -> set[str]:
    """Refuse host callbacks and tokens; load what jaxlib's kernels need; return the targets.

    ``device`` is the PJRT device the module will run on (LAPACK is loaded for the CPU only:
    GPU kernels are complete when their plug-in registers them). ``host_callbacks`` is the number
    of Python functions the caller passes for the module's host callbacks (``ops.print``'s): then
    those are allowed, each index in range.
    """
    targets = custom_call_targets(module)
    callbacks = sorted(t for t in targets if is_host_callback(t))
    tokens = _token_positions(module)
    if callbacks and host_callbacks and not tokens:
        _check_callback_indices(module, host_callbacks, name)
        callbacks = []
    if callbacks or tokens:
        what = (f"calls back into Python (custom_call @{callbacks[0]})" if callbacks
                else f"threads a !stablehlo.token through @main ({', '.join(tokens)})")
        raise UnsupportedModuleError(
            f"{name} cannot run here: it {what}. JAX writes that for jax.debug.print, jax.debug.callback, "
            "io_callback and pure_callback (a token for their ordered=True forms); the Python functions they "
            "call live in the process that lowered the module and are not in it. Lower the function without "
            "them (remove the debug prints and callbacks, or compute those values in the program) and "
            "compile that module.")
    if device.client.platform == "cpu":
        _register_lazy_kernels(targets)
        if not _lapack_ready:
            _prepare_lapack(targets, name)
    return targets


def _check_callback_indices(module: "ir.Module", count: int, name: str) -> None:
    """Every host callback of ``module`` indexes one of the ``count`` functions given with it."""
    from jaxlib.mlir import ir

    bad: list[str] = []

    def visit(op: "ir.Operation") -> "ir.WalkResult":
        if op.name == "stablehlo.custom_call" and is_host_callback(ir.StringAttr(op.attributes["call_target_name"]).value):
            config = op.attributes["mhlo.backend_config"] if "mhlo.backend_config" in op.attributes else None
            index = ir.IntegerAttr(ir.DictAttr(config)["index"]).value if config is not None else None
            if index is None or not 0 <= index < count:
                bad.append(str(op.location))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    if bad:
        raise UnsupportedModuleError(f"{name}: a host callback at {bad[0]} has no function among the {count} given "
                                     "(its mhlo.backend_config index is out of range); pass one function per index")


def _register_lazy_kernels(targets: Iterable[str]) -> None:
    """Import the jax module that registers each jaxlib CPU kernel the module calls and ``import jax``
    did not register (registration works after the CPU client exists, as jax does it)."""
    import importlib

    from .. import jax_internals

    lazy = jax_internals.lazily_registered_cpu_targets() if targets else {}
    for module in sorted({lazy[t] for t in targets if t in lazy}):
        with jax_internals.INIT_LOCK:
            importlib.import_module(module)


def _prepare_lapack(targets: Iterable[str], name: str) -> None:
    global _lapack_ready
    from .. import jax_internals

    used = sorted(set(targets) & jax_internals.lapack_targets())
    if not used:
        return
    with jax_internals.INIT_LOCK:
        try:
            jax_internals.prepare_lapack()
        except ImportError as e:
            raise UnsupportedModuleError(
                f"{name} calls jaxlib's LAPACK kernels (custom_call @{used[0]}), which load their routines "
                f"from SciPy, and SciPy cannot be imported ({e}). Install it: pip install scipy") from None
        _lapack_ready = True


_NOT_FOUND = re.compile(r"No (?:FFI handler registered|registered implementation for (?:untyped|typed)? ?"
                        r"custom call to) (?:for )?(\S+)")


def unknown_target_error(message: str, targets: Iterable[str], device: "jax.Device", name: str) -> UnsupportedModuleError | None:
    """The refusal for an XLA compile error that says a custom-call target is not registered
    (``None`` for any other error), listing the targets the platform has."""
    if "NOT_FOUND" not in message:
        return None
    m = _NOT_FOUND.search(message)
    target = m.group(1) if m else None
    if target is None or target not in set(targets):
        candidates = sorted(set(targets) - {_SHAPE_ASSERTION})
        if not candidates:
            return None
        target = target or candidates[0]
    from .. import jax_internals
    from .devices import device_name

    platform = device.client.platform
    registered = jax_internals.registered_custom_call_targets(platform)
    listing = (", ".join(sorted(t for t in registered if not is_host_callback(t)))
               if registered else "(this jaxlib cannot list them)")
    hint = ""
    if target == _SHAPE_ASSERTION:
        hint = (" A @shape_assertion belongs to a module with symbolic shapes; compile the module as "
                "jax.export wrote it (with its dynamic dimensions), and latticecast refines it per input shape.")
    return UnsupportedModuleError(
        f"{name} calls custom_call @{target}, which is not registered for {device_name(device)}: no kernel "
        f"of that name is linked into this jaxlib or registered by a plug-in. Register it first "
        f"(jax.ffi.register_ffi_target) or run the module where it exists.{hint} Targets registered for "
        f"{platform}: {listing}.")
