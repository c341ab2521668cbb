"""Everything ``latticecast-opt`` reports for one buffer, each diagnostic once and in order.

Diagnostics reach the tool by several routes (see :mod:`latticecast.dialect_utils.diagnostics`):
a latticecast pass records its errors *and* emits them through MLIR, so each is in
two lists; MLIR attaches a "see current operation" note to verifier errors that
``mlir-opt --verify-diagnostics`` turns off; upstream passes' warnings and remarks
arrive through a context handler. This module merges them into one list.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Sequence

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic

__all__ = ["merge_diagnostics", "DiagnosticCollector", "without_op_dumps"]


def merge_diagnostics(pass_diags: Iterable[Diagnostic], mlir_errors: Sequence[Diagnostic],
                      caught: Sequence[Diagnostic] = ()) -> list[Diagnostic]:
    """Every diagnostic of one run, each once, in the order they were emitted where known.

    A latticecast pass's error is in both lists; the MLIR copy is kept (it has the notes) at
    the pass's position. Errors that are not the passes' (the verifier's) follow, then what
    the context handler caught from upstream passes.
    """
    pending = list(mlir_errors)
    out: list[Diagnostic] = []
    for d in pass_diags:
        if d.severity == "error":
            twin = next((i for i, e in enumerate(pending) if e.message == d.message and e.where == d.where), None)
            if twin is not None:
                out.append(pending.pop(twin))
                continue
        out.append(d)
    return out + pending + list(caught)


_OP_DUMP = "see current operation: "


def without_op_dumps(diags: Sequence[Diagnostic]) -> list[Diagnostic]:
    """``diags`` without the "see current operation: ..." notes MLIR attaches to verifier errors
    (``mlir-opt --verify-diagnostics`` turns them off; jaxlib's bindings cannot)."""
    return [replace(d, notes=tuple(n for n in d.notes if not n.message.startswith(_OP_DUMP))) for d in diags]


class DiagnosticCollector:
    """A context diagnostic handler for the warnings, remarks and notes MLIR emits outside an
    ``MLIRError`` (jaxlib captures errors in the exception, and passes the rest on)."""

    def __init__(self, context: ir.Context, source_name: str | None = None) -> None:
        self.context = context
        self.source_name = source_name
        self.caught: list[Diagnostic] = []
        self._handler: ir.DiagnosticHandler | None = None

    def _handle(self, d: ir.Diagnostic) -> bool:
        self.caught.append(Diagnostic.from_mlir(d, self.source_name))
        return True

    def __enter__(self) -> "DiagnosticCollector":
        handler = self.context.attach_diagnostic_handler(self._handle)
        assert isinstance(handler, ir.DiagnosticHandler)  # object in jaxlib's stubs
        self._handler = handler
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handler is not None:
            self._handler.detach()
            self._handler = None
