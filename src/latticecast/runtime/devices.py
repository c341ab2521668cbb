"""Device selection: turn ``"cpu"``, ``"gpu:1"``, ``"cuda"`` or a ``jax.Device`` into a PJRT device.

latticecast does not create PJRT clients of its own: it uses the clients JAX has
already discovered (``jax.extend.backend.backends()``), for three reasons. A GPU
plug-in installed for JAX (``pip install -U "jax[cuda12]"``, the ROCm plug-in) is
found with no configuration; a ``jax.Device`` a user already holds is a valid
device here; and one process does not end up with two CPU clients, each with its
own thread pool, competing for the same cores.

Names are ``platform[:index]``. ``platform`` is ``cpu``, ``gpu`` (whichever GPU
platform is present: CUDA, ROCm or oneAPI), a concrete GPU platform (``cuda``,
``rocm``, ``oneapi``) or any other platform a PJRT plug-in registers (``tpu``).
``index`` counts the process's addressable devices of that platform, from 0.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Sequence, Union

from .. import jax_internals
from .runtime_errors import DeviceNotFoundError

if TYPE_CHECKING:
    import jax
    import numpy as np
    from jaxlib import xla_client

__all__ = ["DeviceLike", "DeviceList", "resolve_device", "available_devices", "device_name", "GPU_INSTALL_HINT"]

#: What ``compile(..., device=...)`` accepts: a name or a ``jax.Device``.
DeviceLike = Union[str, "jax.Device"]

#: What ``compile(..., devices=...)`` accepts: devices or names in partition order, or a mesh's array of
#: devices (``mesh.devices``).
DeviceList = Union[Sequence[DeviceLike], "np.ndarray"]

#: The platforms the generic name ``gpu`` stands for, in order of preference.
GPU_PLATFORMS = ("cuda", "rocm", "oneapi")

GPU_INSTALL_HINT = (
    'To run on an NVIDIA GPU install JAX\'s CUDA plug-in: pip install -U "jax[cuda12]" '
    '(or "jax[cuda13]"); for AMD GPUs install the ROCm plug-in as JAX\'s installation '
    "guide describes (https://docs.jax.dev/en/latest/installation.html). The plug-in "
    "must match the installed jaxlib version."
)


def _backends() -> "dict[str, xla_client.Client]":
    """Platform name -> PJRT client, as JAX discovered them (initialising them once, under a lock:
    jax's lazy start is not safe to begin from several threads at once)."""
    with jax_internals.INIT_LOCK:
        import jax.extend.backend

        return dict(jax.extend.backend.backends())


def _backend_errors() -> dict[str, str]:
    """Platforms whose plug-in is installed but failed to start, with the reason."""
    return jax_internals.backend_errors()


def _local_devices(client: "xla_client.Client") -> "list[jax.Device]":
    return sorted(client.local_devices(), key=lambda d: d.id)


def device_name(device: "jax.Device") -> str:
    """``"cpu:0"``, ``"cuda:1"``: the platform of the device's client and its local index."""
    client = device.client
    try:
        index = _local_devices(client).index(device)
    except ValueError:
        index = device.id
    return f"{client.platform}:{index}"


def available_devices() -> list[str]:
    """The names of every device this process can run on.

    Returns:
        A list of names such as ``"cpu:0"`` or ``"cuda:1"``, each accepted as ``device=`` by
        :func:`~latticecast.compile` and :meth:`Graph.compile <latticecast.Graph.compile>`.

    Example:
        >>> import latticecast as lc
        >>> "cpu:0" in lc.available_devices()
        True
    """
    names: list[str] = []
    for client in _backends().values():
        names.extend(device_name(d) for d in _local_devices(client))
    return names


def _not_found(requested: object, why: str, *, gpu: bool) -> DeviceNotFoundError:
    available = available_devices()
    lines = [f"device {requested!r} is not available: {why}.",
             f"Devices present: {', '.join(available) or 'none'}."]
    # Only the failures that explain this request (JAX also probes, e.g., for a TPU).
    errors = {p: e for p, e in _backend_errors().items() if gpu and p in GPU_PLATFORMS}
    if errors:
        lines.append("Plug-ins that failed to start: "
                     + "; ".join(f"{p}: {e}" for p, e in sorted(errors.items())) + ".")
    if gpu:
        lines.append(GPU_INSTALL_HINT)
        platforms = os.environ.get("JAX_PLATFORMS")
        if platforms:
            lines.append(f"JAX_PLATFORMS={platforms!r} is set in the environment; it limits "
                         "the platforms JAX starts, so a GPU plug-in can be installed and "
                         "still not be used.")
    else:
        lines.append('Use device="cpu" (the default) or one of the devices above.')
    return DeviceNotFoundError("\n".join(lines), requested=requested, available=available)


_NOT_INSTALLED = ("cannot open shared object file", "No such file or directory", "not found")


def _why_absent(platform: str) -> str:
    """Why ``platform`` has no client: not installed at all (JAX probes for a TPU library even where
    none is installed), or installed and failing to start, with JAX's reason."""
    failed = _backend_errors().get(platform)
    if not failed or any(s in failed for s in _NOT_INSTALLED):
        return f"no {platform!r} platform is present (no PJRT plug-in for it is installed)"
    return f"the {platform} plug-in is installed but failed to start ({failed})"


def _parse_name(name: str) -> tuple[str, int]:
    text = name.strip().lower()
    platform, sep, index_text = text.partition(":")
    if not platform:
        raise DeviceNotFoundError(
            f"invalid device name {name!r}: expected 'platform' or 'platform:index' "
            f"such as 'cpu', 'gpu', 'cuda:1'. Devices present: {', '.join(available_devices())}.",
            requested=name, available=available_devices())
    if not sep:
        return platform, 0
    try:
        index = int(index_text)
    except ValueError:
        index = -1
    if index < 0:
        raise DeviceNotFoundError(
            f"invalid device index in {name!r}: expected a non-negative integer after ':'. "
            f"Devices present: {', '.join(available_devices())}.",
            requested=name, available=available_devices())
    return platform, index


def resolve_device(device: DeviceLike | None = "cpu") -> "jax.Device":
    """The PJRT device (a ``jax.Device``) that ``device`` names.

    Args:
        device: ``"cpu"`` (or ``None``), ``"gpu"``/``"cuda"``/``"rocm"``, an index such as
            ``"cpu:0"``, or a ``jax.Device`` (returned as it is, if this process can use it).

    Returns:
        The ``jax.Device``.

    Raises:
        DeviceNotFoundError: The platform is absent (``"gpu"`` on a machine with no GPU plug-in:
            the message says how to install one), the index is out of range, or a ``jax.Device``
            belongs to another process; the message lists the devices there are.

    Example:
        >>> from latticecast.runtime import resolve_device
        >>> resolve_device("cpu:0").platform
        'cpu'
        >>> resolve_device("cpu:99")
        Traceback (most recent call last):
          ...
        latticecast.runtime.runtime_errors.DeviceNotFoundError: device 'cpu:99' is not available: ...
    """
    if device is None:
        device = "cpu"
    if not isinstance(device, str):
        client = getattr(device, "client", None)
        if client is None or not hasattr(device, "id"):
            raise TypeError(
                f"device must be a name such as 'cpu', 'gpu' or 'cuda:1', or a jax.Device; "
                f"got {type(device).__name__}")
        if device.process_index != client.process_index():
            raise _not_found(device, "it belongs to another process", gpu=False)
        return device

    platform, index = _parse_name(device)
    backends = _backends()
    is_gpu = platform == "gpu" or platform in GPU_PLATFORMS
    if platform == "gpu":
        candidates = [p for p in GPU_PLATFORMS if p in backends]
        if not candidates:
            raise _not_found(device, "no GPU platform (CUDA, ROCm, oneAPI) is present", gpu=True)
        client = backends[candidates[0]]
    elif platform in backends:
        client = backends[platform]
    else:
        raise _not_found(device, _why_absent(platform), gpu=is_gpu)

    devices = _local_devices(client)
    if index >= len(devices):
        raise _not_found(device, f"{client.platform} has {len(devices)} device(s) "
                                 f"(indices 0..{len(devices) - 1})", gpu=False)
    return devices[index]
