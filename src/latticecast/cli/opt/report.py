"""Everything ``latticecast-opt`` reports for one buffer, each diagnostic once and in order.

Diagnostics reach the tool by several routes (see :mod:`latticecast.dialect_utils.diagnostics`):
a latticecast pass records its errors *and* emits them through MLIR, so each is in
two lists; MLIR attaches a "see current operation" note to verifier errors that
``mlir-opt --verify-diagnostics`` turns off; upstream passes' warnings and remarks
arrive through a context handler (:class:`DiagnosticCollector`), after what the runner merged
(:func:`latticecast.passes.runner.merge_diagnostics`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic

__all__ = ["DiagnosticCollector", "without_op_dumps"]


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
