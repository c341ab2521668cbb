"""The errors the runtime raises. Each names the problem and the fix.

Every error derives from :class:`LatticecastRuntimeError` *and* from the builtin
exception a Python programmer would expect for the same mistake (``TypeError``
for a wrong dtype, ``ValueError`` for a wrong shape, ``OverflowError`` for a value
that does not fit, ``RuntimeError`` for a missing device), so ``except
ValueError`` keeps working and ``except LatticecastRuntimeError`` catches them all.
They are raised from latticecast's own frames: no traceback from inside jaxlib
reaches the user (the jaxlib error, where there is one, is chained as
``__cause__`` for whoever needs it).

Input that is not MLIR raises :class:`~latticecast.dialect_utils.diagnostics.MLIRParseError`
(a ``ValueError``), the one parse error of every layer, re-exported here.
"""

from __future__ import annotations

from typing import Sequence

from ..dialect_utils.diagnostics import Diagnostic, MLIRParseError
from ..errors import LatticecastError

__all__ = [
    "LatticecastRuntimeError",
    "DeviceNotFoundError",
    "DeviceCountError",
    "MLIRParseError",
    "Diagnostic",
    "UnsupportedModuleError",
    "CompileError",
    "InputError",
    "InputCountError",
    "InputShapeError",
    "InputDTypeError",
    "InputRangeError",
    "InputArrayError",
    "ExecutionError",
]


class LatticecastRuntimeError(LatticecastError):
    """Base class of every error the runtime layer (compile, devices, calls) raises; a
    :class:`~latticecast.LatticecastError` like every error of latticecast."""


class DeviceNotFoundError(LatticecastRuntimeError, RuntimeError):
    """The requested device is not present. The message lists the devices there are.

    ``available`` holds the device names (``"cpu:0"``, ...) that could be used instead.
    """

    def __init__(self, message: str, *, requested: object = None,
                 available: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.requested = requested
        self.available = tuple(available)


class DeviceCountError(DeviceNotFoundError):
    """A module partitioned for ``required`` devices (``mhlo.num_partitions``), and fewer are
    present (or were passed as ``devices=``). The message says how to get more: on the CPU,
    ``XLA_FLAGS=--xla_force_host_platform_device_count=N`` before jax is imported; elsewhere,
    more accelerators or more processes (``jax.distributed``). XLA itself would either reject
    the module with an unrelated message or, told to use one device, run it unpartitioned
    without a word."""

    def __init__(self, message: str, *, required: int, present: int, requested: object = None,
                 available: Sequence[str] = ()) -> None:
        super().__init__(message, requested=requested, available=available)
        self.required = required
        self.present = present


class UnsupportedModuleError(LatticecastRuntimeError, ValueError):
    """A module the runtime cannot run: no public ``@main``, an element type PJRT has no
    buffers for (``index``, ``tf32``, ``!latticecast.address``), a host callback or a token
    (from JAX's debug prints and callbacks), or a custom-call target the platform lacks."""


class CompileError(LatticecastRuntimeError, RuntimeError):
    """XLA rejected a module that parsed and verified (the XLA message is included)."""


class InputError(LatticecastRuntimeError, TypeError):
    """An argument of a :class:`~latticecast.runtime.Model` call does not match ``@main``.

    ``index`` and ``name`` say which input (``name`` is ``None`` unless the model was
    compiled with ``input_names``); ``expected`` and ``got`` describe the mismatch.
    """

    def __init__(self, message: str, *, index: int | None = None, name: str | None = None,
                 expected: object = None, got: object = None) -> None:
        super().__init__(message)
        self.index = index
        self.name = name
        self.expected = expected
        self.got = got


class InputCountError(InputError):
    """The call passed more or fewer arguments than ``@main`` takes."""


class InputShapeError(InputError, ValueError):
    """An argument's shape is not the shape of the parameter."""


class InputDTypeError(InputError):
    """An argument's dtype is not the parameter's. latticecast never casts silently."""


class InputRangeError(InputError, OverflowError):
    """A Python value that the parameter's dtype cannot hold (``300`` for ``uint8``)."""


class InputArrayError(InputError, ValueError):
    """A ``jax.Array`` argument that cannot be used: deleted (donated to an earlier call, or
    ``.delete()``-ed), or laid out over devices this process cannot read and cannot be moved
    to the model's layout. PJRT would crash the process on the first rather than report it."""


class ExecutionError(LatticecastRuntimeError, RuntimeError):
    """PJRT failed while running a compiled model (out of memory, a device fault)."""
