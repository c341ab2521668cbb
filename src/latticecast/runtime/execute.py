"""Running a compiled executable: the two call paths, and the contract of what they are given.

* :class:`~.exported.JitCall`, for a module on one device: the module wrapped in a
  ``jax.export.Exported`` and compiled by ``jax.jit`` (a ``jax.stages.Compiled``). JAX's C++
  dispatcher transfers the arguments, runs the executable and wraps the outputs, as for any
  ``jax.jit`` function; only public JAX is used.
* :class:`~.sharded.ShardedCall`, for a module partitioned over several devices (and a module
  ``jax.export`` cannot wrap): the client's ``compile_and_load``/``execute_sharded``, with the
  inputs cut into the executable's tiles.

Safety. Neither path may be handed an unchecked array: a wrong dtype is reinterpreted or
rejected deep in XLA, and both may *alias* a NumPy array instead of copying it (PJRT's
zero-copy transfer on CPU, which ``jax.jit`` and ``jax.device_put`` use too: a 64-byte-aligned
array that the caller mutates while the computation runs changes its result). Hence the
contract: every array handed to a runner is already checked against the signature and is
*private* -- a copy made by :func:`private_copy` or an array converted from Python values,
which no one else holds -- and C-contiguous. Aliasing a private array is then harmless, and it
saves PJRT a second copy. The one exception is :class:`~latticecast.runtime.Model`'s fast path:
NumPy arrays of exactly the input types go to ``jax.jit``'s dispatcher as they are, as they would
with ``jax.jit`` itself. Outputs are NumPy views of the result buffers where the platform allows
it (CPU): read-only, and they keep the buffer alive, so nothing can free or reuse the memory
under them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

if TYPE_CHECKING:
    import jax

__all__ = ["private_copy", "to_numpy", "SMALL_COPY"]

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


def to_numpy(outs: "Sequence[jax.Array]") -> list[np.ndarray]:
    """Host NumPy arrays of device arrays (zero-copy read-only views on CPU)."""
    asarray = np.asarray
    return [asarray(o) for o in outs]
