"""``DeviceRef``: where a graph's tensors live, as MAX's ``max.graph.DeviceRef`` names it.

MAX places every tensor type on a device (``TensorType(dtype, shape, DeviceRef.CPU())``)
and compiles the graph for the devices it names. latticecast compiles a graph for one
PJRT device, so a :class:`DeviceRef` is a *placement*: the graph's device is the one its
input types name, and ``g.compile()`` without ``device=`` compiles for it (a GPU that is
not present is the runtime's ``DeviceNotFoundError``, with the devices that are).

MAX's own ``DeviceRef`` objects, and MAX's driver devices (``max.driver.CPU()``), are
accepted wherever a device is (:meth:`DeviceRef.parse`, duck-typed), so MAX stays optional.
This module imports nothing from MLIR or JAX.
"""

from __future__ import annotations

import enum
from typing import Union

from ..errors import GraphError

__all__ = ["DeviceKind", "DeviceRef", "DeviceRefLike"]


class DeviceKind(str, enum.Enum):
    """A device type: ``"cpu"`` or ``"gpu"`` (MAX's ``DeviceKind``)."""

    CPU = "cpu"
    GPU = "gpu"

    def __str__(self) -> str:
        return self.value


class DeviceRef:
    """A device by kind and index: ``DeviceRef.CPU()``, ``DeviceRef.GPU(1)``, ``DeviceRef("gpu", 1)``.

    ``str()`` is ``"cpu:0"``/``"gpu:1"``, which is also the name the runtime resolves
    (``"gpu"`` is whichever GPU platform a PJRT plug-in provides: CUDA, ROCm).
    """

    __slots__ = ("device_type", "id")

    def __init__(self, device_type: "DeviceKind | str", id: int = 0) -> None:
        try:
            kind = DeviceKind(str(device_type.value) if isinstance(device_type, enum.Enum) else device_type)
        except ValueError:
            raise GraphError(f"{device_type!r} is not a device kind: use 'cpu' or 'gpu' "
                             "(DeviceRef.CPU(), DeviceRef.GPU(i))") from None
        if isinstance(id, bool) or not isinstance(id, int):
            raise GraphError(f"device index {id!r} must be an integer")
        self.device_type: DeviceKind = kind
        self.id: int = max(id, 0)  # as MAX: a negative index means device 0

    @staticmethod
    def CPU(id: int = 0) -> "DeviceRef":
        return DeviceRef(DeviceKind.CPU, id)

    @staticmethod
    def GPU(id: int = 0) -> "DeviceRef":
        return DeviceRef(DeviceKind.GPU, id)

    def is_cpu(self) -> bool:
        return self.device_type is DeviceKind.CPU

    def is_gpu(self) -> bool:
        return self.device_type is DeviceKind.GPU

    def __str__(self) -> str:
        return f"{self.device_type.value}:{self.id}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceRef) and other.device_type is self.device_type and other.id == self.id

    def __hash__(self) -> int:
        return hash((self.device_type, self.id))

    @staticmethod
    def from_device(device: object) -> "DeviceRef":
        """The reference to a driver device (MAX's ``DeviceRef.from_device``): ``latticecast.max.driver``'s
        ``CPU()``/``Accelerator()``, MAX's own driver devices, or a ``DeviceRef`` (returned as it is).

        Args:
            device: A device with ``label`` (``"cpu"``/``"gpu"``) and ``id``, or a ``DeviceRef``.

        Returns:
            The ``DeviceRef`` of the same kind and index.

        Raises:
            GraphError: ``device`` is not a device (a name is refused here: use :meth:`parse`).

        Example:
            >>> from latticecast.max.driver import CPU
            >>> DeviceRef.from_device(CPU())
            cpu:0
        """
        if isinstance(device, str) or not (isinstance(device, DeviceRef) or hasattr(device, "label")
                                           or hasattr(device, "device_type")):
            raise GraphError(f"DeviceRef.from_device takes a driver device such as CPU() or Accelerator(), not "
                             f"{device!r}; for a name use DeviceRef.parse({device!r})")
        return DeviceRef.parse(device)

    @staticmethod
    def parse(device: "DeviceRefLike") -> "DeviceRef":
        """``device`` as a :class:`DeviceRef`: one already, MAX's ``DeviceRef`` (``.device_type``, ``.id``),
        a MAX driver device (``.label``, ``.id``), or a name (``"cpu"``, ``"gpu:1"``)."""
        if isinstance(device, DeviceRef):
            return device
        if isinstance(device, str):
            kind, sep, index = device.strip().lower().partition(":")
            if sep and not index.isdigit():
                raise GraphError(f"invalid device {device!r}: expected 'cpu', 'gpu' or 'gpu:1'")
            return DeviceRef(kind, int(index) if sep else 0)
        for attr in ("device_type", "label"):
            found = getattr(device, attr, None)
            number = getattr(device, "id", None)
            if found is not None and isinstance(number, int):
                return DeviceRef(found, number)
        raise GraphError(f"{device!r} is not a device: use DeviceRef.CPU(), DeviceRef.GPU(i) or a name such "
                         "as 'cpu' or 'gpu:1'")


DeviceRefLike = Union["DeviceRef", str, None, object]
"""A :class:`DeviceRef`, MAX's ``DeviceRef`` or driver device, or a name such as ``"gpu:1"``: MAX's
objects are duck-typed (MAX stays optional), so any object is accepted and :meth:`DeviceRef.parse`
checks it."""

CPU = DeviceRef.CPU()
"""The default device of a :class:`~latticecast.TensorType` (MAX's graphs always have the host CPU)."""
