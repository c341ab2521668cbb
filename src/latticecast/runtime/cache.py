"""The compilation cache: compiled executables, in memory and (optionally) on disk.

PJRT does not cache: compiling identical text twice costs the full XLA compile
twice (seconds for a large program). ``compile`` therefore keys each executable
by a fingerprint of everything that changes it and keeps it in two places:

* **In memory** (always on): a bounded LRU of compiled executables, per process.
  A repeated ``compile`` of identical text is answered from a digest of the text
  alone, without parsing it (tens of microseconds).
* **On disk** (off by default): one file per executable, holding the PJRT
  client's ``serialize()`` bytes, in ``$LATTICECAST_CACHE_DIR`` or, when enabled
  without a directory, ``$XDG_CACHE_HOME/latticecast`` (``~/.cache/latticecast``).

Why the disk cache is off by default: a library should not write an unbounded,
never-evicted set of multi-megabyte files into the user's home directory without
being asked; and *loading* a serialized executable runs the machine code in it,
so the directory must be trusted (the cache refuses a directory that other
users can write to). JAX makes the same choice for its persistent cache. Turn it
on with ``LATTICECAST_DISK_CACHE=1`` (default directory), ``LATTICECAST_CACHE_DIR=/path``,
:func:`set_cache_dir`, or ``compile(..., cache_dir=...)``.

The disk cache is safe to share between processes: an entry is written to a
temporary file in the same directory and renamed into place (``os.replace`` is
atomic), so a reader sees a whole entry or none; each entry carries its key, its
length and a SHA-256 of its payload, so a truncated or corrupt file is detected,
ignored and rebuilt (and a failing ``deserialize`` is treated the same way).

The key (:func:`executable_key`) covers the module (its canonical text, without
locations), the platform, platform version and device kind, the device
assignment and every compile option (the serialized ``CompileOptions``), the
jaxlib version, ``XLA_FLAGS``, the host CPU (XLA's CPU backend compiles for the
features of the machine it runs on, so an entry must not travel to a CPU without
them) and the cache format version.
"""

from __future__ import annotations

import enum
import hashlib
import os
import platform as _platform
import stat
import struct
import tempfile
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Generic, TypeVar, Union

if TYPE_CHECKING:
    import jax

    from .model import CompiledProgram

__all__ = [
    "CacheInfo", "ExecutableCache", "DiskCache", "CacheDir",
    "cache_info", "clear_cache", "set_cache_dir", "get_cache_dir", "default_cache_dir",
    "executable_key", "memory_key", "device_fingerprint", "MEMORY_CACHE",
]

CACHE_FORMAT = "latticecast-pjrt-cache-v2"  # v2: entries tagged with their route (jax.jit or client)
_MAGIC = b"LCXPJRT1"
_HEADER = struct.Struct("<8s64sQ32s")  # magic, key (hex), payload length, sha256(payload)
_SUFFIX = ".pjrt"

#: ``compile(cache_dir=...)``: ``None`` follows the global setting, ``False`` turns the
#: disk cache off, ``True`` uses the default directory, a path uses that directory.
CacheDir = Union[str, "os.PathLike[str]", bool, None]

T = TypeVar("T")


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CacheInfo:
    """Counters of the compilation cache since the process started (or ``clear_cache``).

    ``hits``/``misses`` are for the in-memory cache; ``disk_*`` for the disk cache
    (``disk_errors`` counts corrupt, unreadable or undeserializable entries and
    failed writes); ``compiles`` counts real XLA compilations.
    """

    hits: int
    misses: int
    disk_hits: int
    disk_misses: int
    disk_writes: int
    disk_errors: int
    compiles: int
    entries: int
    max_entries: int
    disk_dir: str | None


class _Stats:
    __slots__ = ("hits", "misses", "disk_hits", "disk_misses", "disk_writes", "disk_errors",
                 "compiles")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.hits = self.misses = self.disk_hits = self.disk_misses = 0
        self.disk_writes = self.disk_errors = self.compiles = 0


# -- in memory ---------------------------------------------------------------------------------


class ExecutableCache(Generic[T]):
    """A thread-safe LRU of compiled entries keyed by :func:`executable_key`.

    A second index maps the cheap :func:`memory_key` of a source (the digest of
    the text as given) to the executable key, so a repeated ``compile`` of the
    same text needs neither parsing nor printing.
    """

    def __init__(self, max_entries: int = 256) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, T] = OrderedDict()
        self._aliases: dict[str, str] = {}
        self._lock = threading.Lock()
        self.stats = _Stats()

    def __len__(self) -> int:
        return len(self._entries)

    def lookup(self, key: str) -> T | None:
        """The entry stored under an executable key or a source alias, or ``None``."""
        with self._lock:
            key = self._aliases.get(key, key)
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def store(self, key: str, entry: T, *aliases: str) -> T:
        """Store ``entry`` (or return the one another thread stored first)."""
        with self._lock:
            existing = self._entries.get(key)
            if existing is not None:
                entry = existing
                self._entries.move_to_end(key)
            else:
                self._entries[key] = entry
            for a in aliases:
                if a != key:
                    self._aliases[a] = key
            while len(self._entries) > self.max_entries:
                old, _ = self._entries.popitem(last=False)
                self._aliases = {a: k for a, k in self._aliases.items() if k != old}
            return entry

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._aliases.clear()


# -- on disk -----------------------------------------------------------------------------------


_ON, _OFF = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def default_cache_dir() -> Path | None:
    """The disk cache's default directory: ``$XDG_CACHE_HOME/latticecast``, or ``~/.cache/latticecast``.

    Returns:
        The directory, or ``None`` (with a warning) when there is neither variable nor home
        directory: the disk cache is then off rather than a crash.

    Example:
        >>> from latticecast.runtime import default_cache_dir
        >>> default_cache_dir().name
        'latticecast'
    """
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base) / "latticecast"
    try:
        return Path.home() / ".cache" / "latticecast"
    except (RuntimeError, KeyError, OSError):
        warnings.warn("latticecast compilation cache: there is no home directory and XDG_CACHE_HOME is not set, "
                      "so the disk cache is off; set LATTICECAST_CACHE_DIR=/path to use one", RuntimeWarning,
                      stacklevel=4)
        return None


def _env_cache_dir() -> Path | None:
    """The disk-cache directory the environment asks for, or ``None`` (off). An unrecognised
    ``LATTICECAST_DISK_CACHE`` value is reported, not silently read as "off"."""
    raw = os.environ.get("LATTICECAST_DISK_CACHE", "")
    switch = raw.strip().lower()
    if switch not in _ON and switch not in _OFF:
        warnings.warn(f"latticecast compilation cache: LATTICECAST_DISK_CACHE={raw!r} is not one of "
                      f"{', '.join(v for v in _ON + _OFF if v)}; the disk cache stays off", RuntimeWarning,
                      stacklevel=4)
        return None
    if switch in _OFF[1:]:
        return None
    explicit = os.environ.get("LATTICECAST_CACHE_DIR", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    if switch in _ON:
        return default_cache_dir()
    return None


class DiskCache:
    """Serialized executables, one file per key, in ``directory/<format>/``.

    Reads and writes never raise: an unusable directory or entry is reported
    once as a warning, counted in ``stats.disk_errors``, and the caller compiles.
    """

    def __init__(self, directory: str | os.PathLike[str], stats: _Stats) -> None:
        self.root = Path(directory).expanduser()
        self.directory = self.root / CACHE_FORMAT
        self.stats = stats
        self._usable: bool | None = None
        self._warned = False

    def warn(self, message: str) -> None:
        self.stats.disk_errors += 1
        if not self._warned:
            self._warned = True
            warnings.warn(f"latticecast compilation cache: {message}", RuntimeWarning, stacklevel=4)

    def _ensure(self) -> bool:
        if self._usable is not None:
            return self._usable
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            st = self.directory.stat()
            if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                self.warn(f"not using {self.directory}: it is writable by other users or owned by "
                           f"another user, and loading an executable runs its code. Use a private "
                           f"directory (chmod 700).")
                self._usable = False
            else:
                self._usable = True
        except OSError as e:
            self.warn(f"cannot use {self.directory} ({e}); compiling without the disk cache")
            self._usable = False
        return self._usable

    def path(self, key: str) -> Path:
        return self.directory / f"{key}{_SUFFIX}"

    def load(self, key: str) -> bytes | None:
        """The payload stored under ``key``, or ``None`` if absent or not intact."""
        if not self._ensure():
            return None
        try:
            data = self.path(key).read_bytes()
        except FileNotFoundError:
            self.stats.disk_misses += 1
            return None
        except OSError as e:
            self.warn(f"cannot read {self.path(key)} ({e})")
            return None
        payload = _unpack(data, key)
        if payload is None:
            self.warn(f"ignoring corrupt entry {self.path(key)}; it will be rebuilt")
            return None
        return payload

    def store(self, key: str, payload: bytes) -> None:
        """Write an entry atomically: a temporary file in the same directory, then a rename."""
        if not self._ensure():
            return
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=self.directory)
            with os.fdopen(fd, "wb") as f:
                f.write(_pack(key, payload))
            os.replace(tmp, self.path(key))
            tmp = None
            self.stats.disk_writes += 1
        except OSError as e:
            self.warn(f"cannot write {self.path(key)} ({e})")
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass

    def clear(self) -> int:
        """Delete every entry (and stray temporary file); return how many files were removed."""
        removed = 0
        if not self.directory.is_dir():
            return 0
        for p in self.directory.iterdir():
            if p.suffix in (_SUFFIX, ".tmp"):
                try:
                    p.unlink()
                    removed += 1
                except OSError:
                    pass
        return removed


def _pack(key: str, payload: bytes) -> bytes:
    return _HEADER.pack(_MAGIC, key.encode("ascii"), len(payload),
                        hashlib.sha256(payload).digest()) + payload


def _unpack(data: bytes, key: str) -> bytes | None:
    if len(data) < _HEADER.size:
        return None
    magic, stored_key, length, digest = _HEADER.unpack_from(data)
    payload = data[_HEADER.size:]
    if (magic != _MAGIC or stored_key != key.encode("ascii") or length != len(payload)
            or hashlib.sha256(payload).digest() != digest):
        return None
    return payload


# -- keys --------------------------------------------------------------------------------------


def _host_cpu_id() -> str:
    """What XLA's CPU backend compiles for: the architecture and the CPU's feature flags."""
    parts = [_platform.machine(), _platform.processor()]
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                field = line.split(":", 1)[0].strip()
                if field in ("model name", "flags", "Features", "CPU part", "vendor_id"):
                    parts.append(line.strip())
                elif not line.strip() and len(parts) > 2:
                    break  # the first processor is enough
    except OSError:
        pass
    return "\n".join(parts)


_device_fingerprints: "dict[jax.Device, str]" = {}


def device_fingerprint(device: "jax.Device") -> str:
    """Everything about the device and the software that changes what XLA emits."""
    fp = _device_fingerprints.get(device)
    if fp is None:
        import jaxlib.version

        client = device.client
        parts = [CACHE_FORMAT, f"jaxlib={jaxlib.version.__version__}",
                 f"platform={client.platform}", f"platform_version={client.platform_version}",
                 f"device_kind={device.device_kind}"]
        if client.platform == "cpu":
            parts.append(_host_cpu_id())
        fp = hashlib.sha256("\n".join(parts).encode()).hexdigest()
        _device_fingerprints[device] = fp
    return fp


def _digest(*parts: Union[str, bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = p.encode() if isinstance(p, str) else p
        h.update(struct.pack("<Q", len(b)))
        h.update(b)
    return h.hexdigest()


def executable_key(canonical_digest: str, device: "jax.Device", compile_options: bytes) -> str:
    """The key of an executable: program, device, options, software, host."""
    return _digest("executable", canonical_digest, device_fingerprint(device), compile_options,
                   os.environ.get("XLA_FLAGS", ""))


def memory_key(source_digest: str, device: "jax.Device", request: bytes) -> str:
    """The in-memory alias of a source as given (see :func:`.source.source_digest`), for a request
    (the devices ``compile`` was asked for, by id) made before the module is read."""
    return _digest("source", source_digest, device_fingerprint(device), request,
                   os.environ.get("XLA_FLAGS", ""))


# -- process-wide state ------------------------------------------------------------------------

MEMORY_CACHE: "ExecutableCache[CompiledProgram]" = ExecutableCache()

_settings_lock = threading.Lock()
class _Unset(enum.Enum):
    UNSET = "unset"


_UNSET: Final = _Unset.UNSET
_disk_dir: Path | None | _Unset = _UNSET  # Path | None once resolved
_disk_caches: dict[Path, DiskCache] = {}


def get_cache_dir() -> Path | None:
    """The directory of the disk cache, or ``None`` when it is off.

    Unless :func:`set_cache_dir` chose one, the environment decides:
    ``LATTICECAST_CACHE_DIR=path``, or ``LATTICECAST_DISK_CACHE=1`` for :func:`default_cache_dir`.

    Returns:
        The directory, or ``None``.

    Example:
        >>> from latticecast.runtime import get_cache_dir, set_cache_dir
        >>> saved = get_cache_dir()
        >>> set_cache_dir(None) is None
        True
        >>> get_cache_dir() is None
        True
        >>> _ = set_cache_dir(saved)
    """
    global _disk_dir
    with _settings_lock:
        if _disk_dir is _UNSET:
            _disk_dir = _env_cache_dir()
        return _disk_dir


def set_cache_dir(directory: CacheDir) -> Path | None:
    """Turn the disk cache on or off for this process.

    This overrides ``LATTICECAST_CACHE_DIR`` and ``LATTICECAST_DISK_CACHE``.

    Args:
        directory: ``True`` for :func:`default_cache_dir`, a path, or ``None``/``False`` (off).

    Returns:
        The directory now in use, or ``None`` when the disk cache is off.

    Example:
        >>> import tempfile
        >>> from latticecast.runtime import get_cache_dir, set_cache_dir
        >>> saved = get_cache_dir()
        >>> with tempfile.TemporaryDirectory() as d:
        ...     set_cache_dir(d).is_dir()
        True
        >>> _ = set_cache_dir(saved)
    """
    global _disk_dir
    with _settings_lock:
        _disk_dir = _resolve_dir(directory, default=None)
        return _disk_dir


def _resolve_dir(directory: CacheDir, default: Path | None) -> Path | None:
    if directory is None:
        return default
    if directory is False:
        return None
    if directory is True:
        return default_cache_dir()
    return Path(directory).expanduser()


def disk_cache_for(directory: CacheDir) -> DiskCache | None:
    """The :class:`DiskCache` that ``compile(cache_dir=directory)`` uses, or ``None``."""
    path = _resolve_dir(directory, default=get_cache_dir())
    if path is None:
        return None
    with _settings_lock:
        cache = _disk_caches.get(path)
        if cache is None:
            cache = _disk_caches[path] = DiskCache(path, MEMORY_CACHE.stats)
        return cache


def cache_info() -> CacheInfo:
    """The compilation cache's counters and settings (tests assert on these, never on time).

    Returns:
        A :class:`CacheInfo`: in-memory hits and misses, disk hits, misses, writes and errors, XLA
        compilations, the number of entries and their limit, and the disk directory.

    Example:
        >>> from latticecast.runtime import cache_info
        >>> info = cache_info()
        >>> info.max_entries > 0
        True
    """
    s = MEMORY_CACHE.stats
    d = get_cache_dir()
    return CacheInfo(s.hits, s.misses, s.disk_hits, s.disk_misses, s.disk_writes, s.disk_errors,
                     s.compiles, len(MEMORY_CACHE), MEMORY_CACHE.max_entries,
                     str(d) if d is not None else None)


def clear_cache(*, memory: bool = True, disk: bool = False, stats: bool = True) -> None:
    """Empty the in-memory compilation cache (and, with ``disk=True``, the disk cache's directory).

    Args:
        memory: Empty the in-memory cache.
        disk: Also delete the entries of the current disk cache directory.
        stats: Reset the counters :func:`cache_info` reports.

    Example:
        >>> from latticecast.runtime import cache_info, clear_cache
        >>> clear_cache()
        >>> cache_info().entries, cache_info().hits
        (0, 0)
    """
    if memory:
        MEMORY_CACHE.clear()
    if disk:
        cache = disk_cache_for(None)
        if cache is not None:
            cache.clear()
    if stats:
        MEMORY_CACHE.stats.reset()

