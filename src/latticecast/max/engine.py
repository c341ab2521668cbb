"""MAX's ``max.engine`` on latticecast's runtime: ``InferenceSession``, ``Model`` and ``TensorSpec``.

``from max.engine import InferenceSession`` becomes ``from latticecast.max.engine import
InferenceSession``, and a MAX program runs unchanged:
``InferenceSession(devices=[CPU()]).load(graph, weights_registry={...}).execute(*inputs)`` gives a
list of :class:`~latticecast.max.driver.Buffer` s (``.to_numpy()`` reads one).

``load`` compiles the graph with :meth:`Graph.compile <latticecast.Graph.compile>`, that is the runtime's
:func:`~latticecast.runtime.compiler.compile_graph` (PJRT, through the compilation cache) for the
graph's device, and binds each of the graph's weights
(:attr:`Graph.weights <latticecast.Graph.weights>`) to its value in ``weights_registry``: checked
once against the weight's dtype and shape, never cast, and placed on the device once. ``execute``
passes the inputs and the bound weights to the compiled model; inputs are checked as the runtime
checks them (count, shape, dtype; no silent casts).

MAX's other ways to load (a saved ``.mef`` path, ``custom_extensions``, tile-based fusion) drive
MAX's own compiler and are refused with the reason.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence, Union, cast

import jax
import numpy as np
import numpy.typing as npt

from ..promotion.device_ref import DeviceRef
from ..promotion.dims import SymbolicDim
from ..promotion.dtypes import DType
from ..errors import GraphError, LatticecastError
from ..graph import Graph
from ..runtime import InputCountError, Model as RuntimeModel, PolymorphicModel
from ..runtime.compiler import multi_device_target
from ..promotion.tensor_type import TensorType
from .driver import CPU, Buffer, Device, DeviceLike, as_device

ArrayValue = Union[Buffer, "jax.Array", npt.ArrayLike]
"""A model's input, or a weight's value in ``weights_registry``: a driver buffer, a ``jax.Array``, a NumPy
array (or any DLPack array NumPy reads), or Python scalars and lists; of the input's (the weight's) dtype."""

__all__ = ["InferenceSession", "Model", "TensorSpec", "WeightsRegistryError", "MissingWeightError",
           "WeightMismatchError"]


class WeightsRegistryError(LatticecastError, ValueError):
    """A ``weights_registry`` that cannot supply the graph's weights. The attributes say which weight
    (``name``), what the graph declares (``expected``) and what the registry holds (``got``)."""

    def __init__(self, message: str, *, name: str, expected: object = None, got: object = None) -> None:
        super().__init__(message)
        self.name = name
        self.expected = expected
        self.got = got


class MissingWeightError(WeightsRegistryError, KeyError):
    """The registry has no value for one of the graph's weights."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class WeightMismatchError(WeightsRegistryError):
    """A weight's value has another dtype or shape than the weight declares."""


class TensorSpec:
    """An input's or output's ``name``, ``shape`` (a list of sizes; ``None`` for a symbolic dimension)
    and ``dtype``, as MAX's ``TensorSpec``."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name: str, shape: Sequence[int | None], dtype: DType) -> None:
        self.name = name
        self.shape: list[int | None] = list(shape)
        self.dtype = dtype

    @classmethod
    def of(cls, name: str, t: TensorType) -> "TensorSpec":
        return cls(name, [int(d) if isinstance(d, int) else None for d in t.shape], t.dtype)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorSpec) and (self.name, self.shape, self.dtype) == \
            (other.name, other.shape, other.dtype)

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.shape), self.dtype))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name})"


def _input_name(i: int) -> str:
    return f"input{i}"


def _output_name(i: int) -> str:
    return f"output{i}"


class Model:
    """A graph compiled and loaded with its weights (MAX's ``max.engine.Model``); make one with
    :meth:`InferenceSession.load`.

    ``model.execute(*inputs)`` and ``model(*inputs, **named)`` run it and return a list of
    :class:`~latticecast.max.driver.Buffer` s on the model's device. ``input_metadata`` and
    ``output_metadata`` describe the graph's inputs and outputs (weights are not inputs), and
    ``devices`` the device it runs on. ``runtime_model`` is the underlying
    :class:`latticecast.runtime.Model`, which takes the weights after the inputs.
    """

    def __init__(self, graph: Graph, runtime_model: "RuntimeModel | PolymorphicModel", device: Device,
                 weights: "Sequence[jax.Array]") -> None:
        self.runtime_model = runtime_model
        self._device = device
        self._weights = tuple(weights)
        self._n = len(graph.input_types)
        names = graph.input_names[:self._n] if graph.input_names else None
        self.input_metadata: list[TensorSpec] = [
            TensorSpec.of(names[i] if names else _input_name(i), t) for i, t in enumerate(graph.input_types)]
        self.output_metadata: list[TensorSpec] = [
            TensorSpec.of(_output_name(i), t) for i, t in enumerate(graph.output_types)]
        self.name = graph.name

    @property
    def devices(self) -> list[Device]:
        """The device the model runs on (one: latticecast compiles a graph for one device)."""
        return [self._device]

    @property
    def input_devices(self) -> list[Device]:
        return self.devices * self._n

    @property
    def output_devices(self) -> list[Device]:
        return self.devices * len(self.output_metadata)

    def execute(self, *args: ArrayValue) -> list[Buffer]:
        """Run the model on its inputs.

        Args:
            *args: One per graph input, in order: NumPy arrays, driver buffers (``Buffer``/``Tensor``),
                ``jax.Array`` s, or Python scalars and lists whose values fit the input's dtype.

        Returns:
            One :class:`~latticecast.max.driver.Buffer` per output, on the model's device.

        Raises:
            InputError: An argument does not match its input (count, shape, dtype, range); the message
                names the input and the fix. Nothing is cast silently.
            ExecutionError: PJRT failed while running the program.

        Example:
            >>> import numpy as np
            >>> from latticecast.max import DType, DeviceRef, Graph, TensorType
            >>> from latticecast.max.driver import CPU
            >>> from latticecast.max.engine import InferenceSession
            >>> with Graph("add_one", input_types=[TensorType(DType.float32, ["batch"], DeviceRef.CPU())]) as g:
            ...     g.output(g.inputs[0] + 1.0)
            >>> model = InferenceSession(devices=[CPU()]).load(g)
            >>> model.input_metadata
            [TensorSpec(shape=[None], dtype=DType.float32, name=input0)]
            >>> model.execute(np.ones(2, np.float32))[0].to_numpy()
            array([2., 2.], dtype=float32)
        """
        if len(args) != self._n:
            raise InputCountError(f"model {self.name!r} takes {self._n} input(s) "
                                  f"({', '.join(s.name for s in self.input_metadata) or 'none'}) and got "
                                  f"{len(args)}; its weights are bound at load time, so pass only the inputs",
                                  expected=self._n, got=len(args))
        inputs = [a.array if isinstance(a, Buffer) else a for a in args]
        outputs = self.runtime_model(*inputs, *self._weights, return_arrays=True)
        return [Buffer.from_array(o) for o in outputs]

    def __call__(self, *args: ArrayValue, **kwargs: ArrayValue) -> list[Buffer]:
        """Run the model on inputs given by position or by name (``input_metadata``'s names), as MAX's
        ``Model.__call__``.

        Raises:
            InputCountError: A name that is no input, an input given twice, or one missing.
        """
        if not kwargs:
            return self.execute(*args)
        names = [s.name for s in self.input_metadata]
        bound: list[ArrayValue | object] = list(args) + [_MISSING] * (self._n - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise InputCountError(f"model {self.name!r} has no input named {key!r}; its inputs are "
                                      f"{', '.join(names) or 'none'}", name=key)
            i = names.index(key)
            if i < len(args):
                raise InputCountError(f"input {key!r} of model {self.name!r} was given by position and by name; "
                                      "give it once", index=i, name=key)
            bound[i] = value
        missing = [names[i] for i, v in enumerate(bound) if v is _MISSING]
        if missing or len(bound) != self._n:
            raise InputCountError(f"model {self.name!r} takes {self._n} input(s); missing: "
                                  f"{', '.join(missing) or 'none'}, given: {len(args) + len(kwargs)}",
                                  expected=self._n, got=len(args) + len(kwargs))
        return self.execute(*cast("list[ArrayValue]", bound))  # no _MISSING is left

    def __repr__(self) -> str:
        ins = ", ".join(f"{s.name}: {s.dtype.name}{s.shape}" for s in self.input_metadata)
        return f"Model({self.name!r}, inputs=[{ins}], devices={self.devices})"


_MISSING = object()


def _weight_value(name: str, t: TensorType, value: ArrayValue, device: "jax.Device") -> "jax.Array":
    """``value`` checked against weight ``name``'s type and placed on ``device`` (a ``jax.Device``)."""
    import jax
    array = value.array if isinstance(value, Buffer) else value
    if not isinstance(array, jax.Array):
        try:
            array = np.asarray(array)
        except Exception as e:  # noqa: BLE001 - any object NumPy cannot read: say which weight
            raise WeightMismatchError(f"the value of weight {name!r} is a {type(value).__name__}, which is not an "
                                      f"array ({e}); pass a NumPy array, a driver Buffer or any DLPack array",
                                      name=name, expected=t, got=type(value).__name__) from None
    try:
        got_dtype: DType | str = DType.parse(array.dtype)
    except LatticecastError:
        got_dtype = str(array.dtype)
    got_shape = tuple(array.shape)
    if got_dtype != t.dtype or got_shape != t.shape:
        got_text = f"{got_dtype.name if isinstance(got_dtype, DType) else got_dtype}{list(got_shape)}"
        fix = (f"convert it with .astype(np.{t.dtype.np_dtype.name})" if got_shape == t.shape else
               "pass the array the weight was declared for (or declare the weight with the array's shape)")
        raise WeightMismatchError(f"weight {name!r} is declared {t.dtype.name}{t.shape} and "
                                  f"weights_registry[{name!r}] is {got_text}; {fix}. Weights are never cast "
                                  "implicitly", name=name, expected=t, got=got_text)
    if isinstance(array, np.ndarray):  # the model owns its copy (the registry's array may change): PJRT's
        array = np.array(array, order="C", copy=True)  # CPU client aliases a NumPy array it can
    with jax.enable_x64(True):  # an int64 or float64 weight stays 64-bit (jax narrows it with x64 off)
        placed: jax.Array = jax.device_put(array, device, may_alias=False)
    return placed


class InferenceSession:
    """Where graphs are loaded and run (MAX's ``max.engine.InferenceSession``).

    Args:
        num_threads: Accepted for MAX's signature; PJRT sizes its own thread pools.
        devices: The devices models may run on (driver devices: ``CPU()``, ``Accelerator()``; or
            ``DeviceRef`` s). The CPU is always available, as in MAX. Default: ``[CPU()]``.
        custom_extensions: Must be empty: MAX's Mojo kernels have no StableHLO form.

    Raises:
        GraphError: ``custom_extensions`` were given.
        DeviceNotFoundError: A device that is not present.

    Example:
        >>> import numpy as np
        >>> from latticecast.max import DType, DeviceRef, Graph, TensorType, Weight
        >>> from latticecast.max.driver import CPU
        >>> from latticecast.max.engine import InferenceSession
        >>> w = Weight("w", DType.float32, [2, 2], DeviceRef.CPU())
        >>> with Graph("linear", input_types=[TensorType(DType.float32, [1, 2], DeviceRef.CPU())]) as g:
        ...     g.output(g.inputs[0] @ w)
        >>> session = InferenceSession(devices=[CPU()])
        >>> model = session.load(g, weights_registry={"w": np.array([[1, 2], [3, 4]], np.float32)})
        >>> model.execute(np.array([[1, 1]], np.float32))[0].to_numpy()
        array([[4., 6.]], dtype=float32)
        >>> session.load(g, weights_registry={})
        Traceback (most recent call last):
          ...
        latticecast.max.engine.MissingWeightError: graph 'linear' uses weight 'w' (float32[2, 2]) and weights_registry has no value for it; ...
    """

    def __init__(self, num_threads: int | None = None, devices: Iterable[DeviceLike] | None = None, *,
                 custom_extensions: object = None) -> None:
        if custom_extensions:
            raise GraphError("InferenceSession(custom_extensions=...): MAX's custom kernels (Mojo packages) have no "
                             "StableHLO form; leave custom_extensions out")
        self.num_threads = num_threads
        chosen = [as_device(d) for d in (devices if devices is not None else [CPU()])]
        self._devices: list[Device] = list(dict.fromkeys(chosen))

    @property
    def devices(self) -> list[Device]:
        return list(self._devices)

    def load(self, model: Graph, *, custom_extensions: object = None,
             weights_registry: Mapping[str, ArrayValue] | None = None, tile_based_fusion: bool = False) -> Model:
        """Compile ``model`` and bind its weights: a :class:`Model` ready to execute.

        Args:
            model: A finished graph (``g.output(...)`` called): :class:`latticecast.max.Graph` or
                :class:`latticecast.Graph`.
            custom_extensions: Must be empty (see the class).
            weights_registry: The value of each of the graph's weights, by name: NumPy arrays,
                driver buffers, ``jax.Array`` s or DLPack arrays, of exactly the weight's dtype and
                shape. Names the graph does not use are ignored, as in MAX.
            tile_based_fusion: Accepted for MAX's signature; XLA decides its own fusion.

        Returns:
            The loaded model.

        Raises:
            GraphError: ``model`` is not a graph (a saved MAX model path, say), or it runs on a device
                this session was not given.
            MissingWeightError: A weight the graph uses has no value in ``weights_registry``.
            WeightMismatchError: A weight's value has another dtype or shape.
            CompileError: PJRT could not compile the graph.
        """
        if custom_extensions:
            raise GraphError("load(custom_extensions=...): MAX's custom kernels (Mojo packages) have no StableHLO "
                             "form; leave custom_extensions out")
        if not isinstance(model, Graph):
            raise GraphError(f"load takes a Graph, not {type(model).__name__} {model!r}: MAX's saved models "
                             "(.mef files) are MAX's compiler's output and latticecast cannot read them; build "
                             "the graph in Python")
        device = model.device
        allowed = {DeviceRef.parse(d) for d in self._devices} | {DeviceRef.CPU()}
        for needed in (model.devices if model.multi_device else [device]):
            if needed not in allowed:
                raise GraphError(f"graph {model.name!r} runs on {needed}, which this session was not given (its "
                                 f"devices: {', '.join(map(repr, self._devices))}); pass it in "
                                 "InferenceSession(devices=[...])")
        if model.multi_device and model.layout is None:  # every device present; one program (see Graph.compile)
            device, target = multi_device_target(model)
            runtime_model = model.compile(target)  # the runtime's compile_graph (a subgraph refuses)
        else:
            runtime_model = model.compile(device)
        runs_on = as_device(device)
        registry = {} if weights_registry is None else weights_registry
        values = []
        for name, t in model.weights.items():
            if name not in registry:
                raise MissingWeightError(
                    f"graph {model.name!r} uses weight {name!r} ({t}) and weights_registry has no value for it; "
                    f"add weights_registry[{name!r}] = an array of dtype {t.dtype.name} and shape {t.shape}",
                    name=name, expected=t)
            values.append(_weight_value(name, t, registry[name], runs_on.jax_device))
        return Model(model, runtime_model, runs_on, values)

    def __repr__(self) -> str:
        return f"InferenceSession(devices={self._devices})"
