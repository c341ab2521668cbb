"""``latticecast-opt``: ``mlir-opt`` for StableHLO with the ``implicit-cast`` pass.

    latticecast-opt in.mlir --pass-pipeline='builtin.module(implicit-cast{policy=max},canonicalize)'
    latticecast-opt in.mlir --implicit-cast --policy max --diagnose-lossy --canonicalize --cse
    latticecast-opt in.mlir                      # parse, verify and print (a round trip)
    latticecast-opt tests.mlir --split-input-file --verify-diagnostics --implicit-cast

Input may hold mixed-dtype binary ops in the generic form (see
:mod:`latticecast.dialect_utils.lenient`); the output is verified. Diagnostics go
to standard error as ``file:line:col: severity: message``, the pass's warnings and
remarks included (they are printed when the pipeline succeeds too).

Exit codes follow ``mlir-opt``: 0 success; 1 for a failure of the input or the
pipeline (a parse error, a pass error, a verifier error, a pipeline that does not
parse, an unknown pass or option, unmatched ``expected-*`` comments, an input or
output file that cannot be used); 2 for a command line argparse rejects. Errors
of the tool are one line, ``latticecast-opt: error: ...``, never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Sequence, TextIO

from jaxlib.mlir import ir

from ..dialect_utils.context import make_context
from ..passes import PipelineError, build_pass_manager
from .opt_args import PROG, OptConfig, UsageError, parse_args
from .opt_chunk import ChunkResult, PrintOptions, process_chunk
from .opt_diagnostics import without_op_dumps
from .opt_pipeline import one_line_error
from .opt_split import OUTPUT_SEPARATOR, split_input
from .opt_verify import parse_expectations, verify_diagnostics

__all__ = ["main", "run", "OptError"]

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class OptError(Exception):
    """A failure the user can fix, reported as one line (exit code 1)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``latticecast-opt`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    try:
        config = parse_args(list(sys.argv[1:] if argv is None else argv))
    except UsageError as e:
        print(f"{PROG}: error: {e} (see '{PROG} --help')", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else EXIT_OK
    try:
        return run(config)
    except OptError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_FAILURE
    except BrokenPipeError:  # `latticecast-opt ... | head`: stop quietly, as other tools do
        _silence_stdout()
        return EXIT_FAILURE


def run(config: OptConfig, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Do what ``config`` says; returns the exit code (raises :class:`OptError` for tool errors)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    context = make_context()
    if config.disable_threading:
        context.enable_multithreading(False)
    if config.pipeline is not None:
        _check_pipeline(config.pipeline, context)
    text, source_name = _read_input(config.input)
    printing = PrintOptions(config.print_generic, config.print_debuginfo, config.pretty_debuginfo,
                            config.print_local_scope)
    outputs: list[str] = []
    ok = True
    for chunk in split_input(text, config.split_input_file):
        result = process_chunk(chunk.text, source_name, config.pipeline, context, printing)
        chunk_ok, lines = _judge(result, chunk.text, source_name, config.verify_diagnostics)
        ok &= chunk_ok
        for line in lines:
            print(line, file=err)
        outputs.append(result.output or "")
    _write_output(OUTPUT_SEPARATOR.join(outputs), config.output, out, ok)
    return EXIT_OK if ok else EXIT_FAILURE


def _judge(result: ChunkResult, text: str, source_name: str, verify: bool) -> tuple[bool, list[str]]:
    """Whether a chunk passed, and the lines to print for it: its diagnostics, or with
    ``--verify-diagnostics`` the mismatches with its ``expected-*`` comments (a failing
    pipeline passes when every error it reports was expected)."""
    if verify:
        report = verify_diagnostics(without_op_dumps(result.diagnostics), parse_expectations(text, source_name))
        return not report, report
    return result.ok, [line for d in result.diagnostics for line in d.lines()]


def _check_pipeline(pipeline: str, context: ir.Context) -> None:
    """Build the pipeline once before reading the input, so a bad one fails on its own."""
    try:
        build_pass_manager(pipeline, context)
    except PipelineError as e:
        raise OptError(f"invalid pass pipeline '{pipeline}': {one_line_error(e)}") from None


def _read_input(path: str) -> tuple[str, str]:
    """The input text and the name diagnostics give it (``<stdin>`` for standard input)."""
    try:
        if path == "-":
            return sys.stdin.read(), "<stdin>"
        return Path(path).read_text(encoding="utf-8"), path
    except OSError as e:
        raise OptError(f"cannot open input file '{path}': {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise OptError(f"input file '{path}' is not UTF-8 text ({e.reason} at byte {e.start})") from None


def _write_output(text: str, path: str | None, out: TextIO, ok: bool) -> None:
    """Standard output gets whatever chunks succeeded; a file is written only on success (as
    mlir-opt keeps its output file only then)."""
    if path is None or path == "-":
        out.write(text)
        out.flush()
        return
    if not ok:
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
