"""What the installed jaxlib offers ``latticecast-opt``: its versions, and every pass it registers.

``mlir-opt --version`` names its LLVM; ``--list-passes`` prints MLIR's pass registry. jaxlib's
Python bindings expose neither, so both are found out from jaxlib itself:

- **versions**: jaxlib's own; MLIR's, as the producer string MLIR writes into bytecode
  (``MLIR21.0.0git``); StableHLO's current version and API version
  (``stablehlo.get_current_version``).
- **passes**: every pass name is a string in jaxlib's native libraries. The candidates (each
  NUL-terminated lowercase word ``[a-z0-9_.-]`` there, and its tails after a ``-``, since a
  linker may store ``cse`` as the end of a longer string) are each asked of MLIR's registry
  itself: ``PassManager.parse("builtin.module(NAME)")`` in latticecast's context. A name the
  registry does not know is dropped ("does not refer to a registered pass"); one restricted to
  an op (``func.func``) is nested there. The pipeline MLIR prints back spells out every option
  of the pass with its default, and a registered *pipeline* prints as the passes it expands to.
  Nothing is listed that MLIR does not accept, and the scan is exhaustive over the libraries'
  strings. It reads about 350 MB, so the result is cached per jaxlib build (keyed by the
  libraries' sizes and times) in latticecast's cache directory.

The versions are cached the same way (per jaxlib build): finding them loads jaxlib's MLIR, and with it
NumPy, while reading them back loads neither, so ``latticecast-opt --version`` starts faster than
``import jaxlib.mlir.ir``. A cache that cannot be written or read is not an error: the answer is
found again.
"""

from __future__ import annotations

import hashlib
import io
import json
import mmap
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from typing import TYPE_CHECKING, Any, Callable

from ..._versions import cache_dir

if TYPE_CHECKING:
    from jaxlib.mlir import ir

__all__ = ["RegisteredPass", "registered_passes", "versions", "native_libraries"]

_CANDIDATE = re.compile(rb"(?<=\x00)([a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*)\x00")
_UNKNOWN = "does not refer to a registered pass or pass pipeline"
_RESTRICTED = re.compile(r"restricted to '([\w.]+)'")
_MIN_LIBRARY = 1 << 20  # jaxlib's extension stubs are a few kB; the code is in its large libraries
FORMAT = 1  # of the cache file


@dataclass(frozen=True)
class RegisteredPass:
    """A pass (or pipeline) MLIR's registry knows: ``name``, the op it runs on (``any`` where it is
    not restricted), its options as MLIR prints them with their defaults, and for a pipeline the
    passes it expands to."""

    name: str
    anchor: str
    options: str
    expands_to: str = ""

    @property
    def is_pipeline(self) -> bool:
        return bool(self.expands_to)


def versions(*, use_cache: bool = True) -> list[tuple[str, str]]:
    """``(component, version)`` for jaxlib, MLIR and StableHLO, as the installed jaxlib says them
    (cached per jaxlib build, see the module).

    Args:
        use_cache: Read a cached answer if there is one (it is written either way).

    Returns:
        The three pairs, in that order.

    Example:
        >>> [name for name, _ in versions()]
        ['jaxlib', 'MLIR', 'StableHLO']
    """
    found = _cached("versions", _live_versions, use_cache)
    return [(str(name), str(version)) for name, version in found]


def _live_versions() -> list[tuple[str, str]]:
    """:func:`versions`, asked of jaxlib itself."""
    import jaxlib.version
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    from ...dialect_utils.parsing import bytecode_producer

    with ir.Context(), ir.Location.unknown():
        buf = io.BytesIO()
        ir.Module.create().operation.write_bytecode(buf)
    producer = bytecode_producer(buf.getvalue()) or "unknown"
    mlir = producer[len("MLIR"):] if producer.startswith("MLIR") else producer
    return [("jaxlib", jaxlib.version.__version__), ("MLIR", mlir),
            ("StableHLO", f"{stablehlo.get_current_version()} (API {stablehlo.get_api_version()})")]


def _cached(kind: str, compute: Callable[[], Any], use_cache: bool) -> Any:
    """What ``compute()`` gives for this jaxlib build, from ``KIND-KEY.json`` in :func:`cache_dir` when it
    is there (and ``use_cache``), else computed and written there (JSON: lists come back as lists)."""
    cache = cache_dir()
    path = cache / f"{kind}-{_key(native_libraries())}.json" if cache is not None else None
    if use_cache and path is not None and path.exists():
        try:
            return json.loads(path.read_text())[kind]
        except (OSError, ValueError, TypeError, KeyError):
            pass  # a damaged cache is rebuilt
    found = compute()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"format": FORMAT, kind: found}))
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written: found again next time
    return found


def native_libraries() -> list[Path]:
    """jaxlib's shared libraries that hold code (the large ones), where the pass names are."""
    import jaxlib.version

    root = Path(jaxlib.__file__).resolve().parent
    return sorted(p for p in root.rglob("*.so*") if p.is_file() and p.stat().st_size >= _MIN_LIBRARY)


def _key(libraries: list[Path]) -> str:
    import jaxlib.version

    h = hashlib.sha256(f"{FORMAT} {jaxlib.version.__version__}".encode())
    for p in libraries:
        st = p.stat()
        h.update(f"{p}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:24]


def _candidates(libraries: list[Path]) -> set[str]:
    """Every NUL-terminated lowercase word in the libraries, and its tails after each ``-``."""
    from ..progress import bar

    found: set[bytes] = set()
    total = sum(p.stat().st_size for p in libraries)
    with bar("latticecast-opt: reading jaxlib's pass names", total, "B", scale=True) as progress:
        for path in libraries:
            with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                step = 1 << 24
                for start in range(0, len(data), step):  # windows that overlap by a word's length
                    window = data[max(start - 256, 0):start + step]
                    found.update(m.group(1) for m in _CANDIDATE.finditer(window))
                    progress.update(min(step, len(data) - start))
    names: set[str] = set()
    for word in found:
        text = word.decode("ascii")
        parts = text.split("-")
        names.update("-".join(parts[i:]) for i in range(len(parts)))
    return names


def _ask(name: str, context: ir.Context) -> RegisteredPass | None:
    """What MLIR's registry says of ``name`` (``None``: not a registered pass)."""
    from jaxlib.mlir import passmanager

    anchor = "any"
    try:
        printed = str(passmanager.PassManager.parse(f"builtin.module({name})", context))
    except ValueError as e:
        message = str(e)
        if _UNKNOWN in message:
            return None
        restricted = _RESTRICTED.search(message)
        if restricted is None:
            return RegisteredPass(name, anchor, f"(not constructible here: {' '.join(message.split())[:120]})")
        anchor = restricted.group(1)
        try:
            printed = str(passmanager.PassManager.parse(f"builtin.module({anchor}({name}))", context))
        except ValueError as e2:
            return RegisteredPass(name, anchor, f"(not constructible here: {' '.join(str(e2).split())[:120]})")
        printed = printed[len(f"builtin.module({anchor}("):-2]
    else:
        printed = printed[len("builtin.module("):-1]
        if anchor == "any" and printed.startswith("builtin.module("):  # restricted to the module itself
            anchor = "builtin.module"
    if printed == name or printed.startswith(name + "{"):
        options = printed[len(name) + 1:-1].strip() if printed.startswith(name + "{") else ""
        return RegisteredPass(name, anchor, " ".join(options.split()))
    return RegisteredPass(name, anchor, "", printed)


def registered_passes(*, use_cache: bool = True) -> list[RegisteredPass]:
    """Every pass and pipeline MLIR's registry knows in latticecast's context, by name.

    Example:
        >>> names = {p.name for p in registered_passes()}
        >>> {"canonicalize", "cse", "inline", "symbol-dce"} <= names and "no-such-pass" not in names
        True
    """
    found = _cached("passes", _live_passes, use_cache)
    return [RegisteredPass(**p) for p in found]


def _live_passes() -> list[dict[str, str]]:
    """:func:`registered_passes`, asked of MLIR's registry (as dicts, the cache's form)."""
    from ...dialect_utils.context import make_context
    from ..progress import bar

    context = make_context()
    found = []
    candidates = sorted(_candidates(native_libraries()))
    with bar("latticecast-opt: asking MLIR's registry", len(candidates), "name") as progress:
        for name in candidates:
            entry = _ask(name, context)
            if entry is not None:
                found.append(asdict(entry))
            progress.update(1)
    return found
