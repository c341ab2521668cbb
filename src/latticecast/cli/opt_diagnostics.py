"""One record for every diagnostic ``latticecast-opt`` sees, whatever produced it.

Diagnostics reach the tool by four routes: the lenient parser (``MLIRParseError``
tuples), MLIR errors (``ir.MLIRError.error_diagnostics``, from the verifier or
from a pass, with notes), the ``implicit-cast`` pass's own list (the only route
for its remarks and warnings: jaxlib's bindings can emit nothing but errors), and
a context handler that catches the warnings and remarks of upstream passes.
:class:`Diag` gives them one shape, so printing them and checking them against
``expected-*`` comments are each written once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from jaxlib.mlir import ir

from ..passes.diagnostics import Diagnostic, location_parts

__all__ = ["Diag", "from_mlir", "from_pass", "from_parse", "merge_diagnostics", "DiagnosticCollector",
           "without_op_dumps"]

SEVERITIES = ("error", "warning", "remark", "note")


@dataclass(frozen=True)
class Diag:
    """A diagnostic at ``file:line:col`` (``file`` is ``None`` for an unknown location)."""

    severity: str
    file: str | None
    line: int
    col: int
    message: str
    notes: tuple["Diag", ...] = ()

    @property
    def where(self) -> str | None:
        return None if self.file is None else f"{self.file}:{self.line}:{self.col}"

    def format(self) -> str:
        """MLIR's ``file:line:col: severity: message``; ``severity: message`` when unlocated."""
        head = f"{self.where}: " if self.where else ""
        return f"{head}{self.severity}: {self.message}"

    def lines(self) -> list[str]:
        """This diagnostic and its notes, one line each."""
        return [self.format()] + [n.format() for n in self.notes]

    def flattened(self) -> list["Diag"]:
        """This diagnostic, then its notes: the verifier checks notes as diagnostics of their own."""
        return [self] + [n for n in self.notes]


def _severity(value: object) -> str:
    name = getattr(value, "name", str(value)).lower()
    return name if name in SEVERITIES else "error"


def _located(severity: str, loc: ir.Location | str, message: str, notes: tuple[Diag, ...] = ()) -> Diag:
    parts = location_parts(loc) if isinstance(loc, ir.Location) else _parse_where(loc)
    if parts is None:
        return Diag(severity, None, 0, 0, message, notes)
    return Diag(severity, parts[0], parts[1], parts[2], message, notes)


def _parse_where(text: str) -> tuple[str, int, int] | None:
    """``file:line:col`` as written by :func:`latticecast.passes.diagnostics.format_location`."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return parts[0], int(parts[1]), int(parts[2])


def from_mlir(d: "ir.DiagnosticInfo | ir.Diagnostic") -> Diag:
    """An MLIR diagnostic (an error of ``MLIRError`` or one a handler caught), notes included."""
    notes = tuple(from_mlir(n) for n in d.notes)
    return _located(_severity(d.severity), d.location, d.message, notes)


def from_pass(d: Diagnostic) -> Diag:
    return _located(d.severity, d.location, d.message)


def from_parse(file: str, line: int, col: int, message: str) -> Diag:
    if line <= 0:
        return Diag("error", None, 0, 0, message)
    return Diag("error", file, line, col, message)


def merge_diagnostics(pass_diags: Iterable[Diagnostic], mlir_errors: Sequence[Diag],
                      caught: Sequence[Diag] = ()) -> list[Diag]:
    """Every diagnostic of one run, each once, in the order they were emitted where known.

    The pass records its errors *and* emits them through MLIR, so each of them is in
    both lists; the MLIR copy is kept (it has the notes) at the pass's position.
    Errors that are not the pass's (the verifier's) follow, then what the context
    handler caught from upstream passes.
    """
    pending = list(mlir_errors)
    out: list[Diag] = []
    for d in pass_diags:
        mine = from_pass(d)
        if mine.severity == "error":
            twin = next((i for i, e in enumerate(pending)
                         if e.message == mine.message and e.where == mine.where), None)
            if twin is not None:
                out.append(pending.pop(twin))
                continue
        out.append(mine)
    return out + pending + list(caught)


_OP_DUMP = "see current operation: "


def without_op_dumps(diags: Sequence[Diag]) -> list[Diag]:
    """``diags`` without the "see current operation: ..." notes MLIR attaches to verifier
    errors. ``mlir-opt --verify-diagnostics`` turns them off (``printOpOnDiagnostic``),
    so tests need not expect them; jaxlib's bindings cannot turn them off, so they are
    dropped here instead."""
    return [replace(d, notes=tuple(n for n in d.notes if not n.message.startswith(_OP_DUMP))) for d in diags]


class DiagnosticCollector:
    """A context diagnostic handler for the warnings, remarks and notes MLIR emits outside
    an ``MLIRError`` (jaxlib captures errors in the exception, and passes the rest on)."""

    def __init__(self, context: ir.Context) -> None:
        self.context = context
        self.caught: list[Diag] = []
        self._handler: ir.DiagnosticHandler | None = None

    def _handle(self, d: ir.Diagnostic) -> bool:
        self.caught.append(from_mlir(d))
        return True

    def __enter__(self) -> "DiagnosticCollector":
        self._handler = self.context.attach_diagnostic_handler(self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handler is not None:
            self._handler.detach()
            self._handler = None
