"""MAX's ``max.driver`` on PJRT: devices and the tensors a model takes and returns.

``from max.driver import CPU, Tensor`` becomes ``from latticecast.max.driver import CPU, Tensor``
and means the same: ``CPU()`` and ``Accelerator()`` are devices (here PJRT devices, found the way
:func:`latticecast.runtime.resolve_device` finds them), ``accelerator_count()`` counts GPUs, and a
:class:`Buffer` (MAX 26.7's name; ``Tensor`` is the name MAX's earlier releases and documentation
use, kept as an alias) holds an array on a device: ``Buffer.from_numpy(a)``, ``b.to_numpy()``,
``b.to(device)``, ``b.shape``, ``b.dtype``, ``Buffer(dtype, shape, device)`` and
``Buffer.zeros(shape, dtype, device)``.

A :class:`Buffer` wraps a ``jax.Array``, so a model's outputs stay on its device until
``to_numpy()`` reads them (on the CPU without a copy: the array is a read-only view, as NumPy
arrays of device memory are). A device is accepted wherever a
:class:`~latticecast.DeviceRef` is (``DeviceRef.from_device(CPU())``, ``TensorType(..., CPU())``).
MAX's buffer internals (streams, pinned memory, in-place copies, memory maps) have no PJRT form
here and are not provided.
"""

from __future__ import annotations

from types import EllipsisType
from typing import Any, Sequence, Union

import jax
import numpy as np
import numpy.typing as npt

from ..promotion.device_ref import DeviceKind, DeviceRef, DeviceRefLike
from ..promotion.dtypes import DType, DTypeLike
from ..errors import LatticecastError
from ..runtime import available_devices, resolve_device
from ..runtime.devices import GPU_PLATFORMS
from ..runtime.signature import PJRT_DTYPES

__all__ = ["Accelerator", "Buffer", "CPU", "Device", "DriverError", "Tensor", "accelerator_count"]


DeviceLike = Union["Device", DeviceRefLike, None]
"""What takes a device here: a driver :class:`Device`, a ``DeviceRef`` (ours or MAX's), a name (``"gpu:1"``),
or ``None`` (the CPU)."""

BufferIndex = Union[int, slice, EllipsisType, None, Sequence[int], tuple[Union[int, slice, EllipsisType, None], ...]]
"""What ``buffer[...]`` takes: NumPy's basic indexing."""


class DriverError(LatticecastError, ValueError):
    """A buffer made or moved the wrong way: a dtype PJRT has no buffers for, a shape that is not
    a list of sizes, something that is not a device. The message says what to pass instead."""


class Device:
    """A PJRT device as MAX's driver names one: ``label`` (``"cpu"`` or ``"gpu"``), ``id``, ``api``
    (``"cpu"``, ``"cuda"``, ``"rocm"``) and ``is_host``. Two devices are equal when they are the same
    device. Make one with :class:`CPU` or :class:`Accelerator`."""

    __slots__ = ("jax_device", "label", "id")

    def __init__(self, jax_device: jax.Device) -> None:
        self.jax_device = jax_device
        platform = jax_device.client.platform
        self.label: str = DeviceKind.CPU.value if platform == "cpu" else DeviceKind.GPU.value
        self.id: int = DeviceRef.parse(self._name()).id

    def _name(self) -> str:
        from ..runtime.devices import device_name
        name = device_name(self.jax_device)
        return name if name.startswith("cpu") else "gpu:" + name.partition(":")[2]

    @property
    def api(self) -> str:
        """The PJRT platform: ``"cpu"``, ``"cuda"``, ``"rocm"``."""
        return str(self.jax_device.client.platform)

    @property
    def is_host(self) -> bool:
        return self.label == DeviceKind.CPU.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.jax_device == self.jax_device

    def __hash__(self) -> int:
        return hash(self.jax_device)

    def __repr__(self) -> str:
        return f"Device(type={self.label},id={self.id})"


class CPU(Device):
    """The host CPU (MAX's ``CPU(id=-1)``: a negative id is device 0).

    Example:
        >>> from latticecast.max.driver import CPU
        >>> CPU()
        Device(type=cpu,id=0)
    """

    __slots__ = ()

    def __init__(self, id: int = -1) -> None:
        super().__init__(resolve_device(f"cpu:{max(id, 0)}"))


class Accelerator(Device):
    """A GPU (MAX's ``Accelerator(id=-1)``: a negative id is device 0), through its PJRT plug-in.

    Raises:
        DeviceNotFoundError: No GPU is present (the message lists the devices there are and how to
            install a GPU plug-in), or ``id`` is out of range.
    """

    __slots__ = ()

    def __init__(self, id: int = -1) -> None:
        super().__init__(resolve_device(f"gpu:{max(id, 0)}"))


def accelerator_count() -> int:
    """The number of GPUs this process can use (0 without a GPU plug-in), as MAX's ``accelerator_count``.

    Returns:
        How many devices of the GPU platforms (CUDA, ROCm, oneAPI) are present.

    Example:
        >>> from latticecast.max.driver import CPU, Accelerator, accelerator_count
        >>> device = Accelerator() if accelerator_count() > 0 else CPU()
        >>> device.label in ("cpu", "gpu")
        True
    """
    return sum(1 for name in available_devices() if name.partition(":")[0] in GPU_PLATFORMS)


def as_device(device: DeviceLike) -> Device:
    """``device`` as a driver :class:`Device`: one already, a ``DeviceRef`` (ours or MAX's) or a name
    (``"cpu"``, ``"gpu:1"``), or ``None`` (the CPU)."""
    if device is None:
        return CPU()
    if isinstance(device, Device):
        return device
    try:
        ref = DeviceRef.parse(device)
    except LatticecastError:
        raise DriverError(f"{device!r} is not a device: pass CPU(), Accelerator(i), a DeviceRef or a name such as "
                          "'cpu'") from None
    return CPU(ref.id) if ref.is_cpu() else Accelerator(ref.id)


def _put(array: npt.ArrayLike | jax.Array, device: jax.Device, *, may_alias: bool | None = None) -> jax.Array:
    """``jax.device_put`` keeping 64-bit dtypes (jax narrows int64 and float64 to 32 bits unless x64 is on,
    and a buffer holds what it was given)."""
    with jax.enable_x64(True):
        placed: jax.Array = jax.device_put(array, device, may_alias=may_alias)
        return placed


def _pjrt_dtype(dtype: DTypeLike, what: str) -> DType:
    parsed = DType.parse(dtype)
    if parsed not in PJRT_DTYPES:
        raise DriverError(f"{what} has dtype {parsed.name}, which PJRT has no buffers for; convert the values to "
                          f"one of {', '.join(sorted(d.name for d in PJRT_DTYPES))}")
    return parsed


def _sizes(shape: int | Sequence[int]) -> tuple[int, ...]:
    try:
        sizes = tuple(int(s) for s in ([shape] if isinstance(shape, int) else shape))
    except (TypeError, ValueError):
        raise DriverError(f"a buffer's shape is a list of sizes, not {shape!r}") from None
    if any(s < 0 for s in sizes):
        raise DriverError(f"a buffer's shape {list(sizes)} has a negative size")
    return sizes


class Buffer:
    """An array on a device (MAX's ``max.driver.Buffer``, formerly ``Tensor``).

    ``Buffer(dtype, shape, device=None)`` allocates one (zero-filled here; MAX's memory is
    uninitialised, so no MAX program reads it before writing). ``Buffer.from_numpy(a)`` puts a NumPy
    array on the CPU; ``.to(device)`` moves it; ``.to_numpy()`` reads it back.

    Args:
        dtype: The element type (a :class:`~latticecast.DType`, MAX's, or a NumPy dtype).
        shape: The sizes.
        device: A driver device (``CPU()``, ``Accelerator()``), a ``DeviceRef`` or a name; the CPU
            when ``None``.

    Raises:
        DriverError: A dtype PJRT has no buffers for, or a shape that is not a list of sizes.

    Example:
        >>> import numpy as np
        >>> from latticecast.max.driver import CPU, Buffer
        >>> b = Buffer.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
        >>> b.shape, b.dtype, b.device
        ((2, 3), DType.float32, Device(type=cpu,id=0))
        >>> b.to(CPU()).to_numpy()[1]
        array([3., 4., 5.], dtype=float32)
        >>> Buffer.zeros([2], np.int32).to_numpy()
        array([0, 0], dtype=int32)
    """

    __slots__ = ("_array",)

    def __init__(self, dtype: DTypeLike, shape: Sequence[int], device: DeviceLike = None) -> None:
        storage = _pjrt_dtype(dtype, "a buffer")
        self._array = _put(np.zeros(_sizes(shape), storage.np_dtype), as_device(device).jax_device)

    @classmethod
    def from_array(cls, array: jax.Array) -> "Buffer":
        """A buffer holding ``array``, a ``jax.Array`` (used as it is, on its device)."""
        buffer = cls.__new__(cls)
        buffer._array = array
        return buffer

    @classmethod
    def from_numpy(cls, array: np.ndarray) -> "Buffer":
        """``array`` on the CPU (a copy: PJRT owns its buffers).

        Args:
            array: A NumPy array of a dtype PJRT has buffers for.

        Returns:
            The buffer.

        Raises:
            DriverError: ``array`` is not a NumPy array, or PJRT has no buffers of its dtype.

        Example:
            >>> import numpy as np
            >>> from latticecast.max.driver import Buffer
            >>> Buffer.from_numpy(np.array([1, 2], np.int8))
            latticecast.max.driver.Buffer(DType.int8, (2,), cpu[0])
        """
        if not isinstance(array, np.ndarray):
            raise DriverError(f"from_numpy takes a NumPy array, not {type(array).__name__}; use "
                              "Buffer.from_dlpack for other arrays")
        _pjrt_dtype(array.dtype, "the array")
        return cls.from_array(_put(array, CPU().jax_device))

    @classmethod
    def from_dlpack(cls, array: Any, *, copy: bool | None = None) -> "Buffer":  # Any: DLPack's protocol
        """A buffer holding any DLPack array's values (a torch tensor, a JAX array), on the CPU.

        Args:
            array: An object with ``__dlpack__``.
            copy: Accepted for MAX's signature; the values are always copied into a PJRT buffer.

        Returns:
            The buffer.

        Example:
            >>> import numpy as np
            >>> from latticecast.max.driver import Buffer
            >>> Buffer.from_dlpack(np.ones(2, np.float32)).to_numpy()
            array([1., 1.], dtype=float32)
        """
        return cls.from_numpy(np.from_dlpack(array))

    @staticmethod
    def zeros(shape: Sequence[int], dtype: DTypeLike, device: DeviceLike = None) -> "Buffer":
        """A buffer of zeros (MAX's ``Buffer.zeros(shape, dtype, device=None)``)."""
        return Buffer(dtype, shape, device)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._array.shape)

    @property
    def dtype(self) -> DType:
        return DType.parse(self._array.dtype)

    @property
    def rank(self) -> int:
        return len(self._array.shape)

    @property
    def num_elements(self) -> int:
        return int(self._array.size)

    @property
    def element_size(self) -> int:
        return int(self._array.dtype.itemsize)

    @property
    def device(self) -> Device:
        (device,) = self._array.devices()
        return Device(device)

    @property
    def is_host(self) -> bool:
        return self.device.is_host

    @property
    def array(self) -> jax.Array:
        """The ``jax.Array`` that holds the values."""
        return self._array

    def to(self, device: DeviceLike) -> "Buffer":
        """The buffer on ``device`` (itself when it is there already).

        Raises:
            DriverError: ``device`` is not a device.
            DeviceNotFoundError: The device is not present.
        """
        target = as_device(device)
        if target == self.device:
            return self
        return Buffer.from_array(_put(self._array, target.jax_device))

    def copy(self, device: DeviceLike = None) -> "Buffer":
        """A copy, on ``device`` (default: the same device)."""
        target = self.device if device is None else as_device(device)
        return Buffer.from_array(_put(self._array, target.jax_device, may_alias=False))

    def contiguous(self) -> "Buffer":
        return self

    def to_numpy(self) -> np.ndarray:
        """The values as a NumPy array (on the CPU a read-only view of the buffer, no copy).

        Example:
            >>> import numpy as np
            >>> from latticecast.max.driver import Buffer
            >>> Buffer.from_numpy(np.eye(2, dtype=np.float32)).to_numpy()
            array([[1., 0.],
                   [0., 1.]], dtype=float32)
        """
        return np.asarray(self._array)

    def item(self) -> bool | int | float | complex:
        """The one value of a buffer with one element, as a Python scalar.

        Raises:
            DriverError: The buffer has more or fewer than one element.
        """
        if self._array.size != 1:
            raise DriverError(f"item() reads a buffer of one element; this one has shape {list(self.shape)}: use "
                              "to_numpy()")
        value: bool | int | float | complex = self.to_numpy().reshape(()).item()
        return value

    def __getitem__(self, index: BufferIndex) -> "Buffer":
        """The elements at ``index`` (NumPy's indexing) as a buffer on the same device (a copy: PJRT
        buffers are immutable, where MAX's indexing gives a view). ``b[()]`` of a 0-d buffer is itself.

        Example:
            >>> import numpy as np
            >>> from latticecast.max.driver import Buffer
            >>> Buffer.from_numpy(np.arange(6, dtype=np.int32).reshape(2, 3))[1, 2].item()
            5
        """
        (device,) = self._array.devices()
        return Buffer.from_array(_put(np.asarray(self.to_numpy()[index]), device))

    def __setitem__(self, index: BufferIndex, value: "Buffer | npt.ArrayLike") -> None:
        """Write ``value`` (a number, an array or a buffer) at ``index``, converted to the buffer's dtype
        as NumPy converts it (a Python int beyond the dtype's range raises ``OverflowError``). The buffer
        then holds a new PJRT array on its device (PJRT's arrays are immutable).

        Example:
            >>> from latticecast.max.driver import CPU, Buffer
            >>> from latticecast import DType
            >>> b = Buffer(DType.float64, [], CPU())
            >>> b[()] = 2.5
            >>> b.item()
            2.5
        """
        values = np.array(self.to_numpy())  # a writable copy
        values[index] = value.to_numpy() if isinstance(value, Buffer) else value
        (device,) = self._array.devices()
        self._array = _put(values, device)

    def __array__(self, dtype: npt.DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        values = self.to_numpy()
        return values if dtype is None else values.astype(dtype)

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:  # Any: DLPack's protocol, as the array takes it
        return self._array.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:  # Any: DLPack's protocol
        return getattr(self._array, "__dlpack_device__")()  # jax.Array's stub omits it

    def __repr__(self) -> str:
        device = self.device
        return f"latticecast.max.driver.Buffer({self.dtype!r}, {self.shape}, {device.label}[{device.id}])"


Tensor = Buffer
"""MAX's name for :class:`Buffer` before 26.7, which its documentation and examples use."""
