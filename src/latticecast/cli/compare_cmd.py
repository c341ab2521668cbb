"""``latticecast compare PROG.mlir --policy P --vs Q``: a program under two promotion policies.

Every op's result type is inferred again under each policy (:mod:`latticecast.passes.infer_types`),
through the whole program (regions and calls included), and the ops whose dtype differs are listed
with their locations, then the function outputs that change. The input may hold mixed-dtype ops in
the generic form, as ``latticecast-opt`` reads it; a program JAX or torch-mlir wrote is read as is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..dialect_utils.parsing import parse_module
from ..passes.infer_types import compare
from .common import EXIT_OK, CliError, add_policy_options, chosen_policy, load_policy, write_output
from .progress import stages

__all__ = ["add_parser", "run"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("compare", help="a program's dtypes under two policies",
                       description="Infer every op's result type of an MLIR program under two policies and "
                                   "list the ops whose dtype differs, with their locations, and the function "
                                   "outputs that change.")
    p.add_argument("input", metavar="PROG", help="an MLIR file (text, bytecode or a portable artifact); '-' for stdin")
    add_policy_options(p)
    p.add_argument("--vs", metavar="Q", required=True, help="the policy to compare with")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    pol, other = chosen_policy(args), load_policy(args.vs)
    # a big module takes seconds: a bar of the stages (after DELAY s), each timed with -v
    with stages("compare", ["reading", "parsing", "inferring", "writing"]) as job:
        job.step("reading")
        if args.input == "-":
            import sys

            data, name = sys.stdin.buffer.read(), "<stdin>"
        else:
            try:
                data, name = Path(args.input).read_bytes(), args.input
            except OSError as e:
                raise CliError(f"cannot read {args.input}: {e.strerror or e}") from None
        job.step("parsing")
        module = parse_module(data, lenient=True, source_name=name)
        job.step("inferring")
        text = compare(module, pol, other).render()
        job.step("writing")
        write_output(text, args.output)
    return EXIT_OK
