"""One input buffer through ``latticecast-opt``: parse leniently, run the pipeline, verify, print.

The invariant is ``mlir-opt``'s: every pass but ``implicit-cast`` sees IR that
verifies, and what is printed verifies (but for the mixed-dtype IR ``lift-implicit-casts`` writes,
printed in the generic form when no ``implicit-cast`` follows it). The lenient parser lets mixed-dtype ops
through, so the module is verified *before* the pipeline unless its first pass is
``implicit-cast`` (whose job is to make such IR legal), and the PassManager verifies
after every pass. A run with no passes therefore verifies the input, and rejects
mixed-dtype ops with the verifier's own message.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ...dialect_utils.diagnostics import Diagnostic, MLIRParseError
from ...errors import LatticecastWarning
from ...dialect_utils.parsing import parse_module
from ...passes import LatticecastPass, Pipeline
from .args import IMPLICIT_CAST, IRPrinting
from .ir_printing import captured_dumps, instrument
from .report import DiagnosticCollector, merge_diagnostics

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


class PipelineRunner:
    """A pipeline built once into a PassManager, run on one buffer after another (its passes'
    diagnostics are cleared before each run). ``verify_each``, ``ir_printing`` and ``timing``
    are ``mlir-opt``'s ``--verify-each``, ``--mlir-print-ir-*`` and ``--mlir-timing`` (the
    timing report is printed when the runner is :meth:`close` d)."""

    def __init__(self, pipeline: Pipeline, context: ir.Context, *, verify_each: bool = True,
                 ir_printing: IRPrinting | None = None, timing: bool = False) -> None:
        self.pipeline = pipeline
        self.pm, self.ours = pipeline.build(context)
        # lift-implicit-casts writes mixed-dtype ops: the verifier runs at the end, where implicit-cast ran last
        self.verify_each = verify_each and not pipeline.writes_mixed_ir
        self.pm.enable_verifier(self.verify_each)
        self.verify_at_end = verify_each and pipeline.writes_mixed_ir and not pipeline.leaves_mixed_ir
        self.ir_printing = ir_printing
        instrument(self.pm, ir_printing, timing)

    def run(self, module: ir.Module) -> None:
        for p in self.ours:
            p.diagnostics.clear()
            p.results.clear()
        if self.pipeline.first_pass != IMPLICIT_CAST:
            module.operation.verify()
        with captured_dumps(self.ir_printing), warnings.catch_warnings():
            warnings.simplefilter("ignore", LatticecastWarning)  # the tool prints them as diagnostics
            self.pm.run(module.operation)
        if self.verify_at_end:
            module.operation.verify()

    def close(self) -> None:
        """Release the PassManager, which prints its timing report (``--mlir-timing``) as it goes."""
        del self.pm


def process_chunk(source: "str | bytes", source_name: str, runner: PipelineRunner | None, context: ir.Context,
                  printing: PrintOptions = PrintOptions(), first_line: int = 1) -> ChunkResult:
    """Run one buffer; MLIR failures become diagnostics, never exceptions."""
    try:
        module = parse_module(source, context, lenient=True, source_name=source_name, first_line=first_line)
    except MLIRParseError as e:
        return ChunkResult(False, None, list(e.diagnostics))
    ours: list[LatticecastPass] = runner.ours if runner is not None else []
    with DiagnosticCollector(context, source_name) as collector:
        try:
            if runner is None or runner.pipeline.is_empty:
                module.operation.verify()
            else:
                runner.run(module)
        except ir.MLIRError as e:
            errors = [Diagnostic.from_mlir(d, source_name) for d in e.error_diagnostics]
            return ChunkResult(False, None, merge_diagnostics(_pass_diagnostics(ours), errors, collector.caught))
    diags = merge_diagnostics(_pass_diagnostics(ours), [], collector.caught)
    verified = runner is None or runner.verify_each or runner.verify_at_end or runner.pipeline.is_empty
    return ChunkResult(True, _print(module, printing, verified), diags)


def _pass_diagnostics(passes: list[LatticecastPass]) -> list[Diagnostic]:
    return [d for p in passes for d in p.diagnostics]


def _print(module: ir.Module, printing: PrintOptions, verified: bool = True) -> "str | bytes":
    """The module as text or bytecode; unless ``verified``, the printer checks it first (and
    falls back to the generic form for IR that does not verify, as ``mlir-opt --verify-each=0``)."""
    if printing.bytecode:
        buf = io.BytesIO()
        module.operation.write_bytecode(buf)
        return buf.getvalue()
    text = module.operation.get_asm(
        print_generic_op_form=printing.generic, enable_debug_info=printing.debuginfo or printing.pretty_debuginfo,
        pretty_debug_info=printing.pretty_debuginfo, use_local_scope=printing.local_scope, assume_verified=verified)
    return str(text).rstrip("\n") + "\n"
