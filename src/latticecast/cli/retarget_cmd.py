"""``latticecast retarget PROG --from P --to Q [-o OUT] [--run] [--format html]``: a program as another
system would have promoted it.

The program is one that ``P`` wrote; its promotions are lifted out under ``P`` and it is legalised
under ``Q`` (:func:`latticecast.retarget`). The retargeted program goes to ``-o FILE``, or to
standard output when nothing else does. The report (the ops whose dtype differs, with their Python
and MLIR lines) goes to ``--report FILE``, or to standard output when the program does not, else
to standard error. ``--run`` runs both versions on the same inputs (drawn from ``--seed``, or read
from ``--inputs FILE.npz``) through PJRT and adds, per output, the dtypes, shapes and differences,
and the first op where the values differ. Where ``Q`` refuses an op, each refusal is an error at
its line (``file:line:col: error: ...``, the source line, a caret) and the exit code is 1.
"""

from __future__ import annotations

import argparse
import sys

from ..dialect_utils.diagnostics import Diagnostic, caret_under, read_source_line
from .common import EXIT_OK, EXIT_PROPERTY_FAILS, load_policy, read_input, write_output

__all__ = ["add_parser", "run"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("retarget", help="a program as another policy would have promoted it",
                       description="Lift the promotions the policy --from wrote into an MLIR program "
                                   "(lift-implicit-casts), legalise it under --to, and report every op whose dtype "
                                   "differs; with --run, run both versions on the same inputs and compare them.")
    p.add_argument("input", metavar="PROG", help="an MLIR file (text, bytecode or a portable artifact); '-' for stdin")
    p.add_argument("--from", dest="from_", metavar="P", required=True,
                   help="the policy that wrote the program (jax, jax-x32, torch, ...)")
    p.add_argument("--to", metavar="Q", required=True, help="the policy to retarget it to")
    p.add_argument("-o", "--output", metavar="FILE", help="write the retargeted program to FILE")
    p.add_argument("--run", action="store_true",
                   help="run both versions on the same inputs through PJRT and compare their outputs")
    p.add_argument("--inputs", metavar="NPZ", help="the inputs of @main for --run (numpy.savez(path, *arrays)); "
                                                   "default: drawn from --seed")
    p.add_argument("--seed", type=int, default=0, help="the seed of the drawn inputs (default 0)")
    p.add_argument("--format", choices=("text", "html"), default="text", help="the report as text or one HTML page")
    p.add_argument("--report", metavar="FILE", help="write the report to FILE")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..retargeting import retarget
    from ..retargeting.report import build_report
    from ..retargeting.run import read_inputs
    from .compare_cmd import render
    from .progress import stages

    source, target = load_policy(args.from_), load_policy(args.to)
    # a big module takes seconds: a bar of the stages (after DELAY s), each timed with -v
    with stages("retarget", ["reading", "retargeting", *(["running"] if args.run else []), "writing"]) as job:
        job.step("reading")
        data, name = read_input(args.input)
        job.step("retargeting")
        r = retarget(data, from_=source, to=target, source_name=name)
        numbers = None
        if args.run:
            job.step("running")
            if not r.errors:
                numbers = r.run(read_inputs(args.inputs) if args.inputs else None, seed=args.seed)
        job.step("writing")
        report = build_report(r.comparison, r.lifted, r.text, name, lifted=r.lift, run=numbers, errors=r.errors)
        if args.run and r.errors:
            report.notes.append(f"not run: '{target.name}' refuses the program, so it has no version to run")
        program_to_stdout = args.output is None and not args.run and args.format == "text"
        if not r.errors and (args.output is not None or program_to_stdout):
            write_output(str(r.module), args.output)
        text = render(report, args.format)
        if args.report is not None:
            write_output(text, args.report)
        elif program_to_stdout:
            sys.stderr.write(text)
        else:
            write_output(text, None)
    for d in r.errors:
        for line in _with_source(d, r.text, name):
            print(line, file=sys.stderr)
    return EXIT_PROPERTY_FAILS if r.errors else EXIT_OK


def _with_source(d: Diagnostic, text: str | None, name: str) -> list[str]:
    """``file:line:col: error: ...`` with the line it points at and a caret: a line of the MLIR text, or
    of the Python file a frontend's location names."""
    if text is not None and d.file == name:
        return d.source_lines(text, name)
    lines = [d.format()]
    row = read_source_line(d.file, d.line)
    if row:  # a frontend's Python location: JAX records Python's 0-based column offset
        lines += caret_under(row, d.col + 1)
    return lines
