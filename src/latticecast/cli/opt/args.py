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
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn, Sequence

from ... import __version__
from ...passes.options import PASS_OPTIONS, ImplicitCastOptions, LossyLevel, PassOptionError, PassOptions
from ..exit_codes import LATTICECAST_OPT, UsageError
from ..about import VersionAction
from ..progress import add_verbosity_options, verbosity_of

if TYPE_CHECKING:
    from ...passes.pipeline import Pipeline


__all__ = ["OptConfig", "IRPrinting", "UsageError", "parse_args", "build_parser", "PROG", "PassFlag",
           "compose_pipeline", "passes_and_policies"]

PROG = LATTICECAST_OPT
LOSSY_LEVELS = tuple(level.value for level in LossyLevel)

_VALUE_OPTIONS = {"--pass-pipeline", "--policy", "--policy-file", "--output"}
_PASS_LIST_OPTIONS = {"--mlir-print-ir-before", "--mlir-print-ir-after"}
"""Options that name passes, as LLVM's comma-separated lists: ``--mlir-print-ir-after=cse,canonicalize``."""
_FLAG_OPTIONS = {
    "--split-input-file", "--verify-diagnostics", "--mlir-print-op-generic", "--mlir-print-debuginfo",
    "--mlir-pretty-debuginfo", "--mlir-print-local-scope", "--allow-unregistered-dialect",
    "--mlir-disable-threading", "--emit-bytecode", "--help", "--version",
    "--mlir-print-ir-before-all", "--mlir-print-ir-after-all", "--mlir-print-ir-after-change",
    "--mlir-print-ir-after-failure", "--mlir-print-ir-module-scope", "--mlir-timing", "--dump-pass-pipeline",
    "--list-passes", "--quiet", "--verbose",
}
_BOOLEAN_VALUES = {"": True, "1": True, "true": True, "0": False, "false": False}


@dataclass(frozen=True)
class OptConfig:
    """What to do: read ``input``, run ``pipeline`` (``None``: parse, verify, print), write ``output``."""

    input: str
    output: str | None
    pipeline: "Pipeline | None"
    split_input_file: bool = False
    verify_diagnostics: bool = False
    print_generic: bool = False
    print_debuginfo: bool = False
    pretty_debuginfo: bool = False
    print_local_scope: bool = False
    disable_threading: bool = False
    emit_bytecode: bool = False
    ir_printing: "IRPrinting | None" = None
    """``--mlir-print-ir-*``: what the PassManager prints to standard error around each pass."""
    timing: bool = False
    """``--mlir-timing``: the PassManager's execution time report, on standard error."""
    dump_pass_pipeline: bool = False
    """``--dump-pass-pipeline``: the pipeline as built (every option spelled out), on standard error."""
    verify_each: bool = True
    """``--verify-each`` (default on): run the verifier after each pass."""
    list_passes: bool = False
    """``--list-passes``: print the passes (latticecast's and jaxlib's) and the policies, then exit."""
    verbosity: int = 1
    """``-q`` (0), the default (1) or ``-v`` (2): :mod:`latticecast.cli.progress`."""


@dataclass(frozen=True)
class IRPrinting:
    """The ``--mlir-print-ir-*`` options, as ``mlir-opt`` reads them."""

    before_all: bool = False
    after_all: bool = False
    after_change: bool = False
    after_failure: bool = False
    module_scope: bool = False
    before: tuple[str, ...] = ()
    """Pass arguments whose input is printed (``--mlir-print-ir-before=cse,canonicalize``)."""
    after: tuple[str, ...] = ()

    @property
    def selective(self) -> bool:
        """Whether only some passes' dumps are wanted (jaxlib prints every pass's; the rest are dropped)."""
        return bool(self.before or self.after)


IMPLICIT_CAST = ImplicitCastOptions.pass_name


@dataclass(frozen=True)
class PassFlag:
    """``--name`` or ``--name=options`` on the command line."""

    name: str
    options: str | None = None


def compose_pipeline(flags: Sequence[PassFlag], implicit_cast: "ImplicitCastOptions | None" = None) -> "Pipeline":
    """The pipeline running ``flags`` in order, as ``mlir-opt`` composes its pass flags: a latticecast pass's
    options read into its dataclass, any other pass handed to MLIR with its options as written.
    ``implicit_cast`` (from ``--policy`` ...) is what each ``--implicit-cast`` flag starts from, so the
    flag's own options (``--implicit-cast='policy=max'``) win.

    Raises:
        PipelineError: A latticecast pass's options cannot be read.
    """
    from ...passes.pipeline import MLIRPass, Pipeline, PipelineError

    kinds = {o.pass_name: o for o in PASS_OPTIONS}
    elements: list[PassOptions | MLIRPass] = []
    for f in flags:
        kind = kinds.get(f.name)
        if kind is None:
            elements.append(MLIRPass(f.name, f.options or ""))
            continue
        base = implicit_cast if kind is ImplicitCastOptions else None
        try:
            elements.append(kind.parse(f.options or "", base))  # "" changes nothing: the base, or the defaults
        except PassOptionError as e:
            raise PipelineError(f"--{f.name}={f.options}: {e}") from None
    return Pipeline(tuple(elements))


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG, allow_abbrev=False,
        usage=f"{PROG} [INPUT] [-o OUTPUT] [--pass-pipeline=PIPELINE | --PASS[=OPTIONS] ...] [options]",
        description="Parse StableHLO (mixed-dtype binary ops allowed in the generic form), run a pass "
                    "pipeline that may include implicit-cast, verify and print the result.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=textwrap.fill("Pass flags run in the order given: --implicit-cast --policy max --canonicalize --cse "
                             "is builtin.module(implicit-cast{policy=max},canonicalize,cse). Any MLIR pass jaxlib "
                             "knows can be given as --NAME or --NAME='OPTIONS'.", 100) + "\n\n" + passes_and_policies())
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
    p.add_argument("--mlir-print-ir-before-all", action="store_true",
                   help="print the IR before every pass (to standard error)")
    p.add_argument("--mlir-print-ir-after-all", action="store_true",
                   help="print the IR after every pass (to standard error)")
    p.add_argument("--mlir-print-ir-after-change", action="store_true",
                   help="print the IR after a pass only when the pass changed it")
    p.add_argument("--mlir-print-ir-after-failure", action="store_true",
                   help="print the IR after a pass that failed")
    p.add_argument("--mlir-print-ir-module-scope", action="store_true",
                   help="print the whole module in IR dumps, not just the op the pass ran on")
    p.add_argument("--mlir-print-ir-before", metavar="PASS[,PASS]", action="append", default=[],
                   help="print the IR before these passes (by pipeline name, e.g. implicit-cast,cse)")
    p.add_argument("--mlir-print-ir-after", metavar="PASS[,PASS]", action="append", default=[],
                   help="print the IR after these passes")
    p.add_argument("--mlir-timing", action="store_true",
                   help="print the time each pass took (to standard error)")
    p.add_argument("--dump-pass-pipeline", action="store_true",
                   help="print the pipeline as built, every option spelled out (to standard error)")
    p.add_argument("--verify-each", metavar="BOOL", default="true",
                   help="run the verifier after each pass: true (the default) or false (--verify-each=0)")
    p.add_argument("--list-passes", action="store_true",
                   help="list latticecast's passes and every pass the installed jaxlib registers, with their "
                        "options, and the policies, then exit")
    p.add_argument("--version", action=VersionAction)
    add_verbosity_options(p)
    return p


def passes_and_policies() -> str:
    """latticecast's passes with their options, and the policies: the end of ``--help``, and all
    of ``--list-passes``."""
    from ...passes.options import PASS_OPTIONS
    from ...policies import policies

    lines = ["latticecast's passes:"]
    for options in PASS_OPTIONS:  # not the passes themselves: they load MLIR, which --help does not need
        lines.append(f"  --{options.pass_name}: {options.pass_description}")
        if options.usage():
            lines.append(textwrap.fill(options.usage(), 100, initial_indent="      options: ",
                                       subsequent_indent="        ", break_on_hyphens=False))
    lines.append(textwrap.fill(f"Policies: {', '.join(policies())}", 100))
    return "\n".join(lines)


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
        elif name == "--verify-each":
            if value.lower() not in _BOOLEAN_VALUES:
                raise UsageError(f"--verify-each={value}: the value must be true or false (or 1 or 0)")
            kept.append(f"{name}={'true' if _BOOLEAN_VALUES[value.lower()] else 'false'}")
        elif name in _PASS_LIST_OPTIONS:
            if not eq:
                if i >= len(tokens) or tokens[i].startswith("-"):
                    raise UsageError(f"{name} needs the passes to print around: {name}=PASS[,PASS...]")
                value = argv[i]
                i += 1
            kept.append(f"{name}={value}")
        elif name.startswith("--mlir-"):
            known = sorted(o for o in _FLAG_OPTIONS | _PASS_LIST_OPTIONS if o.startswith("--mlir-"))
            raise UsageError(f"unrecognized option {name} (this tool supports {', '.join(known)})")
        else:
            passes.append(PassFlag(name[2:], value if eq else None))
    return kept, passes


def _pass_names(values: Sequence[str]) -> tuple[str, ...]:
    """``["cse,canonicalize", "implicit-cast"]`` -> ``("cse", "canonicalize", "implicit-cast")``."""
    names = tuple(n.strip() for v in values for n in v.split(","))
    if any(not n for n in names):
        raise UsageError("--mlir-print-ir-before/--mlir-print-ir-after take pass names separated by commas, "
                         "e.g. --mlir-print-ir-after=implicit-cast,cse")
    return names


def _parsed_pipeline(text: str) -> "Pipeline":
    """``--pass-pipeline``'s text, parsed here at the edge (exit 1 when it cannot be, as ``mlir-opt``)."""
    from ...passes.pipeline import Pipeline, PipelineError

    try:
        return Pipeline.parse(text)
    except PipelineError as e:
        raise PipelineError(f"invalid pass pipeline '{text}': {' '.join(str(e).split())}") from None


def _implicit_cast_options(args: argparse.Namespace) -> ImplicitCastOptions:
    """What ``--policy``, ``--policy-file``, ``--diagnose-lossy`` ... set: the options each ``--implicit-cast``
    starts from. The values are read as the pass reads them (a policy file's mistakes are its own, exit 1)."""
    from ...policies.base import Policy

    base = ImplicitCastOptions()
    if args.policy_file is not None:  # the table's own mistakes, located in it (TableFormatError), exit 1
        base = ImplicitCastOptions(policy=Policy.from_table(args.policy_file))
    for key in ("policy", "diagnose-lossy", "diagnose-precision", "report-promotions", "lower-dtypes"):
        value = getattr(args, key.replace("-", "_"))
        if value is not None:
            try:
                base = ImplicitCastOptions.read_option(key, value, base)
            except PassOptionError as e:
                raise PassOptionError(f"--{key} {value}: {e}") from None
    return base


def parse_args(argv: Sequence[str]) -> OptConfig:
    """The configuration for ``argv``; raises :class:`UsageError`, or ``SystemExit(0)`` for
    ``--help``/``--version``."""
    kept, passes = _extract(argv)
    args = build_parser().parse_args(kept)
    if args.policy is not None and args.policy_file is not None:
        raise UsageError("give --policy or --policy-file, not both")
    given = {key: value for key, value in (("policy", args.policy), ("policy-file", args.policy_file),
                                           ("diagnose-lossy", args.diagnose_lossy),
                                           ("diagnose-precision", args.diagnose_precision),
                                           ("report-promotions", args.report_promotions),
                                           ("lower-dtypes", args.lower_dtypes)) if value is not None}
    has_cast = any(p.name == IMPLICIT_CAST for p in passes)
    if args.pass_pipeline is not None and passes:
        raise UsageError("--pass-pipeline cannot be combined with pass flags ("
                         + ", ".join(f"--{p.name}" for p in passes) + "); put every pass in the pipeline")
    if given and not has_cast:
        hint = ("write implicit-cast{policy=...} in the --pass-pipeline" if args.pass_pipeline is not None
                else "add --implicit-cast")
        raise UsageError(f"--{next(iter(given))} is an option of implicit-cast; {hint}")
    pipeline = None
    if args.pass_pipeline is not None:
        pipeline = _parsed_pipeline(args.pass_pipeline)
    elif passes:
        pipeline = compose_pipeline(passes, _implicit_cast_options(args) if given else None)
    printing = IRPrinting(
        before_all=args.mlir_print_ir_before_all, after_all=args.mlir_print_ir_after_all,
        after_change=args.mlir_print_ir_after_change, after_failure=args.mlir_print_ir_after_failure,
        module_scope=args.mlir_print_ir_module_scope,
        before=_pass_names(args.mlir_print_ir_before), after=_pass_names(args.mlir_print_ir_after))
    return OptConfig(
        input=args.input, output=args.output, pipeline=pipeline,
        ir_printing=printing if printing != IRPrinting() else None, timing=args.mlir_timing,
        dump_pass_pipeline=args.dump_pass_pipeline, verify_each=args.verify_each == "true",
        list_passes=args.list_passes, verbosity=verbosity_of(args),
        split_input_file=args.split_input_file, verify_diagnostics=args.verify_diagnostics,
        print_generic=args.mlir_print_op_generic, print_debuginfo=args.mlir_print_debuginfo,
        pretty_debuginfo=args.mlir_pretty_debuginfo, print_local_scope=args.mlir_print_local_scope,
        disable_threading=args.mlir_disable_threading, emit_bytecode=args.emit_bytecode)
