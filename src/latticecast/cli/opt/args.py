"""The command line of ``latticecast-opt``, read the way ``mlir-opt`` reads its own.

argparse handles the tool's options; pass flags (``--implicit-cast``,
``--canonicalize``, ``--cse=...``, any flag the tool does not know) are taken out
first, in order, because their order is the pipeline's and argparse would lose
it. Single-dash long options (``-split-input-file``, ``-pass-pipeline=...``) are
accepted as in LLVM tools. ``--diagnose-lossy`` takes its level only as
``--diagnose-lossy=LEVEL`` (or a following word that is a level), so that
``--diagnose-lossy input.mlir`` reads the file.

Mistakes in how the tool is called are :class:`UsageError` (exit 2, argparse's
code); mistakes in what the passes are asked to do are caught later, when the
pipeline is built (exit 1, as ``mlir-opt``).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import NoReturn, Sequence

from ... import __version__
from ...passes.options import ImplicitCastOptions, LossyLevel
from ..exit_codes import LATTICECAST_OPT, UsageError


__all__ = ["OptConfig", "UsageError", "parse_args", "build_parser", "PROG", "PassFlag", "compose_pipeline"]

PROG = LATTICECAST_OPT
LOSSY_LEVELS = tuple(level.value for level in LossyLevel)

_VALUE_OPTIONS = {"--pass-pipeline", "--policy", "--policy-file", "--output"}
_FLAG_OPTIONS = {
    "--split-input-file", "--verify-diagnostics", "--mlir-print-op-generic", "--mlir-print-debuginfo",
    "--mlir-pretty-debuginfo", "--mlir-print-local-scope", "--allow-unregistered-dialect",
    "--mlir-disable-threading", "--emit-bytecode", "--help", "--version",
}


@dataclass(frozen=True)
class OptConfig:
    """What to do: read ``input``, run ``pipeline`` (``None``: parse, verify, print), write ``output``."""

    input: str
    output: str | None
    pipeline: str | None
    split_input_file: bool = False
    verify_diagnostics: bool = False
    print_generic: bool = False
    print_debuginfo: bool = False
    pretty_debuginfo: bool = False
    print_local_scope: bool = False
    disable_threading: bool = False
    emit_bytecode: bool = False
    policy_file: str | None = None
    """The CSV table of ``--policy-file``, read (and its mistakes reported) before the pipeline is built."""


IMPLICIT_CAST = ImplicitCastOptions.pass_name


@dataclass(frozen=True)
class PassFlag:
    """``--name`` or ``--name=options`` on the command line."""

    name: str
    options: str | None = None


def compose_pipeline(flags: Sequence[PassFlag], implicit_cast_defaults: Sequence[str] = ()) -> str:
    """``builtin.module(...)`` running ``flags`` in order, as ``mlir-opt`` composes its pass flags.
    ``implicit_cast_defaults`` (``policy=max`` ...) go before any options written on an
    ``--implicit-cast=...`` flag, so the flag's own options win."""
    elements = []
    for f in flags:
        options = [o for o in ([*implicit_cast_defaults] if f.name == IMPLICIT_CAST else []) + [f.options or ""]
                   if o]
        elements.append(f"{f.name}{{{' '.join(options)}}}" if options else f.name)
    return f"builtin.module({','.join(elements)})"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG, allow_abbrev=False,
        usage=f"{PROG} [INPUT] [-o OUTPUT] [--pass-pipeline=PIPELINE | --PASS[=OPTIONS] ...] [options]",
        description="Parse StableHLO (mixed-dtype binary ops allowed in the generic form), run a pass "
                    "pipeline that may include implicit-cast, verify and print the result.",
        epilog="Pass flags run in the order given: --implicit-cast --policy max --canonicalize --cse is "
               "builtin.module(implicit-cast{policy=max},canonicalize,cse). Any MLIR pass jaxlib knows "
               "can be given as --NAME or --NAME='OPTIONS'.")
    p.add_argument("input", nargs="?", default="-", metavar="INPUT", help="input file ('-' or none: stdin)")
    p.add_argument("-o", "--output", metavar="OUTPUT", help="output file (default: stdout)")
    p.add_argument("--pass-pipeline", metavar="PIPELINE",
                   help="a textual pipeline, e.g. 'builtin.module(implicit-cast{policy=max},canonicalize)'")
    p.add_argument("--implicit-cast", metavar="OPTIONS", nargs="?",
                   help="run implicit-cast here in the pipeline (options as in the pipeline, "
                        "e.g. --implicit-cast='policy=max diagnose-lossy=warning')")
    p.add_argument("--policy", metavar="NAME", help="implicit-cast's promotion policy (default: jax)")
    p.add_argument("--policy-file", metavar="CSV", dest="policy_file",
                   help="implicit-cast's promotion policy read from a CSV promotion table (the format of "
                        "'latticecast table --format csv'; implicit-cast{policy-file=CSV} in a pipeline)")
    p.add_argument("--diagnose-lossy", metavar="LEVEL", dest="diagnose_lossy",
                   help="report lossy promotions: off, remark, warning (the default when given bare), error")
    p.add_argument("--diagnose-precision", metavar="LEVEL", dest="diagnose_precision",
                   help="report promotions that can round (i32 -> f32): off, remark, warning (bare), error")
    p.add_argument("--report-promotions", action="store_const", const="true", dest="report_promotions",
                   help="a remark for every convert inserted and weak literal retyped (operand, from -> to, kind), "
                        "and a summary by kind")
    p.add_argument("--lower-dtypes", metavar="BOOL", dest="lower_dtypes",
                   help="implicit-cast lowers index/address/tf32 (true, the default, or false)")
    p.add_argument("--split-input-file", action="store_true",
                   help="process each chunk between '// -----' lines on its own")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check diagnostics against expected-* comments instead of printing them")
    p.add_argument("--mlir-print-op-generic", action="store_true", help="print ops in the generic form")
    p.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations")
    p.add_argument("--mlir-pretty-debuginfo", action="store_true", help="print locations inline, prettily")
    p.add_argument("--mlir-print-local-scope", action="store_true", help="print types and locations inline")
    p.add_argument("--mlir-disable-threading", action="store_true",
                   help="run passes on one thread (latticecast's contexts always do; accepted for mlir-opt "
                        "compatibility)")
    p.add_argument("--emit-bytecode", action="store_true", help="write MLIR bytecode instead of text")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accepted for mlir-opt compatibility (always allowed)")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return p


def _long(token: str) -> str:
    """``-split-input-file`` -> ``--split-input-file``; ``-o``, ``-o=FILE``, ``-h``, ``-`` stay."""
    if token.startswith("-") and not token.startswith("--") and len(token) > 2 and token[1].isalpha() \
            and token[2] != "=":
        return "-" + token
    return token


def _extract(argv: Sequence[str]) -> tuple[list[str], list[PassFlag]]:
    """Split ``argv`` into argparse's tokens and the pass flags, in order."""
    kept: list[str] = []
    passes: list[PassFlag] = []
    tokens = [_long(t) for t in argv]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "--":
            kept.append("--")
            kept.extend(argv[i:])
            break
        if not token.startswith("--"):
            kept.append(token)
            if token == "-o" and i < len(tokens):
                kept.append(argv[i])
                i += 1
            continue
        name, eq, value = token.partition("=")
        if name in _VALUE_OPTIONS or name in _FLAG_OPTIONS:
            kept.append(token)
            if name in _VALUE_OPTIONS and not eq and i < len(tokens):
                kept.append(argv[i])  # the value as written (a value may start with '-')
                i += 1
        elif name in ("--diagnose-lossy", "--diagnose-precision"):
            if not eq:
                value = "warning"
                if i < len(tokens) and tokens[i] in LOSSY_LEVELS:
                    value = tokens[i]
                    i += 1
            kept.append(f"{name}={value}")
        elif name == "--lower-dtypes":
            kept.append(f"{name}={value if eq else 'true'}")
        elif name == "--report-promotions":
            kept.append(name)
        elif name.startswith("--mlir-"):
            raise UsageError(f"unrecognized option {name} (this tool supports --mlir-print-op-generic, "
                             "--mlir-print-debuginfo, --mlir-pretty-debuginfo, --mlir-print-local-scope, "
                             "--mlir-disable-threading)")
        else:
            passes.append(PassFlag(name[2:], value if eq else None))
    return kept, passes


def parse_args(argv: Sequence[str]) -> OptConfig:
    """The configuration for ``argv``; raises :class:`UsageError`, or ``SystemExit(0)`` for
    ``--help``/``--version``."""
    kept, passes = _extract(argv)
    args = build_parser().parse_args(kept)
    if args.policy is not None and args.policy_file is not None:
        raise UsageError("give --policy or --policy-file, not both")
    if args.policy_file is not None and (not args.policy_file or any(c in args.policy_file for c in " \t,{}")):
        raise UsageError(f"--policy-file {args.policy_file!r}: a pass option cannot hold a path with spaces, commas "
                         "or braces; rename the file or copy it to such a path")
    defaults = [f"{key}={value}" for key, value in (("policy", args.policy), ("policy-file", args.policy_file),
                                                     ("diagnose-lossy", args.diagnose_lossy),
                                                     ("diagnose-precision", args.diagnose_precision),
                                                     ("report-promotions", args.report_promotions),
                                                     ("lower-dtypes", args.lower_dtypes)) if value is not None]
    has_cast = any(p.name == IMPLICIT_CAST for p in passes)
    if args.pass_pipeline is not None and passes:
        raise UsageError("--pass-pipeline cannot be combined with pass flags ("
                         + ", ".join(f"--{p.name}" for p in passes) + "); put every pass in the pipeline")
    if defaults and not has_cast:
        hint = ("write implicit-cast{policy=...} in the --pass-pipeline" if args.pass_pipeline is not None
                else "add --implicit-cast")
        raise UsageError(f"--{defaults[0].split('=')[0]} is an option of implicit-cast; {hint}")
    pipeline = args.pass_pipeline
    if passes:
        pipeline = compose_pipeline(passes, defaults)
    return OptConfig(
        input=args.input, output=args.output, pipeline=pipeline,
        split_input_file=args.split_input_file, verify_diagnostics=args.verify_diagnostics,
        print_generic=args.mlir_print_op_generic, print_debuginfo=args.mlir_print_debuginfo,
        pretty_debuginfo=args.mlir_pretty_debuginfo, print_local_scope=args.mlir_print_local_scope,
        disable_threading=args.mlir_disable_threading, emit_bytecode=args.emit_bytecode,
        policy_file=args.policy_file)
