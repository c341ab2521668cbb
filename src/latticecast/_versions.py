"""latticecast's own version, and the jax/jaxlib releases it supports, read from its installed metadata.

pyproject.toml is the one home of both: the version is ``[project] version``, the supported range is
the bounds of the ``jax`` and ``jaxlib`` requirements in ``[project] dependencies``. Neither is
written here; both are read from the metadata pip installed (``importlib.metadata``), so importing
latticecast never imports jax to learn its version.

When the installed jax or jaxlib lies outside the range, importing latticecast warns
(:class:`UnsupportedVersionWarning`) with the installed versions, the range, and the ``pip install``
that fixes it. Nothing is refused: the promotion layer needs neither package.
"""

from __future__ import annotations

import importlib.metadata
import re
import warnings
from typing import Callable

__all__ = ["UnsupportedVersionWarning", "package_version", "supported_ranges", "check_supported_versions"]

DISTRIBUTION = "latticecast"
CHECKED = ("jax", "jaxlib")  # the packages whose internals the IR and runtime layers rely on


class UnsupportedVersionWarning(UserWarning):
    """The installed jax or jaxlib is outside the range latticecast is tested with."""


def package_version() -> str:
    """latticecast's version as installed (``0+unknown`` when run from a source tree that pip has not
    installed: there is no metadata to read)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


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


def supported_ranges(requires: list[str] | None = None) -> dict[str, list[tuple[str, str]]]:
    """The specifiers of the jax and jaxlib requirements in latticecast's metadata (empty when
    latticecast is not installed)."""
    if requires is None:
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


def check_supported_versions() -> None:
    """Warn (:class:`UnsupportedVersionWarning`) when the installed jax or jaxlib is outside the
    range in latticecast's metadata. Called once, when latticecast is imported."""
    message = unsupported_message(supported_ranges())
    if message is not None:
        warnings.warn(message, UnsupportedVersionWarning, stacklevel=3)
