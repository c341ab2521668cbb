"""One input buffer through ``latticecast-opt``: parse leniently, run the pipeline, verify, print.

The invariant is ``mlir-opt``'s: every pass but ``implicit-cast`` sees IR that
verifies, and what is printed verifies (but for the mixed-dtype IR ``lift-implicit-casts`` writes,
printed in the generic form when no ``implicit-cast`` follows it). The lenient parser lets mixed-dtype ops
through, so the runner (:class:`~latticecast.passes.runner.PipelineRunner`, with ``verify_input``) verifies
the module *before* the pipeline unless its first pass is ``implicit-cast`` (whose job is to make such IR
legal), and the PassManager verifies after every pass. A run with no passes therefore verifies the input,
and rejects mixed-dtype ops with the verifier's own message.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic, MLIRParseError
from ...dialect_utils.parsing import parse_checked
from ...dialect_utils.printing import asm
from ...errors import LatticecastWarning, PassFailure
from ...passes.runner import PipelineRunner
from .args import IRPrinting
from .ir_printing import captured_dumps
from .report import DiagnosticCollector

__all__ = ["PrintOptions", "ChunkResult", "process_chunk"]


@dataclass(frozen=True)
class PrintOptions:
    generic: bool = False
    debuginfo: bool = False
    pretty_debuginfo: bool = False
    local_scope: bool = False
    bytecode: bool = False


@dataclass
class ChunkResult:
    """``output`` is the printed module (``None`` when the chunk failed); ``diagnostics`` all
    that was reported, in order."""

    ok: bool
    output: "str | bytes | None" = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def process_chunk(source: "str | bytes", source_name: str, runner: PipelineRunner, context: ir.Context,
                  printing: PrintOptions = PrintOptions(), first_line: int = 1,
                  ir_printing: IRPrinting | None = None) -> ChunkResult:
    """Run one buffer; MLIR failures become diagnostics, never exceptions."""
    try:
        parsed = parse_checked(source, context, lenient=True, source_name=source_name, first_line=first_line)
        module = parsed.module
    except MLIRParseError as e:
        return ChunkResult(False, None, list(e.diagnostics))
    with DiagnosticCollector(context, source_name) as collector:
        try:
            with captured_dumps(ir_printing), warnings.catch_warnings():
                warnings.simplefilter("ignore", LatticecastWarning)  # the tool prints them as diagnostics
                reported = runner.run(module.operation, source_name=source_name, verified=parsed.verified,
                                      unmarked=parsed.unmarked)
        except PassFailure as e:
            return ChunkResult(False, None, e.located + collector.caught)
    return ChunkResult(True, _print(module, printing, runner.verified), reported + collector.caught)


def _print(module: ir.Module, printing: PrintOptions, verified: bool = True) -> "str | bytes":
    """The module as text or bytecode; unless ``verified``, the printer checks it first (and
    falls back to the generic form for IR that does not verify, as ``mlir-opt --verify-each=0``)."""
    if printing.bytecode:
        buf = io.BytesIO()
        module.operation.write_bytecode(buf)
        return buf.getvalue()
    text = asm(module, generic=printing.generic, debug_info=printing.debuginfo or printing.pretty_debuginfo,
               pretty_debug_info=printing.pretty_debuginfo, local_scope=printing.local_scope, assume_verified=verified)
    return text.rstrip("\n") + "\n"
