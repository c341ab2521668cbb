"""One diagnostic record for everything latticecast reports about IR, and one way to print it.

Diagnostics reach latticecast by several routes: the parser and the verifier
(``ir.MLIRError.error_diagnostics``, with notes), a pass's errors (emitted through
MLIR), the remarks and warnings of latticecast's own passes (jaxlib's bindings can
emit only errors, so the pass records those itself), and a context handler that
catches what upstream passes emit. :class:`Diagnostic` gives them one shape and
:meth:`Diagnostic.format` one spelling, MLIR's ``file:line:col: severity: message``.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from jaxlib.mlir import ir

from ..errors import LatticecastError, LatticecastWarning

__all__ = ["Diagnostic", "MLIRParseError", "LossyPromotionWarning", "location_parts", "SEVERITIES",
           "read_source_line"]

SEVERITIES = ("error", "warning", "remark", "note")

_FILE_LOC = re.compile(r'"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)')
_NAME_LOC = re.compile(r'loc\("(?P<name>(?:[^"\\]|\\.)*)"')


class LossyPromotionWarning(LatticecastWarning):
    """An implicit promotion that can lose magnitude (``diagnose-lossy=warning``)."""


def location_parts(loc: "ir.Location | str") -> tuple[str, int, int] | None:
    """``(file, line, col)`` of the first file location inside ``loc`` (names, call sites and
    fused locations included), or ``None`` when it has none."""
    m = _FILE_LOC.search(str(loc))
    return (m["file"], int(m["line"]), int(m["col"])) if m else None


@dataclass(frozen=True)
class Diagnostic:
    """A message about IR at ``file:line:col``. ``file`` is ``None`` for an unknown location; a
    location that only has a name (a graph's ops: ``loc("mygraph")``) has ``line == 0``."""

    severity: str
    message: str
    file: str | None = None
    line: int = 0
    col: int = 0
    notes: tuple["Diagnostic", ...] = ()

    # -- construction ------------------------------------------------------------------

    @classmethod
    def at(cls, location: "ir.Location | str", severity: str, message: str,
           notes: tuple["Diagnostic", ...] = (), source_name: str | None = None) -> "Diagnostic":
        """A diagnostic at an MLIR location. ``source_name`` replaces the parser's ``"-"``."""
        parts = location_parts(location)
        if parts is not None:
            file, line, col = parts
            if file == "-" and source_name:
                file = source_name
            return cls(severity, message, file, line, col, notes)
        m = _NAME_LOC.search(str(location))
        return cls(severity, message, m["name"] if m else None, 0, 0, notes)

    @classmethod
    def from_mlir(cls, d: "ir.DiagnosticInfo | ir.Diagnostic", source_name: str | None = None) -> "Diagnostic":
        """An MLIR diagnostic (an error of ``MLIRError``, or one a handler caught), notes included."""
        name = getattr(d.severity, "name", str(d.severity)).lower()
        severity = name if name in SEVERITIES else "error"
        notes = tuple(cls.from_mlir(n, source_name) for n in d.notes)
        return cls.at(d.location, severity, d.message, notes, source_name)

    # -- printing ----------------------------------------------------------------------

    @property
    def where(self) -> str | None:
        if self.file is None:
            return None
        return self.file if self.line == 0 else f"{self.file}:{self.line}:{self.col}"

    def format(self) -> str:
        """MLIR's ``file:line:col: severity: message`` on one line (``severity: message`` when unlocated)."""
        head = f"{self.where}: " if self.where else ""
        return f"{head}{self.severity}: {' '.join(self.message.split())}"

    __str__ = format

    def lines(self) -> list[str]:
        """This diagnostic and its notes, one line each."""
        return [self.format()] + [n.format() for n in self.notes]

    def source_lines(self, source: str, source_name: str, first_line: int = 1) -> list[str]:
        r"""This diagnostic and its notes as ``mlir-opt`` prints them: each one's line, then, when it
        points into ``source`` (the text of ``source_name`` from line ``first_line`` on), the line
        of source it points at and a caret under its column (tabs expanded, as LLVM does).

        Example:
            >>> d = Diagnostic("error", "use of undeclared SSA value name", "in.mlir", 2, 10)
            >>> print("\n".join(d.source_lines("func.func @f() {\n  return %nope : i32\n}", "in.mlir")))
            in.mlir:2:10: error: use of undeclared SSA value name
              return %nope : i32
                     ^
        """
        rows = source.splitlines()

        def row(file: str | None, line: int) -> str | None:
            index = line - first_line
            return rows[index] if file == source_name and 0 <= index < len(rows) else None

        return self.caret_lines(row)

    def caret_lines(self, row: "Callable[[str | None, int], str | None]") -> list[str]:
        """The one way latticecast prints a located diagnostic: its line, then the source line that
        ``row(file, line)`` gives (``None``: none to show) and a caret under the column, for it and
        each note."""
        out: list[str] = []
        for d in (self, *self.notes):
            out.append(d.format())
            text = row(d.file, d.line) if d.line else None
            if text is None:
                continue
            out.extend(caret_under(text, d.col))
        return out

    def file_lines(self) -> list[str]:
        """:meth:`caret_lines` with the source lines read from the files the diagnostics name
        (only up to the line wanted; a file that cannot be read shows no source line).

        Example:
            >>> Diagnostic("error", "no such thing", "/nonexistent.mlir", 3, 1).file_lines()
            ['/nonexistent.mlir:3:1: error: no such thing']
        """
        return self.caret_lines(read_source_line)

    def flattened(self) -> list["Diagnostic"]:
        """This diagnostic, then its notes (``--verify-diagnostics`` checks notes as diagnostics)."""
        return [replace(self, notes=())] + list(self.notes)

    def warn(self, stacklevel: int = 3) -> None:
        """Issue a Python warning (:class:`LossyPromotionWarning`, a :class:`LatticecastWarning`) for a
        warning-level diagnostic; ``stacklevel`` counts from this method's caller's caller."""
        warnings.warn(LossyPromotionWarning(self.format()), stacklevel=stacklevel)


def caret_under(text: str, first: int, last: int | None = None) -> list[str]:
    r"""The one way latticecast marks a place in a line of source: the line (tabs expanded, as LLVM does),
    then a caret under column ``first`` and tildes on to column ``last`` (1-based, inclusive).

    Args:
        text: The line of source.
        first: The column the caret points at.
        last: The last column of the span (default: ``first``, a caret alone).

    Returns:
        The two lines.

    Example:
        >>> print("\n".join(caret_under("x = a * b", 5, 9)))
        x = a * b
            ^~~~~
    """
    start = len(text[:max(first - 1, 0)].expandtabs(8))
    end = len(text[:max(last if last is not None else first, first)].expandtabs(8))
    return [text.expandtabs(8), " " * start + "^" + "~" * max(end - start - 1, 0)]


def read_source_line(file: str | None, line: int) -> str | None:
    """Line ``line`` (1-based) of the text file ``file``, or ``None`` when it cannot be read."""
    if not file or file.startswith("<") or line < 1:
        return None
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                if number == line:
                    return text.rstrip("\r\n")
    except OSError:
        return None
    return None


class MLIRParseError(LatticecastError, ValueError):
    """Input that is not valid MLIR (or does not verify). ``diagnostics`` locates every problem;
    the message is the first one, as ``file:line:col: error: ...``, with the others after it."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics = tuple(diagnostics)

    @classmethod
    def from_mlir(cls, err: ir.MLIRError, source_name: str, *, what: str = "") -> "MLIRParseError":
        """The error for an ``ir.MLIRError`` raised while parsing or verifying ``source_name``."""
        diags = [Diagnostic.from_mlir(d, source_name) for d in err.error_diagnostics]
        if not diags:  # an MLIRError without diagnostics: keep jaxlib's text, which has the position
            text = " ".join(str(err).replace('"-":', f"{source_name}:").split())
            return cls(f"{what}{text}", [Diagnostic("error", text, source_name)])
        lines = [d for diag in diags for d in diag.lines()]
        return cls(what + "\n".join(lines), diags)
