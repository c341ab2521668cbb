"""The driver of ``latticecast-opt``: read the input, run the pipeline on each chunk, print (see the package)."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path
from typing import TextIO

from jaxlib.mlir import ir

from ...dialect_utils.context import SHARDY_DIALECTS, load_shardy, load_shardy_for, make_context
from ...dialect_utils.diagnostics import MLIRParseError
from ...dialect_utils.parsing import decode_source, is_bytecode
from ...errors import LatticecastError
from ...passes.pipeline import Pipeline, PipelineError
from ...passes.runner import PipelineRunner
from ..common import write_file
from ..exit_codes import EXIT_FAILURE, EXIT_OK, report
from ..progress import VERBOSE, bar, detail, info, set_verbosity, verbosity
from .args import PROG, OptConfig, passes_and_policies
from .chunk import ChunkResult, PrintOptions, process_chunk
from .ir_printing import instrument
from .report import without_op_dumps
from .split import OUTPUT_SEPARATOR, split_input

__all__ = ["execute", "run", "OptError", "list_passes", "mixed_dtype_hint"]

class OptError(LatticecastError):
    """A failure the user can fix, reported as one line (exit code 1, :mod:`..exit_codes`)."""


def execute(config: OptConfig) -> int:
    """Do what the command line ``config`` was read from says; returns the exit code (the package's
    :func:`~latticecast.cli.opt.main` reads the command line first, so --help and --version load none of
    this module)."""
    set_verbosity(config.verbosity)
    if config.list_passes:
        list_passes(sys.stdout)
        return EXIT_OK
    try:
        return run(config)
    except LatticecastError as e:  # OptError, a policy file that cannot be used, ...: exit 1
        return report(e, PROG)
    except BrokenPipeError:  # `latticecast-opt ... | head`: stop quietly, as other tools do
        _silence_stdout()
        return EXIT_FAILURE


def run(config: OptConfig, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Do what ``config`` says; returns the exit code (raises :class:`OptError` for tool errors)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    context = make_context(lenient=True, shardy=False)  # Shardy's dialects load when the input names them
    if config.pipeline is not None and any(n.startswith(SHARDY_DIALECTS) for n in config.pipeline.all_pass_names()):
        load_shardy(context)  # Shardy's passes need their dialects
    runner = _runner(config, context)
    if config.dump_pass_pipeline:
        _dump_pipeline(runner, err)
    try:
        return _run_chunks(config, runner, context, out, err)
    finally:
        err.flush()
        runner.close()  # --mlir-timing: the report goes out now, after the diagnostics


def _run_chunks(config: OptConfig, runner: PipelineRunner, context: ir.Context, out: TextIO,
                err: TextIO) -> int:
    """Read, split and run the input; print what each chunk gave."""
    data, source_name = _read_input(config.input)
    load_shardy_for(context, data)
    printing = PrintOptions(config.print_generic, config.print_debuginfo, config.pretty_debuginfo,
                            config.print_local_scope, config.emit_bytecode)
    try:
        source = decode_source(data, source_name)
    except MLIRParseError as e:
        for d in e.diagnostics:
            print(d.format(), file=err)
        return EXIT_FAILURE
    if is_bytecode(source):
        if config.split_input_file or config.verify_diagnostics:
            raise OptError("--split-input-file and --verify-diagnostics read MLIR text; the input is bytecode")
        chunks = [(source, 1)]
    else:
        assert isinstance(source, str)  # decode_source: bytes only for bytecode
        chunks = [(c.text, c.first_line) for c in split_input(source, config.split_input_file)]
    outputs: list[str | bytes] = []
    ok = True
    if verbosity() >= VERBOSE:  # the pipeline is printed from its fields only for -v
        detail(f"{PROG}: {source_name}: {len(data):,} bytes, {len(chunks)} chunk{'s' * (len(chunks) != 1)}; "
               f"pipeline {config.pipeline if config.pipeline is not None else '(none: parse, verify, print)'}")
    with bar(f"{PROG}: {source_name}", len(chunks), "chunk") as progress:
        for index, (text, first_line) in enumerate(chunks):
            started = time.perf_counter()
            result = process_chunk(text, source_name, runner, context, printing, first_line, config.ir_printing)
            chunk_ok, lines = _judge(result, text, source_name, first_line, config.verify_diagnostics)
            ok &= chunk_ok
            for line in lines:
                print(line, file=err)
            if not chunk_ok and config.pipeline is None and not config.verify_diagnostics and isinstance(text, str):
                hint = mixed_dtype_hint(text, source_name, first_line, config.input, context)
                if hint:
                    info(hint)
            outputs.append(result.output or ("" if not printing.bytecode else b""))
            detail(f"{PROG}: chunk {index + 1} (line {first_line}): {'ok' if chunk_ok else 'failed'} in "
                   f"{time.perf_counter() - started:.3f} s")
            progress.update(1)
    if printing.bytecode:
        if len(outputs) != 1:
            raise OptError("--emit-bytecode writes one module; it cannot be combined with --split-input-file")
        _write_output(outputs[0], config.output, out, ok)
    else:
        _write_output(OUTPUT_SEPARATOR.join(o for o in outputs if isinstance(o, str)), config.output, out, ok)
    return EXIT_OK if ok else EXIT_FAILURE


def mixed_dtype_hint(text: str, source_name: str, first_line: int, path: str,
                     context: ir.Context | None = None) -> str | None:
    """One line naming an op that mixes element types and ``--implicit-cast``, for a chunk that failed
    with no pass asked for; ``None`` when no op mixes them (read from the chunk parsed leniently:
    :func:`~latticecast.passes.readiness.mixed_ops`).

    Args:
        text: The chunk's text.
        source_name: The file it came from.
        first_line: The line of that file where the chunk starts.
        path: The input as the command line gave it (``-`` for standard input).
        context: The lenient context to read it in (default: this thread's).

    Returns:
        The hint, or ``None``.

    Example:
        >>> print(mixed_dtype_hint('func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {\\n'
        ...     '  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>\\n'
        ...     '  return %0 : tensor<4xf32>\\n}', "m.mlir", 1, "m.mlir"))
        hint: 'stablehlo.add' mixes element types (i16, f32): run implicit-cast first (latticecast-opt m.mlir --implicit-cast)
    """
    from ...passes.readiness import mixed_ops, parse_leniently  # only for a chunk that failed: not at start-up

    module = parse_leniently(text, source_name, first_line, context)
    mixed = mixed_ops(module) if module is not None else []
    if not mixed:
        return None
    return (f"hint: '{mixed[0].name}' mixes element types ({', '.join(mixed[0].element_types)}): run implicit-cast "
            f"first ({PROG} {path} --implicit-cast)")


def _judge(result: ChunkResult, text: "str | bytes", source_name: str, first_line: int,
           verify: bool) -> tuple[bool, list[str]]:
    """Whether a chunk passed, and the lines to print for it: its diagnostics, or with
    ``--verify-diagnostics`` the mismatches with its ``expected-*`` comments (a failing
    pipeline passes when every error it reports was expected)."""
    if verify and isinstance(text, str):
        from .verify import parse_expectations, verify_diagnostics  # only with --verify-diagnostics (start-up)

        report = verify_diagnostics(without_op_dumps(result.diagnostics),
                                    parse_expectations(text, source_name, first_line))
        return not report, report
    if isinstance(text, str):  # each with its source line and a caret, as mlir-opt's source manager prints
        return result.ok, [line for d in result.diagnostics for line in d.source_lines(text, source_name, first_line)]
    return result.ok, [line for d in result.diagnostics for line in d.lines()]


def _runner(config: OptConfig, context: ir.Context) -> PipelineRunner:
    """The pipeline, built once before the input is read, so a bad one fails on its own. Without one,
    the runner runs no pass: it verifies the input (and is instrumented all the same, as mlir-opt's)."""
    pipeline = config.pipeline if config.pipeline is not None else Pipeline()
    try:
        runner = PipelineRunner(pipeline, context, verify_each=config.verify_each, verify_input=True)
    except PipelineError as e:
        raise OptError(f"invalid pass pipeline '{pipeline}': {' '.join(str(e).split())}") from None
    instrument(runner.pm, config.ir_printing, config.timing)
    printing = config.ir_printing
    if printing is not None and printing.selective:
        known = pipeline.all_pass_names()
        for flag, names in (("--mlir-print-ir-before", printing.before), ("--mlir-print-ir-after", printing.after)):
            unknown = [n for n in names if n not in known]
            if unknown:
                runner.close()
                raise OptError(f"{flag}={','.join(names)}: the pipeline runs no pass named "
                               f"{', '.join(repr(n) for n in unknown)}; its passes are "
                               f"{', '.join(pipeline.pass_names) or 'none'}")
    return runner


def _dump_pipeline(runner: PipelineRunner, err: TextIO) -> None:
    """``--dump-pass-pipeline``: what ``mlir-opt`` prints, the pass count and the pipeline with every option."""
    print(f"Pass Manager with {len(runner.pipeline.elements)} passes:", file=err)
    print(str(runner), file=err)
    print(file=err)


def list_passes(out: TextIO) -> None:
    """``--list-passes``, as ``mlir-opt``'s: latticecast's passes with their options, then every pass
    and pipeline the installed jaxlib registers (:mod:`.registered`) with its options and their
    defaults, and the policies."""
    import jaxlib.version

    from .registered import registered_passes

    print(passes_and_policies(), file=out)
    found = registered_passes()
    passes = [p for p in found if not p.is_pipeline]
    print(f"\nMLIR passes jaxlib {jaxlib.version.__version__} registers ({len(passes)}; each as --NAME or --NAME='OPTIONS', "
          "options with their defaults):", file=out)
    for p in passes:
        where = "" if p.anchor in ("any", "builtin.module") else f" (on {p.anchor}: nested there in a pipeline)"
        print(f"  --{p.name}{where}", file=out)
        if p.options:
            print(textwrap.fill(p.options, 100, initial_indent="      options: ", subsequent_indent="        ",
                                break_on_hyphens=False), file=out)
    pipelines = [p for p in found if p.is_pipeline]
    if pipelines:
        print(f"\nPass pipelines ({len(pipelines)}):", file=out)
        for p in pipelines:
            print(textwrap.fill(p.expands_to, 100, initial_indent=f"  --{p.name}: ", subsequent_indent="      ",
                                break_on_hyphens=False), file=out)


def _read_input(path: str) -> tuple[bytes, str]:
    """The input's bytes and the name diagnostics give it (``<stdin>`` for standard input)."""
    shown = path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    try:
        if path == "-":
            return sys.stdin.buffer.read(), "<stdin>"
        return Path(path).read_bytes(), shown
    except OSError as e:
        raise OptError(f"cannot open input file '{shown}': {e.strerror or e}") from None


def _write_output(data: "str | bytes", path: str | None, out: TextIO, ok: bool) -> None:
    """Standard output gets whatever chunks succeeded; a file is written only on success (as
    mlir-opt keeps its output file only then)."""
    if path is None or path == "-":
        if isinstance(data, bytes):
            out.flush()
            getattr(out, "buffer", out).write(data)  # type: ignore[arg-type]  # no .buffer: takes bytes
        else:
            out.write(data)
        out.flush()
        return
    if not ok:
        return
    try:
        write_file(data, path)
    except OSError as e:
        raise OptError(f"cannot write output file '{path}': {e.strerror or e}") from None


def _silence_stdout() -> None:
    """Point stdout at the null device so that the interpreter's final flush does not
    raise BrokenPipeError again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (captured output)
        pass
    finally:
        os.close(devnull)

