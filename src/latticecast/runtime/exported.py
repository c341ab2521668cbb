"""One device through public JAX: the module as a ``jax.export.Exported``, compiled by ``jax.jit``.

JAX has no public way to call an executable compiled elsewhere, but it has a public way to call
a StableHLO module: ``jax.export``. :func:`compile_exported` wraps latticecast's module (already
parsed, checked and guarded by :func:`~latticecast.runtime.compile`) in an ``Exported`` and
compiles ``jax.jit(exported.call)`` ahead of time for one device. The result is a
``jax.stages.Compiled``: JAX's own C++ dispatcher checks and transfers the arguments, runs the
executable and wraps the outputs, exactly as for any ``jax.jit`` function, so a NumPy round trip
costs what ``jax.jit``'s does (``python3 dev.py bench``), on every jax version latticecast supports.

How the ``Exported`` is made. Its private fields differ between jax versions, so none is
written here: ``jax.export.export`` of a function with the same signature (it returns zeros of
the output types) gives an ``Exported`` that is right for the installed jax, and only its public
fields are replaced: the serialized module (a StableHLO portable artifact, as ``jax.export``
writes), the function name, and which arguments the module keeps (all of them). These templates
are cached per signature.

A module this cannot wrap (an element type JAX has no dtype for, an op outside the portable
artifact's dialects) returns ``None`` from :func:`compile_exported`, with the reason, and runs on
the client path (:class:`~latticecast.runtime.sharded.ShardedCall` on one device).
"""

from __future__ import annotations

import contextlib
import functools
from typing import TYPE_CHECKING, Callable, Sequence, cast

import numpy as np

from ..jax_internals import portable_artifact
from .runtime_errors import ExecutionError
from .sharded import ArrayPlacer
from .signature import Signature, TensorSpec

if TYPE_CHECKING:
    import jax
    from jax import export as jax_export
    from jaxlib.mlir import ir

    from .pjrt import ClientExecutable

__all__ = ["JitCall", "compile_exported", "needs_x64", "export_platform", "serialize", "deserialize"]


def needs_x64(signature: Signature) -> bool:
    """Whether the signature has 64-bit types, which ``jax.jit`` narrows unless x64 is on."""
    return any(s.np_dtype.itemsize == 8 and s.np_dtype.kind in "iuf" or s.np_dtype.kind == "c"
               and s.np_dtype.itemsize == 16 for s in (*signature.inputs, *signature.outputs))


def export_platform(device: "jax.Device") -> str:
    """The platform name ``jax.export`` uses for ``device`` (``cpu``, ``cuda``, ``rocm``, ``tpu``)."""
    platform = str(device.platform).lower()
    if platform == "gpu":
        version = str(getattr(device.client, "platform_version", "")).lower()
        return "rocm" if "rocm" in version or "hip" in version else "cuda"
    return platform


_Specs = tuple[tuple[tuple[int, ...], np.dtype], ...]


def _specs(specs: Sequence[TensorSpec]) -> _Specs:
    return tuple((tuple(s.shape), s.np_dtype) for s in specs)  # the dtype itself: ml_dtypes' have no .str


@functools.lru_cache(maxsize=256)
def _template(ins: _Specs, outs: _Specs, platform: str, x64: bool) -> "jax_export.Exported":
    """An ``Exported`` of the installed jax with this signature (its module returns zeros)."""
    import jax
    import jax.numpy as jnp

    def zeros(*_: object) -> "tuple[jax.Array, ...]":
        return tuple(jnp.zeros(shape, dtype) for shape, dtype in outs)

    args = [jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in ins]
    with jax.enable_x64(x64):
        return jax.export.export(jax.jit(zeros), platforms=[platform])(*args)


def _artifact(module: "ir.Module", device: "jax.Device") -> bytes:
    """The module as a StableHLO portable artifact for the installed jaxlib, as ``jax.export`` writes it
    (``chlo`` and ``sdy`` included, see :func:`~latticecast.jax_internals.portable_artifact`).

    Serialized from the module's bytecode, not from the module: serializing an ``ir.Module``
    rewrites it to VHLO in place, and the module may be the caller's."""
    import io

    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    with module.context:
        return portable_artifact(buffer.getvalue(), mixed=bool(getattr(device.client, "serialize_with_sdy", True)))


def compile_exported(module: "ir.Module", device: "jax.Device", signature: Signature, donated: Sequence[int],
                     name: str = "main") -> "tuple[jax.stages.Compiled | None, jax.stages.Wrapped | None, str | None]":
    """``(compiled, jitted, None)``: the module compiled ahead of time by ``jax.jit`` for ``device``
    (``compiled``, a ``jax.stages.Compiled``), and the ``jax.jit`` function it was compiled from,
    whose caches now hold it (calling ``jitted`` with arguments of the signature's types runs the
    same executable without compiling again, and its C++ dispatch is a little cheaper than the
    ``Compiled`` object's); or ``(None, None, reason)`` where ``jax.export`` cannot wrap the module
    (the caller compiles it with the client instead). XLA's own compile errors are raised
    (``jax.errors.JaxRuntimeError``)."""
    import dataclasses

    import jax
    import jax.errors

    x64 = needs_x64(signature)
    platform = export_platform(device)
    try:
        template = _template(_specs(signature.inputs), _specs(signature.outputs), platform, x64)
        artifact = _artifact(module, device)
    except Exception as e:  # noqa: BLE001 - a dtype JAX lacks, MLIRError, ...: the client path takes it
        return None, None, f"jax.export cannot wrap the module ({type(e).__name__}: {e})"
    exported = dataclasses.replace(template, mlir_module_serialized=artifact, fun_name=name.lstrip("@"),
                                   module_kept_var_idx=tuple(range(len(signature.inputs))))
    sharding = jax.sharding.SingleDeviceSharding(device)
    n_in, n_out = len(signature.inputs), len(signature.outputs)
    out_shardings: jax.sharding.Sharding | tuple[jax.sharding.Sharding, ...]
    call: Callable[..., object]
    if n_out == 1:  # one output: the function returns the array itself, as a jax.jit function of one result does
        call, out_shardings = _only_result(exported.call), sharding
    else:
        call, out_shardings = exported.call, (sharding,) * n_out
    jitted = jax.jit(call, in_shardings=(sharding,) * n_in, out_shardings=out_shardings,
                     donate_argnums=tuple(donated))
    args = [jax.ShapeDtypeStruct(s.shape, s.np_dtype, sharding=sharding) for s in signature.inputs]
    # 64-bit types need x64 on; other modules compile under the caller's setting, the one their
    # calls will dispatch under (jax.jit compiles again, once, if the caller changes it later)
    with jax.enable_x64(True) if x64 else contextlib.nullcontext():
        try:
            lowered = jitted.trace(*args).lower()
        except jax.errors.JaxRuntimeError:
            raise
        except Exception as e:  # noqa: BLE001 - JAX could not call the module: the client path takes it
            return None, None, f"jax.jit cannot call the module ({type(e).__name__}: {e})"
        return lowered.compile(), jitted, None


def _only_result(call: "Callable[..., Sequence[jax.Array]]") -> "Callable[..., jax.Array]":
    """``call`` returning its one result itself rather than a 1-tuple (one C++ unflatten and one
    indexing less on every call of a one-output model)."""
    def only(*args: "jax.Array") -> "jax.Array":
        return call(*args)[0]
    return only


def serialize(compiled: "jax.stages.Compiled") -> bytes | None:
    """The bytes of a compiled executable for the disk cache (``None`` where it cannot be serialized)."""
    from jax.experimental import serialize_executable

    try:
        payload, _, _ = serialize_executable.serialize(compiled)
    except (ValueError, NotImplementedError, TypeError):
        return None
    return bytes(payload)


def deserialize(payload: bytes, device: "jax.Device", signature: Signature) -> "jax.stages.Compiled":
    """A ``jax.stages.Compiled`` from :func:`serialize`'s bytes, loaded on ``device``."""
    import jax
    from jax.experimental import serialize_executable

    in_tree = jax.tree_util.tree_structure((tuple(range(len(signature.inputs))), {}))
    n_out = len(signature.outputs)
    out_tree = jax.tree_util.tree_structure(0 if n_out == 1 else tuple(range(n_out)))
    with jax.enable_x64(needs_x64(signature)):
        compiled: jax.stages.Compiled = serialize_executable.deserialize_and_load(
            payload, in_tree, out_tree, backend=device.client, execution_devices=[device])
    return compiled


class JitCall:
    """Runs a ``jax.stages.Compiled`` of one device: JAX's dispatcher, public all the way.

    :meth:`run` takes checked arguments (private C-contiguous NumPy arrays, or ``jax.Array`` s of
    the right type, moved here when they live elsewhere) and returns ``jax.Array`` s. ``call`` is the
    ``jax.jit`` function (``jitted``, whose caches hold ``compiled``; the ``Compiled`` object itself
    for an executable loaded from the disk cache), under x64 where the signature needs it, for the
    caller's fast path: NumPy arrays of exactly the input types, which JAX checks again in C++.
    """

    kind = "jax.jit"

    def __init__(self, compiled: "jax.stages.Compiled", device: "jax.Device", signature: Signature, name: str = "@main",
                 jitted: "jax.stages.Wrapped | None" = None) -> None:
        import jax
        import jax.errors

        self.compiled = compiled
        fn = compiled if jitted is None else jitted
        # A Compiled object (loaded from the disk cache) runs only under the x64 setting it was
        # made with (deserialize: x64 exactly when the types need it); a jax.jit function needs
        # x64 on for 64-bit types and follows the caller's setting otherwise.
        x64 = needs_x64(signature)
        fixed = jitted is None or x64
        self.device = device
        self.signature = signature
        self.single = len(signature.outputs) == 1
        """Whether ``call`` returns its one result itself (else a tuple of the results)."""
        self.name = name
        self.sharding = jax.sharding.SingleDeviceSharding(device)
        self.placer = ArrayPlacer([self.sharding] * len(signature.inputs), [len(s.shape) for s in signature.inputs])
        self.runtime_error = jax.errors.JaxRuntimeError
        if fixed:
            enable_x64 = jax.enable_x64

            def call(*args: "jax.Array | np.ndarray") -> "jax.Array | tuple[jax.Array, ...]":  # no narrowing of 64 bits
                with enable_x64(x64):
                    out: jax.Array | tuple[jax.Array, ...] = fn(*args)
                return out

            self.call: Callable[..., jax.Array | tuple[jax.Array, ...]] = call
        else:
            self.call = fn

    def _listed(self, out: "jax.Array | tuple[jax.Array, ...]") -> "list[jax.Array]":
        return [cast("jax.Array", out)] if self.single else list(cast("tuple[jax.Array, ...]", out))

    @property
    def executable(self) -> "ClientExecutable":
        """The PJRT ``LoadedExecutable`` behind the compiled function."""
        return self.compiled.runtime_executable()

    def run(self, arrays: "Sequence[jax.Array | np.ndarray]") -> "list[jax.Array]":
        import jax

        ndarray = np.ndarray
        args = [a if type(a) is ndarray else self.placer.place(cast("jax.Array", a), i) for i, a in enumerate(arrays)]
        try:
            try:
                return self._listed(self.call(*args))
            except ValueError:
                if not getattr(jax.config, "jax_disable_jit"):  # a flag jax 0.10's Config does not declare
                    raise
            # Under jax.disable_jit() JAX refuses to run AOT-compiled functions; this one is
            # compiled already, and running it is what the caller asked for.
            with jax.disable_jit(False):
                return self._listed(self.call(*args))
        except self.runtime_error as e:
            raise ExecutionError(f"PJRT failed while running {self.name}: {e}") from e

    def __call__(self, arrays: "Sequence[jax.Array | np.ndarray]") -> list[np.ndarray]:
        return [np.asarray(o) for o in self.run(arrays)]
