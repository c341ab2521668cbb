"""``latticecast table``: a policy's promotion table, optionally marked against another.

``--vs Q`` marks the cells where the policy differs from policy ``Q`` (as JAX's
docs shade the cells where JAX differs from NumPy); ``--vs seed`` marks those
where it differs from its own published seed tables, which for MAX are exactly
its documented errata.
"""

from __future__ import annotations

import argparse

from ..evidence import evidence
from ..policies import Policy
from ..tables import PromotionTable
from .common import (EXIT_OK, CliError, add_policy_options, chosen_policy, load_policy, namer, parse_types,
                     write_output)
from .compare import Cell, differs_from_policy, differs_from_published

__all__ = ["add_parser", "run"]

FORMATS = ("text", "markdown", "html", "csv")


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("table", help="print a policy's promotion table",
                       description="Print the promotion table of a policy; with --vs, mark the cells "
                                   "that differ from another policy or from the policy's published "
                                   "seed table ('-' is an undefined promotion).")
    add_policy_options(p)
    p.add_argument("--vs", metavar="Q", help="mark cells that differ from policy Q, or from the policy's "
                                             "published seed tables with --vs seed")
    p.add_argument("--types", metavar="T1,T2,...", help="only these types, in this order (any spelling: "
                                                        "i16, int16, s2, bf16, i*, ...)")
    p.add_argument("--notation", choices=("bits", "bytes"), default="bits",
                   help="how --types reads i1, i8, u8: bit counts (default; i8 = int8) or byte "
                        "counts as in JAX's table (i8 = int64)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    pol = chosen_policy(args)
    types = parse_types(args.types, pol, notation=args.notation) if args.types is not None else None
    table = pol.table(types)
    footer = ""
    if args.vs is not None:
        table.marks, against = _marks(pol, table, args.vs)
        footer = _footer(pol, table, against, errata=_is_seed(args.vs))
    text = table.render(args.format, namer(pol))
    if args.format == "text":
        text += footer
    write_output(text, args.output)
    return EXIT_OK


def _is_seed(vs: str) -> bool:
    return vs.strip().lower() == "seed"


def _marks(pol: Policy, table: PromotionTable, vs: str) -> tuple[set[Cell], str]:
    """The differing cells, and a phrase naming what they were compared with."""
    if _is_seed(vs):
        published = evidence(pol).published
        if not published:
            raise CliError(f"policy {pol.name!r} has no published seed table to compare with; "
                           "name another policy with --vs")
        against = next(iter(published)) if len(published) == 1 else f"its {len(published)} published seed tables"
        return differs_from_published(pol, table, published.values()), against
    other = load_policy(vs)
    return differs_from_policy(pol, table, other), f"policy {other.name}"


def _footer(pol: Policy, table: PromotionTable, against: str, *, errata: bool) -> str:
    """One line for the text format: how many cells differ, and (against the policy's own
    published table) how many of those are its documented errata."""
    total = len(table.cells)
    if errata:  # only the cells a published table has were compared
        published = evidence(pol).published.values()
        total = sum(1 for cell in table.cells if any(cell in t.cells for t in published))
    n = len(table.marks)
    if n == 0:
        return f"{pol.name}: no cell of {total} differs from {against}\n"
    line = f"{pol.name}: {n} of {total} cells differ from {against}"
    documented = len(set(evidence(pol).errata) & table.marks) if errata else 0
    if documented:
        if documented == n:
            which = "it is a documented erratum" if n == 1 else f"all {n} are documented errata"
        else:
            which = f"{documented} of them are documented errata"
        line += f"; {which} of the published table (latticecast verify --policy {pol.name} gives the reasons)"
    return line + "\n"
