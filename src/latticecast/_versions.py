"""latticecast's own version, and the jax/jaxlib releases it supports, read from its installed metadata.

pyproject.toml is the one home of both: the version is ``[project] version``, the supported range is
the bounds of the ``jax`` and ``jaxlib`` requirements in ``[project] dependencies``. Neither is
written here; both are read from the metadata pip installed (``importlib.metadata``), so importing
latticecast never imports jax to learn its version.

When the installed jax or jaxlib lies outside the range, importing latticecast warns
(:class:`UnsupportedVersionWarning`) with the installed versions, the range, and the ``pip install``
that fixes it. Nothing is refused: the promotion layer needs neither package.

Reading the metadata costs more than the rest of a small ``latticecast-opt`` run (``importlib.metadata``
loads the ``email`` and ``zipfile`` packages), so the two answers, the version and the warning, are
kept in :func:`cache_dir` under a key that changes whenever pip installs or removes a package: the
modification times of the directories on ``sys.path`` (pip adds and removes a ``.dist-info``
directory there for every install). A stale or unreadable cache is read again from the metadata.
"""

from __future__ import annotations

import binascii
import json
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Callable

__all__ = ["UnsupportedVersionWarning", "package_version", "supported_ranges", "check_supported_versions",
           "cache_dir", "installed_answers", "tested_ranges", "save_installed_answers", "warn_unsupported"]

DISTRIBUTION = "latticecast"
Ranges = dict[str, list[tuple[str, str]]]
"""Version specifiers by package: ``{"jaxlib": [(">=", "0.10.2"), ("<", "0.13")]}``."""
CHECKED = ("jax", "jaxlib")  # the packages whose internals the IR and runtime layers rely on


class UnsupportedVersionWarning(UserWarning):
    """The installed jax or jaxlib is outside the range latticecast is tested with."""


def package_version() -> str:
    """latticecast's version as installed (``0+unknown`` when run from a source tree that pip has not
    installed: there is no metadata to read)."""
    return _installed(DISTRIBUTION) or "0+unknown"


# A Requires-Dist entry: a name, optional extras, specifiers (optionally in parentheses), a marker.
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?([^;()]*)\)?\s*(?:;(.*))?$")
_SPECIFIER = re.compile(r"^\s*(>=|<=|==|!=|~=|>|<)\s*([0-9][0-9A-Za-z.+!*-]*)\s*$")


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirement(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    """``"jax<0.13,>=0.10.2"`` -> ``("jax", [(">=", "0.10.2"), ("<", "0.13")])``: lower bounds first.

    ``None`` for an entry under a marker (an extra's dependency) or one this simple reader cannot
    follow; the check then says nothing rather than something wrong."""
    match = _REQUIREMENT.match(text)
    if match is None or match.group(3):
        return None
    specifiers = []
    for part in filter(None, (p.strip() for p in match.group(2).split(","))):
        spec = _SPECIFIER.match(part)
        if spec is None:
            return None
        specifiers.append((spec.group(1), spec.group(2)))
    specifiers.sort(key=lambda s: not s[0].startswith(">"))
    return _normalize(match.group(1)), specifiers


def supported_ranges(requires: list[str] | None = None) -> Ranges:
    """The specifiers of the jax and jaxlib requirements in latticecast's metadata (empty when
    latticecast is not installed)."""
    if requires is None:
        import importlib.metadata

        try:
            requires = importlib.metadata.requires(DISTRIBUTION) or []
        except importlib.metadata.PackageNotFoundError:
            return {}
    ranges: dict[str, list[tuple[str, str]]] = {}
    for text in requires:
        parsed = parse_requirement(text)
        if parsed is not None and parsed[0] in CHECKED and parsed[1]:
            ranges[parsed[0]] = parsed[1]
    return ranges


def _release(version: str) -> tuple[int, ...]:
    """The release numbers of a version: ``"0.12.0.1"`` -> ``(0, 12, 0, 1)``, ``"0.13.0.dev1"`` ->
    ``(0, 13, 0)``. Pre-release and local parts are ignored: a jax 0.13 pre-release is 0.13 here."""
    numbers = []
    for part in version.split("+", 1)[0].split("!")[-1].split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        numbers.append(int(digits.group()))
        if digits.group() != part:
            break
    return tuple(numbers)


def _compare(a: str, b: str) -> int:
    x, y = _release(a), _release(b)
    width = max(len(x), len(y))
    x, y = x + (0,) * (width - len(x)), y + (0,) * (width - len(y))
    return (x > y) - (x < y)


_HOLDS = {">=": lambda c: c >= 0, ">": lambda c: c > 0, "<=": lambda c: c <= 0, "<": lambda c: c < 0,
          "==": lambda c: c == 0, "!=": lambda c: c != 0}


def satisfies(version: str, specifiers: list[tuple[str, str]]) -> bool:
    """Whether ``version`` meets every specifier (``~=`` and wildcards are not judged: they hold)."""
    return all(_HOLDS[op](_compare(version, bound)) for op, bound in specifiers
               if op in _HOLDS and "*" not in bound)


def format_range(specifiers: list[tuple[str, str]]) -> str:
    return ",".join(op + bound for op, bound in specifiers)


def _installed(name: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def unsupported_message(ranges: dict[str, list[tuple[str, str]]],
                        version_of: Callable[[str], str | None] | None = None) -> str | None:
    """The warning's text when an installed jax or jaxlib is outside ``ranges``, else ``None``
    (a package that is not installed is not judged: using the IR layer says it is missing)."""
    installed = {name: (version_of or _installed)(name) for name in ranges}
    outside = [name for name, version in installed.items()
               if version is not None and not satisfies(version, ranges[name])]
    if not outside:
        return None
    found = ", ".join(f"{name} {installed[name]}" for name in outside)
    supported = " and ".join(f"{name}{format_range(ranges[name])}" for name in ranges)
    fix = " ".join(f'"{name}{format_range(ranges[name])}"' for name in ranges)
    return (f"latticecast {package_version()} is tested with {supported}, but {found} is installed; "
            f"its IR and runtime layers may fail. Fix: pip install {fix}")


def cache_dir() -> Path | None:
    """Where latticecast's tools keep answers that are slow to compute: ``$LATTICECAST_CACHE_DIR``,
    ``$XDG_CACHE_HOME/latticecast`` or ``~/.cache/latticecast`` (``None``: no home directory)."""
    explicit = os.environ.get("LATTICECAST_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "latticecast"
    try:
        return Path.home() / ".cache" / "latticecast"
    except RuntimeError:  # no home directory
        return None


def _installation_key() -> str:
    """Changes when pip installs or removes a package where this interpreter looks (see the module)."""
    parts = [__file__, sys.version]
    # sys.path[0] is the script's directory or the working directory (not where pip installs), and it
    # differs between `python -m`, `python -c` and a console script: left out, so they share the answers
    for entry in (sys.path if sys.flags.safe_path else sys.path[1:]):
        try:
            parts.append(f"{entry}:{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            parts.append(entry)
    return "\n".join(parts)


def _cache_file(key: str) -> Path | None:
    """Where the answers for ``key`` are kept: a file named by a checksum of it (the file holds the key,
    so two keys with one checksum never share answers). A checksum, not hashlib: loading OpenSSL would cost
    a small run more memory than the answers save."""
    root = cache_dir()
    return root / f"installed-{binascii.crc32(key.encode()):08x}.json" if root is not None else None


_Answers = tuple[str, "str | None", Ranges]
_unsaved: "tuple[Path, tuple[str, str, str | None, Ranges]] | None" = None
"""Answers read from the metadata that the cache does not hold yet (:func:`save_installed_answers`)."""
_answers: "_Answers | None" = None
"""This process's answers, once read (from the cache or the metadata)."""


def installed_answers(use_cache: bool = True) -> tuple[str, str | None]:
    """latticecast's version and the unsupported-version warning (``None``: none), read from the installed
    metadata, or from the cache while no package has been installed or removed since they were read.
    Importing the library only reads the cache; the command-line tools write it
    (:func:`save_installed_answers`), so that a library import writes no file.

    Args:
        use_cache: Read the cache.

    Returns:
        The version, and the warning's text or ``None``.

    Example:
        >>> version, warning = installed_answers(use_cache=False)
        >>> version == package_version()
        True
    """
    global _unsaved, _answers
    key = _installation_key()
    path = _cache_file(key)
    if use_cache and path is not None:
        try:
            stored, version, message, ranges = json.loads(path.read_text())
            if stored == key and isinstance(version, str) and (message is None or isinstance(message, str)) \
                    and isinstance(ranges, dict):
                _answers = version, message, {k: [(op, bound) for op, bound in v] for k, v in ranges.items()}
                return version, message
        except (OSError, ValueError, TypeError):
            pass  # absent, damaged or of an older layout: read again
    ranges = supported_ranges()
    _answers = package_version(), unsupported_message(ranges), ranges
    _unsaved = (path, (key, *_answers)) if path is not None else None
    return _answers[0], _answers[1]


def tested_ranges() -> Ranges:
    """:func:`supported_ranges`, as :func:`installed_answers` found them for this process (from the cache
    on a warm start), so that the runtime's version gates read no metadata either.

    Returns:
        The specifiers of the jax and jaxlib requirements, by package.

    Example:
        >>> tested_ranges() == supported_ranges()
        True
    """
    if _answers is None:
        installed_answers()
    assert _answers is not None  # installed_answers sets it
    return _answers[2]


def save_installed_answers() -> None:
    """Write the answers :func:`installed_answers` had to read from the metadata into the cache (the
    command-line tools call it; nothing happens when the cache had them, or cannot be written)."""
    global _unsaved
    if _unsaved is None:
        return
    path, answers = _unsaved
    _unsaved = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(answers))
        os.replace(partial, path)
    except OSError:
        pass  # a read-only cache: the answers are read from the metadata again next time


def check_supported_versions() -> None:
    """Warn (:class:`UnsupportedVersionWarning`) when the installed jax or jaxlib is outside the
    range in latticecast's metadata, read now (``import latticecast`` warns with the cached answer,
    :func:`installed_answers`)."""
    warn_unsupported(unsupported_message(supported_ranges()))


def warn_unsupported(message: str | None) -> None:
    """Issue the unsupported-version warning ``message`` (nothing for ``None``), attributed to the import."""
    if message is not None:
        warnings.warn(message, UnsupportedVersionWarning, stacklevel=3)
