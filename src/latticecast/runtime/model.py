"""``Model``: a compiled module on one device or partitioned over several, called with arrays.

A call checks the arguments against ``@main``'s signature (count, shape, dtype;
Python values by kind and range, see :mod:`.inputs`), makes each caller NumPy array
private (see :mod:`.execute` for why), takes ``jax.Array`` s as they are (see
:mod:`.sharded`), runs the executable and returns one NumPy array per output, always
as a list; ``model(..., return_arrays=True)`` returns the ``jax.Array`` s instead, on
their devices and with their shardings.

The check of a well-formed call is a handful of attribute comparisons per
argument, done inline here; everything else (Python values, wrong dtypes, error
messages) goes through :func:`.inputs.convert_input`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Mapping, Sequence, cast, overload

import jax
import jax.errors
import numpy as np

from ..promotion.dims import SymbolicDim
from .devices import device_name
from .runtime_errors import ExecutionError, InputCountError
from .execute import SMALL_COPY, private_copy
from .exported import JitCall
from .inputs import check_device_array, check_donations, convert_input
from .partitioning import Partitioning
from .sharded import ShardedCall, hosts_numpy
from .signature import Signature, TensorPattern, TensorSpec

if TYPE_CHECKING:
    from .pjrt import Argument, ClientExecutable, Executable

__all__ = ["Model", "CompiledProgram", "bind_arguments"]


@dataclass
class CompiledProgram:
    """One compiled executable and what is needed to run it; shared by every
    :class:`Model` that ``compile`` returns for the same program and devices.

    ``devices`` are in partition order (partition ``i`` runs on ``devices[i]``); one
    device unless ``partitioning`` says the module is partitioned. ``route`` says how it was
    compiled and runs: ``"jax.jit"`` (``executable`` is a ``jax.stages.Compiled``, see
    :mod:`.exported`) or ``"client"`` (the client's ``LoadedExecutable``, see :mod:`.sharded`)."""

    executable: "Executable"
    devices: tuple[jax.Device, ...]
    signature: Signature
    key: str
    partitioning: Partitioning
    donated: tuple[int, ...] = ()
    route: str = "client"
    route_reason: str | None = None
    dispatcher: "jax.stages.Wrapped | None" = field(default=None, repr=False)  # the jax.jit function behind a "jax.jit" executable
    _runner: "JitCall | ShardedCall | None" = field(default=None, repr=False)

    @property
    def device(self) -> jax.Device:
        return self.devices[0]

    @property
    def runner(self) -> "JitCall | ShardedCall":
        if self._runner is None:
            if self.route == "jax.jit":
                self._runner = JitCall(self.executable, self.device, self.signature, jitted=self.dispatcher)
            else:
                self._runner = ShardedCall(self.executable, self.devices, self.signature, self.partitioning)
        return self._runner


_NARROWED_TO = frozenset(np.dtype(t) for t in (np.int32, np.uint32, np.float32, np.complex64))
"""The dtypes jax gives a 64-bit NumPy array when x64 is off (``jax.dtypes.canonicalize_dtype``)."""


_asarray = np.asarray

class Model:
    """A compiled program on one device, or partitioned over several (SPMD).
    ``model(*arrays)`` returns a list of NumPy arrays; ``model(*arrays, return_arrays=True)``
    a list of ``jax.Array`` s that keep their devices and shardings.

    Attributes: ``input_types``/``output_types`` (:class:`TensorSpec`: dtype and
    shape), ``input_names`` (or ``None``), ``devices`` (the ``jax.Device`` s it runs on,
    in partition order; one for an unpartitioned module), ``device`` (the first of them),
    ``input_shardings``/``output_shardings`` (``jax.sharding`` objects),
    ``fingerprint`` (the compilation-cache key) and ``cache_source`` (``"compiled"``,
    ``"memory"`` or ``"disk"``: where ``compile`` got the executable).

    Arguments may be NumPy arrays (and Python values, see :mod:`.inputs`), cut into
    each device's tile as the executable expects, or ``jax.Array`` s, used without a copy
    when already laid out so (``jax.device_put(x, model.input_shardings[i])``, or the
    output of another model or of ``jax.jit`` with the same sharding) and moved otherwise.

    NumPy outputs of a partitioned model are gathered from every device (with several
    processes, every process must make the same calls: the gather is a collective). On
    one CPU device they are read-only views of the result buffers, kept alive by the array
    (no copy); call ``.copy()`` on one to write to it.
    """

    __slots__ = ("_program", "_runner", "_run", "_direct", "_to_host", "_expected", "_guarded", "_n", "_single", "_donated",
                 "_runtime_error", "input_names", "cache_source")

    def __init__(self, program: CompiledProgram, input_names: Sequence[str] | None = None,
                 cache_source: str = "compiled") -> None:
        self._program = program
        self._runner = program.runner
        self._run = self._runner.run
        self._to_host = hosts_numpy if len(program.devices) > 1 else None
        # Per input: dtype, shape, and whether a plain ``.copy()`` is the cheapest private copy.
        self._expected = tuple((s.np_dtype, s.shape, s.np_dtype.itemsize * _prod(s.shape) < SMALL_COPY)
                               for s in program.signature.inputs)
        # the inputs JAX's dispatcher could take a narrowed array or an unchecked scalar for
        self._guarded = tuple((i, dt) for i, (dt, shape, _) in enumerate(self._expected)
                              if dt in _NARROWED_TO or shape == ())
        self._n = len(self._expected)
        self._single = len(program.signature.outputs) == 1
        self._donated = program.donated
        # NumPy in and out on one device without donation: arrays of exactly the input types go to
        # jax.jit's dispatcher as they are (it checks them again in C++); every other call reaches
        # _prepare, which converts the arguments or raises the error that names the problem.
        runner = self._runner
        self._direct = runner.call if isinstance(runner, JitCall) and not self._donated else None
        self._runtime_error = jax.errors.JaxRuntimeError
        self.input_names: tuple[str, ...] | None = tuple(input_names) if input_names else None
        self.cache_source = cache_source

    # -- description ---------------------------------------------------------------------

    @property
    def input_types(self) -> tuple[TensorSpec, ...]:
        return self._program.signature.inputs

    @property
    def output_types(self) -> tuple[TensorSpec, ...]:
        return self._program.signature.outputs

    @property
    def device(self) -> jax.Device:
        """The device the model runs on; for a partitioned model, the one of partition 0."""
        return self._program.device

    @property
    def devices(self) -> tuple[jax.Device, ...]:
        """Every device the model runs on, in partition order (partition ``i`` on ``devices[i]``)."""
        return self._program.devices

    @property
    def input_shardings(self) -> tuple[jax.sharding.Sharding, ...]:
        """How each input is laid out over :attr:`devices` (``jax.sharding`` objects): the module's
        ``NamedSharding`` where it declares one that XLA kept, XLA's ``GSPMDSharding`` otherwise,
        ``SingleDeviceSharding`` on one device. ``jax.device_put(x, model.input_shardings[i])`` gives
        an argument the model uses without a copy."""
        r = self._runner
        if isinstance(r, ShardedCall):
            return tuple(r.in_shardings)
        return (r.sharding,) * self._n

    @property
    def output_shardings(self) -> tuple[jax.sharding.Sharding, ...]:
        """How each output is laid out (the shardings of ``model(..., return_arrays=True)``'s arrays)."""
        r = self._runner
        if isinstance(r, ShardedCall):
            return tuple(r.out_shardings)
        return (r.sharding,) * len(self.output_types)

    @property
    def fingerprint(self) -> str:
        return self._program.key

    @property
    def executable(self) -> "ClientExecutable":
        """The PJRT ``LoadedExecutable`` (for inspection: ``.hlo_modules()``, ``.cost_analysis()``)."""
        r = self._runner
        return r.executable if isinstance(r, JitCall) else cast("ClientExecutable", self._program.executable)

    @property
    def dispatch(self) -> str:
        """Which call path runs: ``"jax.jit"`` (JAX's C++ dispatcher, one device) or ``"client"``
        (the client's ``execute_sharded``: partitioned modules, and modules ``jax.export`` cannot wrap;
        :attr:`dispatch_reason` says which)."""
        return self._runner.kind

    @property
    def dispatch_reason(self) -> str | None:
        """Why the model runs on the client path (``None`` on the ``jax.jit`` path)."""
        return self._program.route_reason

    @property
    def partitioning(self) -> Partitioning:
        """What the module asks of its devices: ``num_partitions``, meshes, partitioner, declared shardings."""
        return self._program.partitioning

    def __repr__(self) -> str:
        names = self.input_names or tuple(f"%arg{i}" for i in range(self._n))
        ins = ", ".join(f"{n}: {t}" for n, t in zip(names, self.input_types))
        outs = ", ".join(str(t) for t in self.output_types)
        devices = self.devices
        where = device_name(devices[0]) if len(devices) == 1 else (
            f"{len(devices)} {devices[0].client.platform} devices ({', '.join(device_name(d) for d in devices)})")
        return f"<Model main({ins}) -> ({outs}) on {where}>"

    # -- calls ---------------------------------------------------------------------------

    def _bind(self, args: "tuple[Argument, ...]", kwargs: "Mapping[str, Argument]") -> "tuple[Argument, ...]":
        return bind_arguments(args, kwargs, self.input_names, self.input_types)

    def _convert(self, value: "Argument", i: int) -> "jax.Array | np.ndarray":
        names = self.input_names
        if isinstance(value, jax.Array):
            return check_device_array(value, self.input_types[i], i, names[i] if names else None)
        arr, owned = convert_input(value, self.input_types[i], i, names[i] if names else None)
        return arr if owned and arr.flags.c_contiguous else private_copy(arr)

    def _prepare(self, args: "tuple[Argument, ...]") -> "list[jax.Array | np.ndarray]":
        """The checked arguments, in ``@main``'s order: private C-contiguous copies of NumPy arrays,
        arrays converted from Python values, ``jax.Array`` s; or the error that names the problem."""
        if len(args) != self._n:
            args = self._bind(args, {})
        ndarray = np.ndarray
        arrays: list[jax.Array | np.ndarray] = []
        append = arrays.append
        for a, (dt, shape, small) in zip(args, self._expected):
            if type(a) is ndarray and a.dtype is dt and a.shape == shape:
                append(a.copy() if small else private_copy(a))  # .copy() is C-contiguous
            else:
                append(self._convert(a, len(arrays)))  # any other dtype spelling is checked there
        if self._donated:
            check_donations(arrays, self._donated, self.input_names)
        return arrays

    @overload
    def __call__(self, *args: "Argument", return_arrays: Literal[False] = False,
                 **kwargs: "Argument") -> list[np.ndarray]: ...
    @overload
    def __call__(self, *args: "Argument", return_arrays: Literal[True], **kwargs: "Argument") -> list[jax.Array]: ...
    @overload
    def __call__(self, *args: "Argument", return_arrays: bool,
                 **kwargs: "Argument") -> "list[np.ndarray] | list[jax.Array]": ...

    def __call__(self, *args: "Argument", return_arrays: bool = False,
                 **kwargs: "Argument") -> "list[np.ndarray] | list[jax.Array]":
        """Run the model on its inputs.

        NumPy arrays of exactly the input types go to PJRT as they are, as with ``jax.jit``
        (which may alias them while the call runs: do not write to an input from another thread
        during a call); every other argument is checked (count, shape, dtype, the range of a
        Python scalar) and converted first, and never cast silently. With ``return_arrays=True``,
        or donated inputs, the model copies every input instead, since the computation may still
        be running, or writing, when the call returns.

        Args:
            *args: One argument per input of ``@main``, in order: NumPy arrays, ``jax.Array`` s,
                or Python scalars and lists whose values fit the input's dtype.
            return_arrays: Return ``jax.Array`` s (no transfer to the host, no gather, shardings
                kept) instead of NumPy arrays.
            **kwargs: Inputs by name, where the model has ``input_names``.

        Returns:
            A list with one array per output of ``@main``.

        Raises:
            InputError: An argument does not match its input (its subclasses say how: count,
                shape, dtype, range); the message names the input and the fix.
            ExecutionError: PJRT failed while running the program.

        Example:
            >>> import numpy as np
            >>> from latticecast import DType, Graph, TensorType
            >>> with Graph("scale", input_types=[TensorType(DType.float32, [3])], input_names=["x"]) as g:
            ...     g.output(g.inputs[0] * 2)
            >>> model = g.compile()
            >>> model(np.array([1, 2, 3], np.float32))
            [array([2., 4., 6.], dtype=float32)]
            >>> model(x=[1.0, 2.0, 3.0])                   # a list, checked and converted
            [array([2., 4., 6.], dtype=float32)]
            >>> model(np.array([1, 2, 3], np.int64))
            Traceback (most recent call last):
              ...
            latticecast.runtime.runtime_errors.InputDTypeError: ...
        """
        direct = self._direct
        if direct is not None and not return_arrays and not kwargs and len(args) == self._n:
            # NumPy arrays go straight to JAX's dispatcher, which refuses in C++ an array of another
            # dtype or shape, a list, a scalar for an array (_prepare then says which input is wrong
            # and how to fix it), with two exceptions checked here: with x64 off JAX narrows a 64-bit
            # array to the 32-bit input type silently, and takes a Python scalar for a 0-d input
            # without checking its range, and latticecast never casts implicitly.
            ndarray = np.ndarray
            for i, dt in self._guarded:
                a = args[i]
                if type(a) is not ndarray or a.dtype is not dt:
                    break
            else:
                try:
                    if self._single:  # one output: jax.jit returns it as it is (JitCall.single)
                        return [_asarray(direct(*args))]
                    return list(map(_asarray, direct(*args)))
                except self._runtime_error as e:
                    raise ExecutionError(f"PJRT failed while running @main: {e}") from e
                except Exception:  # noqa: BLE001 - what JAX refused (a dtype, a shape, a deleted array;
                    pass           # or jax.disable_jit() on): _prepare names the problem, or runs it
        if kwargs:
            args = self._bind(args, kwargs)
        outs = self._run(self._prepare(args))
        if return_arrays:
            return list(outs)
        if self._to_host is not None:
            return self._to_host(outs)
        asarray = np.asarray
        return [asarray(o) for o in outs]


def bind_arguments(args: "tuple[Argument, ...]", kwargs: "Mapping[str, Argument]", names: "Sequence[str] | None",
                   input_types: "Sequence[TensorSpec | TensorPattern]") -> "tuple[Argument, ...]":
    """The call's arguments in ``@main``'s order (keywords by ``names``), or an
    :class:`InputCountError` that lists what ``@main`` takes."""
    n = len(input_types)
    expected = ", ".join(f"{name}: {t}" if name else str(t)
                         for name, t in zip(names or [""] * n, input_types))
    if kwargs:
        if names is None:
            raise InputCountError(
                f"keyword arguments ({', '.join(kwargs)}) need input names; compile with "
                f"input_names=[...] or pass the {n} input(s) by position ({expected}).",
                expected=n, got=len(args) + len(kwargs))
        bound: list[Argument | object] = list(args) + [_MISSING] * (n - len(args))
        for k, v in kwargs.items():
            if k not in names:
                raise InputCountError(
                    f"unknown input name {k!r}; the inputs are {', '.join(names)}.",
                    name=k, expected=names, got=k)
            i = names.index(k)
            if i < len(args):
                raise InputCountError(f"input {i} ({k!r}) was given twice, by position and by "
                                      f"name.", index=i, name=k)
            bound[i] = v
        missing = [f"{i} ({names[i]!r})" for i, v in enumerate(bound) if v is _MISSING]
        if len(args) > n or missing:
            raise InputCountError(
                f"@main takes {n} input(s) ({expected}); missing input(s) "
                f"{', '.join(missing)}." if missing else
                f"@main takes {n} input(s) ({expected}), got {len(args)} positional.",
                expected=n, got=len(args) + len(kwargs))
        return cast("tuple[Argument, ...]", tuple(bound))  # no _MISSING is left
    raise InputCountError(
        f"@main takes {n} input(s) ({expected or 'none'}), got {len(args)}.",
        expected=n, got=len(args))


def _prod(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
