"""``Model``: a compiled module on one device, called with NumPy arrays.

A call checks the arguments against ``@main``'s signature (count, shape, dtype;
Python values by kind and range, see :mod:`.inputs`), makes each caller array
private (see :mod:`.execute` for why), runs the executable and returns one NumPy
array per output, always as a list.

The check of a well-formed call is a handful of attribute comparisons per
argument, done inline here; everything else (Python values, wrong dtypes, error
messages) goes through :func:`.inputs.convert_input`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from .devices import device_name
from .errors import InputCountError
from .execute import SMALL_COPY, DeviceCall, FastCall, make_runner, private_copy
from .inputs import convert_input
from .signature import Signature, TensorSpec

__all__ = ["Model", "CompiledProgram", "bind_arguments"]


@dataclass
class CompiledProgram:
    """One compiled executable and what is needed to run it; shared by every
    :class:`Model` that ``compile`` returns for the same program and device."""

    executable: Any
    device: Any
    signature: Signature
    key: str
    _runner: "DeviceCall | FastCall | None" = field(default=None, repr=False)

    @property
    def runner(self) -> "DeviceCall | FastCall":
        if self._runner is None:
            self._runner = make_runner(self.executable, self.device, self.signature)
        return self._runner


class Model:
    """A compiled program on one device. ``model(*arrays)`` returns a list of NumPy arrays.

    Attributes: ``input_types``/``output_types`` (:class:`TensorSpec`: dtype and
    shape), ``input_names`` (or ``None``), ``device`` (a ``jax.Device``),
    ``fingerprint`` (the compilation-cache key) and ``cache_source`` (``"compiled"``,
    ``"memory"`` or ``"disk"``: where ``compile`` got the executable).

    Outputs are read-only on CPU: they are views of the result buffers, kept alive
    by the array (no copy). Call ``.copy()`` on one to write to it.
    """

    __slots__ = ("_program", "_runner", "_run", "_expected", "_n", "input_names", "cache_source")

    def __init__(self, program: CompiledProgram, input_names: Sequence[str] | None = None,
                 cache_source: str = "compiled") -> None:
        self._program = program
        self._runner = program.runner
        self._run = self._runner.run
        # Per input: dtype, shape, and whether a plain ``.copy()`` is the cheapest private copy.
        self._expected = tuple((s.np_dtype, s.shape, s.np_dtype.itemsize * _prod(s.shape) < SMALL_COPY)
                               for s in program.signature.inputs)
        self._n = len(self._expected)
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
    def device(self) -> Any:
        return self._program.device

    @property
    def fingerprint(self) -> str:
        return self._program.key

    @property
    def executable(self) -> Any:
        """The PJRT ``LoadedExecutable`` (for inspection: ``.hlo_modules()``, ``.cost_analysis()``)."""
        return self._program.executable

    @property
    def dispatch(self) -> str:
        """``"dispatch"`` (jaxlib's C++ dispatcher) or ``"plain"``: which call path runs."""
        r = self._runner
        return "plain" if isinstance(r, FastCall) and r.disabled else r.kind

    def __repr__(self) -> str:
        names = self.input_names or tuple(f"%arg{i}" for i in range(self._n))
        ins = ", ".join(f"{n}: {t}" for n, t in zip(names, self.input_types))
        outs = ", ".join(str(t) for t in self.output_types)
        return f"<Model main({ins}) -> ({outs}) on {device_name(self.device)}>"

    # -- calls ---------------------------------------------------------------------------

    def _bind(self, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
        return bind_arguments(args, kwargs, self.input_names, self.input_types)

    def _convert(self, value: Any, i: int) -> np.ndarray:
        names = self.input_names
        arr, owned = convert_input(value, self.input_types[i], i, names[i] if names else None)
        return arr if owned and arr.flags.c_contiguous else private_copy(arr)

    def __call__(self, *args: Any, **kwargs: Any) -> list[np.ndarray]:
        if kwargs or len(args) != self._n:
            args = self._bind(args, kwargs)
        # The common case inline: a NumPy array of exactly the right dtype and shape.
        ndarray = np.ndarray
        arrays = []
        append = arrays.append
        for a, (dt, shape, small) in zip(args, self._expected):
            if type(a) is ndarray and (a.dtype is dt or a.dtype == dt) and a.shape == shape:
                append(a.copy() if small else private_copy(a))  # .copy() is C-contiguous
            else:
                append(self._convert(a, len(arrays)))
        asarray = np.asarray
        return [asarray(o) for o in self._run(arrays)]


def bind_arguments(args: tuple[Any, ...], kwargs: Mapping[str, Any], names: "Sequence[str] | None",
                   input_types: Sequence[Any]) -> tuple[Any, ...]:
    """The call's arguments in ``@main``'s order (keywords by ``names``), or an
    :class:`InputCountError` that lists what ``@main`` takes."""
    n = len(input_types)
    expected = ", ".join(f"{name}: {t}" if name else str(t)
                         for name, t in zip(names or [None] * n, input_types))
    if kwargs:
        if names is None:
            raise InputCountError(
                f"keyword arguments ({', '.join(kwargs)}) need input names; compile with "
                f"input_names=[...] or pass the {n} input(s) by position ({expected}).",
                expected=n, got=len(args) + len(kwargs))
        bound: list[Any] = list(args) + [_MISSING] * (n - len(args))
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
        return tuple(bound)
    raise InputCountError(
        f"@main takes {n} input(s) ({expected or 'none'}), got {len(args)}.",
        expected=n, got=len(args))


def _prod(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
