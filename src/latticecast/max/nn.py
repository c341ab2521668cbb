"""MAX's ``max.nn`` as far as a graph needs it: :class:`Signals`, the signal buffers of MAX's collectives.

MAX's multi-GPU collectives (``ops.allreduce.sum``, ``ops.allgather``, ``ops.reducescatter.sum``,
``ops.distributed_broadcast``, ``ops.distributed_scatter``) take one *signal buffer* per device:
memory its kernels use to synchronise peers over peer-to-peer links. A MAX program declares them as
graph inputs, ``*Signals(devices).input_types()``, and passes ``graph.inputs[i].buffer`` to the
collective. latticecast maps the collectives onto StableHLO, whose collectives synchronise themselves,
so a signal buffer is a graph input that names a device and nothing more: it is not an argument of
the compiled program, and the collectives only check that there is one per device, as MAX does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..promotion.device_ref import DeviceRef, DeviceRefLike
from ..promotion.dtypes import DType
from ..promotion.tensor_type import BufferType

if TYPE_CHECKING:
    from .driver import Buffer

__all__ = ["Signals"]


class Signals:
    """The signal buffers of a collective over ``devices`` (MAX's ``max.nn.Signals``).

    MAX takes GPUs only (its kernels synchronise over peer-to-peer links); StableHLO's collectives run
    on any platform, so latticecast also takes CPU devices (a multi-device CPU graph runs with
    ``XLA_FLAGS=--xla_force_host_platform_device_count=N``).

    Args:
        devices: The devices the collective runs over, one buffer each.

    Example:
        >>> from latticecast.max import DeviceRef
        >>> from latticecast.max.nn import Signals
        >>> signals = Signals([DeviceRef.GPU(0), DeviceRef.GPU(1)])
        >>> [t.device for t in signals.input_types()], signals.input_types()[0].shape == (Signals.NUM_BYTES,)
        ([gpu:0, gpu:1], True)
    """

    NUM_BYTES = 8 * 3 * 1024 * 8 * 4 + 16 + 3 * 8 * 1024 * 1024 + 256 * 1024 * 1024
    """The size MAX 26.7 gives a signal buffer (its ``Signal`` struct, Lamport region and scratch)."""

    devices: list[DeviceRef]
    """The devices the signals communicate between."""

    def __init__(self, devices: Iterable[DeviceRefLike]) -> None:
        self.devices = [DeviceRef.parse(d) for d in devices]

    def input_types(self) -> list[BufferType]:
        """The graph input types of the buffers, one ``uint8[NUM_BYTES]`` per device, in order.

        Returns:
            A list of :class:`~latticecast.promotion.tensor_type.BufferType`.

        Example:
            >>> from latticecast.max import DeviceRef
            >>> from latticecast.max.nn import Signals
            >>> Signals([DeviceRef.GPU(1)]).input_types()[0].device
            gpu:1
        """
        return [BufferType(DType.uint8, (Signals.NUM_BYTES,), device) for device in self.devices]

    def buffers(self) -> list[Buffer]:
        """The buffers to pass when the graph runs: none, since a compiled latticecast program takes no
        signal buffers (MAX's compile-only mode answers the same).

        Returns:
            An empty list.

        Example:
            >>> from latticecast.max import DeviceRef
            >>> from latticecast.max.nn import Signals
            >>> Signals([DeviceRef.GPU(0), DeviceRef.GPU(1)]).buffers()
            []
        """
        return []
