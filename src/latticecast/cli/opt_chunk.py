"""One input buffer through ``latticecast-opt``: parse leniently, run the pipeline, verify, print.

The invariant is ``mlir-opt``'s: every pass but ``implicit-cast`` sees IR that
verifies, and what is printed verifies. The lenient parser lets mixed-dtype ops
through, so the module is verified *before* the pipeline unless its first pass
is ``implicit-cast`` (whose job is to make such IR legal), and the PassManager
verifies after every pass. A run with no passes therefore verifies the input,
and rejects mixed-dtype ops with the verifier's own message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ..dialect_utils.lenient import MLIRParseError, parse_module
from ..passes import Diagnostic, ImplicitCastPass, build_pass_manager
from .opt_diagnostics import Diag, DiagnosticCollector, from_mlir, from_parse, merge_diagnostics
from .opt_pipeline import IMPLICIT_CAST, first_pass_name, is_empty

__all__ = ["PrintOptions", "ChunkResult", "process_chunk"]


@dataclass(frozen=True)
class PrintOptions:
    generic: bool = False
    debuginfo: bool = False
    pretty_debuginfo: bool = False
    local_scope: bool = False


@dataclass
class ChunkResult:
    """``output`` is the printed module (``None`` when the chunk failed); ``diagnostics`` all
    that was reported, in order."""

    ok: bool
    output: str | None = None
    diagnostics: list[Diag] = field(default_factory=list)


def process_chunk(text: str, source_name: str, pipeline: str | None, context: ir.Context,
                  printing: PrintOptions = PrintOptions()) -> ChunkResult:
    """Run one buffer; MLIR failures become diagnostics, never exceptions."""
    try:
        module = parse_module(text, context, source_name=source_name)
    except MLIRParseError as e:
        return ChunkResult(False, None, [from_parse(*d) for d in e.diagnostics])
    _relocate_block_arguments(module.operation, source_name)
    ours: list[ImplicitCastPass] = []
    with DiagnosticCollector(context) as collector:
        try:
            if pipeline is None or is_empty(pipeline):
                module.operation.verify()
            else:
                pm, ours = build_pass_manager(pipeline, context)
                if first_pass_name(pipeline) != IMPLICIT_CAST:
                    module.operation.verify()
                pm.enable_verifier(True)
                pm.run(module.operation)
        except ir.MLIRError as e:
            errors = [from_mlir(d) for d in e.error_diagnostics]
            return ChunkResult(False, None, merge_diagnostics(_pass_diagnostics(ours), errors, collector.caught))
    diags = merge_diagnostics(_pass_diagnostics(ours), [], collector.caught)
    return ChunkResult(True, _print(module, printing), diags)


def _pass_diagnostics(passes: list[ImplicitCastPass]) -> list[Diagnostic]:
    return [d for p in passes for d in p.diagnostics]


def _print(module: ir.Module, printing: PrintOptions) -> str:
    text = module.operation.get_asm(
        print_generic_op_form=printing.generic, enable_debug_info=printing.debuginfo or printing.pretty_debuginfo,
        pretty_debug_info=printing.pretty_debuginfo, use_local_scope=printing.local_scope, assume_verified=True)
    return str(text).rstrip("\n") + "\n"


def _relocate_block_arguments(root: ir.Operation, source_name: str) -> None:
    """Name the source file in block arguments' locations too (the parser calls every buffer
    "-", and the lenient parser renames op locations only), so that diagnostics and
    ``--mlir-print-debuginfo`` name the file for arguments as ``mlir-opt`` does."""
    if source_name == "-":
        return

    def fix(op: ir.Operation) -> ir.WalkResult:
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    loc = arg.location
                    if loc.typeid == ir.FileLineColLoc.static_typeid:
                        flc = ir.FileLineColLoc(loc) if not isinstance(loc, ir.FileLineColLoc) else loc
                        if flc.filename == "-":
                            arg.set_location(ir.Location.file(source_name, flc.start_line, flc.start_col))
        return ir.WalkResult.ADVANCE

    with root.context:
        root.walk(fix)
