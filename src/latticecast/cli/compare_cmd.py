"""``latticecast compare PROG --vs Q [--from P | --policy P]``: a program under two promotion policies.

With ``--from P`` the program is one that ``P`` wrote (JAX's ``lowered.as_text()``, torch-mlir's
output): its promotions are taken out first (``lift-implicit-casts`` under ``P``), then every op's
result type is decided under ``P`` and ``Q`` (:mod:`latticecast.passes.infer_types`). Without it, the
program must hold mixed-dtype ops (the generic form ``latticecast-opt`` reads): a legalised program
has nothing left for a policy to decide, and the command says so instead of reporting no difference.
Each op whose dtype differs, or that a policy refuses, is listed with the Python line its frontend
recorded (JAX's ``loc``: ``lowered.as_text(debug_info=True)``) and its MLIR line; then the function
outputs that change. ``--format html`` writes the same as one page (:mod:`latticecast.cli.report_page`).
"""

from __future__ import annotations

import argparse

from ..dialect_utils.context import make_context
from ..dialect_utils.parsing import parse_module
from ..passes import LiftOptions, run_lift
from ..passes.infer_types import Program, compare
from .common import EXIT_OK, CliError, add_policy_options, chosen_policy, load_policy, read_input, write_output
from .progress import stages

__all__ = ["add_parser", "run"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("compare", help="a program's dtypes under two policies",
                       description="Decide every op's result type of an MLIR program under two policies and list "
                                   "the ops whose dtype differs or that a policy refuses, with their Python and MLIR "
                                   "lines, and the function outputs that change. A program a frontend wrote (JAX, "
                                   "torch-mlir) has its promotions written as converts already: name that frontend's "
                                   "policy with --from to lift them out first.")
    p.add_argument("input", metavar="PROG", help="an MLIR file (text, bytecode or a portable artifact); '-' for stdin")
    add_policy_options(p)
    p.add_argument("--from", dest="from_", metavar="P",
                   help="the policy that wrote the program (jax, jax-x32, torch, ...): lift its promotions out "
                        "(lift-implicit-casts) and compare P with --vs")
    p.add_argument("--vs", metavar="Q", required=True, help="the policy to compare with")
    p.add_argument("--format", choices=("text", "html"), default="text", help="text (default) or one HTML page")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..retargeting.report import build_report

    if args.from_ is not None:
        if args.policy_file is not None or (args.policy is not None and args.policy != args.from_):
            raise CliError("give the policy once: --from names the policy that wrote the program, and it is the one "
                           "compared with --vs (drop --policy)")
        pol = load_policy(args.from_)
    else:
        pol = chosen_policy(args)
    other = load_policy(args.vs)
    # a big module takes seconds: a bar of the stages (after DELAY s), each timed with -v
    steps = ["reading", "parsing"] + (["lifting"] if args.from_ is not None else []) + ["inferring", "writing"]
    with stages("compare", steps) as job:
        job.step("reading")
        data, name = read_input(args.input)
        job.step("parsing")
        module = parse_module(data, make_context(lenient=True), lenient=True, source_name=name)
        text = data if isinstance(data, str) else None
        lifted = None
        if args.from_ is not None:
            job.step("lifting")
            lifted = run_lift(module, LiftOptions(policy=pol))
            program = lifted.program or Program(module, lifted.sites)
        else:
            program = Program(module)
            if not program.mixed:
                raise CliError(
                    f"{name}: no op has mixed-dtype or weak operands: the program's promotions are already written "
                    f"as stablehlo.convert ops (it has been legalised), so '{pol.name}' and '{other.name}' have "
                    f"nothing left to decide and no difference could be seen. Name the policy that wrote it with "
                    f"--from (--from jax for JAX's output, --from torch for torch-mlir's) to lift its promotions "
                    f"first")
        job.step("inferring")
        comparison = compare(program, pol, other)
        report = build_report(comparison, module, text, name, lifted=lifted)
        if lifted is not None and not program.mixed:
            report.unjudged = (
                f"{name}: lift-implicit-casts found no promotion of '{pol.name}' to take out: every convert there "
                f"is one '{pol.name}''s implicit-cast would not write (the author's, or of a kind lift does not "
                f"read), so nothing is left for '{pol.name}' and '{other.name}' to decide and nothing was compared")
        job.step("writing")
        write_output(render(report, args.format), args.output)
    return EXIT_OK


def render(report: "object", form: str) -> str:
    """The report as text or as one HTML page."""
    from .report_page import render_html
    from ..retargeting.report import Report, render_text

    assert isinstance(report, Report)
    return render_html(report) if form == "html" else render_text(report)
