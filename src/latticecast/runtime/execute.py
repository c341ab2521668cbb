"""Running a compiled executable: host-to-device transfer, execution, device-to-host.

Two paths, both on jaxlib's C++ objects and nothing slower:

* :class:`DeviceCall`, the *plain* path: ``_jax.batched_device_put`` per input,
  ``LoadedExecutable.execute_sharded`` and ``consume_with_handlers``. A NumPy
  round trip of a two-input program costs about 10.5 us on the 2-core CPU
  machine of benchmarks/bench_runtime.py (``jax.jit`` fed through
  ``jax.device_put``: 44 us).
* :class:`FastCall`, the *dispatch* path: the same executable behind jaxlib's C++
  dispatcher (``_jax.pjit``, what ``jax.jit`` uses after its first call), which
  transfers, executes and wraps the outputs in one C++ call: about 8.5 us for
  the same round trip, against 6.9 us for ``jax.jit`` itself (which skips the
  argument checks and the private copies below). It relies on internals of
  ``jax._src`` (``MeshExecutableFastpathData``), imported in :mod:`latticecast.jax_internals`:
  where this jax lacks them, or the dispatcher fails once, the model runs on the
  plain path for good, and says so with a ``RuntimeWarning``.

Safety. Neither path checks dtypes (a wrong dtype is reinterpreted or rejected
deep in XLA) and both may *alias* a NumPy array instead of copying it (PJRT's
zero-copy transfer on CPU, which ``jax.jit`` and ``jax.device_put`` use too: a
64-byte-aligned array that the caller mutates while the computation runs
changes its result). Hence the contract of this module: every array handed to
it is already checked against the signature and is *private* -- a copy made by
:func:`private_copy` or an array converted from Python values, which no one else
holds -- and C-contiguous. Aliasing a private array is then harmless, and it
saves PJRT a second copy. Outputs are NumPy views of the result buffers where the
platform allows it (CPU): read-only, and they keep the buffer alive, so nothing
can free or reuse the memory under them.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Sequence

import jax
import jax.core
import jax.errors
import jax.sharding
import numpy as np

from .. import jax_internals as internals
from .errors import ExecutionError
from .sharded import ArrayPlacer
from .signature import Signature

__all__ = ["DeviceCall", "FastCall", "private_copy", "to_numpy", "make_runner", "SMALL_COPY"]

_ALIGN = 64  # PJRT's CPU client aliases host memory only at this alignment
SMALL_COPY = 1 << 14  # below this many bytes, a plain copy is cheaper than an aligned one


def private_copy(a: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of ``a`` that nothing else references (64-byte aligned when large).

    Alignment lets PJRT's CPU client use the copy in place instead of copying again.
    """
    if a.nbytes < SMALL_COPY:
        return a.copy(order="C")
    buf = np.empty(a.nbytes + _ALIGN, np.uint8)
    offset = (-buf.ctypes.data) % _ALIGN
    out = buf[offset:offset + a.nbytes].view(a.dtype).reshape(a.shape)
    np.copyto(out, a, casting="no")
    return out


def to_numpy(outs: Sequence[Any]) -> list[np.ndarray]:
    """Host NumPy arrays of device arrays (zero-copy read-only views on CPU)."""
    asarray = np.asarray
    return [asarray(o) for o in outs]


def _execution_error(err: Exception, what: str) -> ExecutionError:
    return ExecutionError(f"PJRT failed while running {what}: {err}")


class DeviceCall:
    """The plain path: one ``batched_device_put`` per input, ``execute_sharded``, result handlers."""

    kind = "plain"

    def __init__(self, executable: Any, device: Any, signature: Signature, name: str = "@main") -> None:
        self.executable = executable
        self.device = device
        self.signature = signature
        self.name = name
        self.sharding = jax.sharding.SingleDeviceSharding(device)
        self.in_avals = [jax.core.ShapedArray(s.shape, s.np_dtype) for s in signature.inputs]
        self.out_avals = [jax.core.ShapedArray(s.shape, s.np_dtype) for s in signature.outputs]
        self._handlers = [internals.array_result_handler(a, self.sharding, True, _skip_checks=True)
                          for a in self.out_avals]
        self._devices = [device]
        self.placer = ArrayPlacer([self.sharding] * len(self.in_avals), [a.ndim for a in self.in_avals])
        self._put = internals.batched_device_put
        self._zero_copy = internals.ZERO_COPY
        self._runtime_error = jax.errors.JaxRuntimeError

    def run(self, arrays: Sequence[Any]) -> list[Any]:
        """Device arrays of the outputs, from checked inputs: private, C-contiguous NumPy arrays, or
        ``jax.Array`` s (used in place when on this device, moved to it otherwise)."""
        put, sh, devs, zc, ndarray = self._put, self.sharding, self._devices, self._zero_copy, np.ndarray
        try:
            bufs = [put(aval, sh, [a], devs, True, False, zc, True) if type(a) is ndarray else self.placer.place(a, i)
                    for i, (aval, a) in enumerate(zip(self.in_avals, arrays))]
            return self.executable.execute_sharded(bufs).consume_with_handlers(self._handlers)
        except self._runtime_error as e:
            raise _execution_error(e, self.name) from e

    def __call__(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        return to_numpy(self.run(arrays))


class FastCall:
    """The dispatch path: the executable behind jaxlib's C++ ``pjit`` dispatcher.

    The dispatcher's first call with a given argument signature goes through
    ``_cache_miss`` (the plain path), which hands it the "fast-path data" it needs
    to run later calls in C++ alone. Use :meth:`build`, which returns ``None``
    where this jax version's internals are not the ones this was written for.
    """

    kind = "dispatch"

    def __init__(self, plain: DeviceCall, fast: Any) -> None:
        self.plain = plain
        self._fast = fast
        self._registry = fast.registry
        self._x64 = fast.enable_x64
        self._needs_x64 = any(s.np_dtype.itemsize == 8 and s.np_dtype.kind in "iuf"
                              or s.np_dtype.kind == "c" and s.np_dtype.itemsize == 16
                              for s in plain.signature.inputs)
        n_in, n_out = len(plain.in_avals), len(plain.out_avals)
        self._fastpath_args = (
            [plain.sharding] * n_in, [plain.sharding] * n_out, list(plain.out_avals),
            [True] * n_out, [True] * n_in, [None] * n_in, [])
        # Probe the named tuple now: a jax whose fields differ fails here, not mid-call.
        self._fastpath_data(self._registry.flatten([None] * n_out, None)[1])
        self._fn = fast.pjit(plain.name, self._uncompiled_call, self._cache_miss, [], [],
                             fast.cache_keys(), self._registry, fast.shard_arg, fast.function_cache(capacity=8))
        self._runtime_error = jax.errors.JaxRuntimeError
        self.misses = 0
        self.disabled = False

    @classmethod
    def build(cls, plain: DeviceCall) -> "FastCall | None":
        """The dispatch path, or ``None`` where this jax lacks what it needs (warned once)."""
        fast = internals.require_fastpath()
        return None if fast is None else cls(plain, fast)

    def _fastpath_data(self, treedef: Any) -> Any:
        ins, outs, avals, committed, kept, layouts, consts = self._fastpath_args
        return self._fast.fastpath_data(
            self.plain.executable, treedef, ins, outs, avals, committed, kept, layouts, consts)

    def _uncompiled_call(self, *args: Any) -> list[Any]:
        # What the dispatcher calls under ``jax.disable_jit()``.
        return self.plain.run(args)

    def _cache_miss(self, *args: Any) -> tuple[list[Any], Any, bool]:
        self.misses += 1
        outs = list(self.plain.run(args))
        fastpath = None
        # Only hand over the fast path for the signature it was validated for: all
        # NumPy arrays, and 64-bit inputs only while x64 is on (off, the dispatcher
        # would narrow int64 to int32 before the executable sees it).
        if (all(type(a) is np.ndarray for a in args)
                and (not self._needs_x64 or self._x64.value)):
            fastpath = self._fastpath_data(self._registry.flatten(outs, None)[1])
        return outs, fastpath, False

    def run(self, arrays: Sequence[np.ndarray]) -> list[Any]:
        if self.disabled:
            return self.plain.run(arrays)
        try:
            if self._needs_x64:
                prev = self._x64.swap_local(True)
                try:
                    return self._fn(*arrays)
                finally:
                    self._x64.set_local(prev)
            return self._fn(*arrays)
        except ExecutionError:
            raise
        except Exception as e:  # noqa: BLE001 - the dispatcher misbehaved: say so, never use it again
            # The inputs are private copies and nothing was donated, so running the
            # call again on the plain path is safe and gives the answer.
            self.failed(e)
            return self.plain.run(arrays)

    def __call__(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        return to_numpy(self.run(arrays))

    def direct(self, prepare: Callable[[tuple[Any, ...]], list[Any]]) -> Callable[..., list[Any]]:
        """A dispatcher that takes the caller's own arguments, as ``jax.jit`` does: a call whose
        arguments are NumPy arrays of exactly the signature's dtypes and shapes runs in C++ alone
        (jaxlib checks the signature; PJRT may alias the arrays while the call runs, which is
        ``jax.jit``'s contract too); any other call (Python values, other dtypes, another number
        of arguments) reaches ``prepare``, which checks and converts the arguments or raises the
        error that names the problem, and runs on the plain path.

        For calls that return once the computation is done (NumPy outputs) without donation; the
        caller (:class:`~latticecast.runtime.model.Model`) decides, and calls :meth:`failed` if the
        dispatcher raises anything but latticecast's own errors.
        """
        expected = [(s.np_dtype, s.shape) for s in self.plain.signature.inputs]
        plain, fast, ndarray = self.plain, self._fast, np.ndarray

        def cache_miss(*args: Any) -> tuple[list[Any], Any, bool]:
            self.misses += 1
            outs = list(plain.run(prepare(args)))
            fastpath = None
            if (len(args) == len(expected)
                    and all(type(a) is ndarray and a.dtype is dt and a.shape == shape
                            for a, (dt, shape) in zip(args, expected))
                    and (not self._needs_x64 or self._x64.value)):
                fastpath = self._fastpath_data(self._registry.flatten(outs, None)[1])
            return outs, fastpath, False

        fn = fast.pjit(plain.name, lambda *args: plain.run(prepare(args)), cache_miss, [], [], fast.cache_keys(),
                       self._registry, fast.shard_arg, fast.function_cache(capacity=8))
        if not self._needs_x64:
            return fn
        x64 = self._x64

        def with_x64(*args: Any) -> list[Any]:  # 64-bit inputs: the dispatcher must not narrow them
            prev = x64.swap_local(True)
            try:
                return fn(*args)
            finally:
                x64.set_local(prev)

        return with_x64

    def failed(self, error: Exception) -> None:
        """The dispatcher misbehaved (``error``): say so once, and run on the plain path for good."""
        self.disabled = True
        warnings.warn(f"latticecast: jaxlib's dispatcher failed for {self.plain.name} "
                      f"({type(error).__name__}: {error}); this model now runs on the plain path", RuntimeWarning,
                      stacklevel=3)


def make_runner(executable: Any, device: Any, signature: Signature, *,
                fast: bool = True) -> "DeviceCall | FastCall":
    """The cheapest working runner for an executable: the dispatch path if it can be built."""
    plain = DeviceCall(executable, device, signature)
    if fast:
        fc = FastCall.build(plain)
        if fc is not None:
            return fc
    return plain

