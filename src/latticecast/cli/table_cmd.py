"""``latticecast table``: a policy's promotion table, optionally marked against another.

``--vs Q`` shows the cells where the policy differs from policy ``Q`` with both results
(as JAX's docs shade the cells where JAX differs from NumPy); ``--vs seed`` compares with the
policy's own published seed tables, whose differences for MAX are exactly its documented errata.
``--only-diffs`` lists the differing pairs alone, and ``--format html`` writes a standalone page
(:mod:`latticecast.cli.table_diff`, :mod:`latticecast.cli.html_page`). Without ``--types`` a
comparison shows the common types (:data:`~latticecast.cli.table_diff.COMMON_TYPES`; ``--types all``
shows every one), and a policy's own table all of its types, in the CSV format ``--policy-file``
reads back.

Every flag means the same in every format: ``--types`` chooses the rows and columns,
``--only-diffs`` keeps the differing pairs only (the list, in text and on the page), and ``--wide``
spells types as the policy does in one unbroken grid where the text otherwise fits the terminal
in bands of short codes with a legend (:mod:`latticecast.cli.table_view`).
"""

from __future__ import annotations

import argparse
from typing import Callable

from typing import Hashable

from ..evidence import evidence
from ..policies import Policy
from ..promotion.promotion_graph import promotion_graph
from ..promotion.tables import UNDEFINED, PromotionTable
from ..promotion.weak import PType, Weak, as_ptype
from .common import (EXIT_OK, CliError, add_policy_options, chosen_policy, load_policy, namer, parse_types,
                     write_output)
from . import html_page as hp
from .compare import Cell, as_other_reads_it, differs_from_policy, differs_from_published
from .drawing import diff_drawing, promotion_graph_drawing
from .lattice_cmd import policy_drawing
from .render_graph import svg
from .table_diff import TableDiff, default_types, fitted_width, terminal_width
from .table_view import grid_of, html_grid, render_text

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
    p.add_argument("--only-diffs", action="store_true", dest="only_diffs",
                   help="with --vs: list only the pairs that differ (pair, this policy's result, the other's)")
    p.add_argument("--types", metavar="T1,T2,...", help="only these types, in this order (any spelling: "
                                                        "i16, int16, s2, bf16, i*, ...); 'all' for every type "
                                                        "(default: every type; with --vs the common types and "
                                                        "the weak ones)")
    p.add_argument("--notation", choices=("bits", "bytes"), default="bits",
                   help="how --types reads i1, i8, u8: bit counts (default; i8 = int8) or byte "
                        "counts as in JAX's table (i8 = int64)")
    p.add_argument("--wide", action="store_true",
                   help="spell types as the policy does, in one unbroken grid however wide (by default the text "
                        "fits the terminal, or 100 columns, in bands of short codes with a legend)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    pol = chosen_policy(args)
    if args.types is None:  # a comparison with a policy shows the common types; other tables all types
        compared = args.vs is not None and not _is_seed(args.vs)
        types: list[PType] | None = (default_types(pol) or None) if compared else None
    elif args.types.strip().lower() == "all":
        types = None
    else:
        types = list(parse_types(args.types, pol, notation=args.notation))
    table = pol.table(types)
    to_file = args.output not in (None, "-")
    if args.vs is None:
        if args.only_diffs:
            raise CliError("--only-diffs lists the cells that differ from another policy: give --vs Q too")
        write_output(_own_table(pol, table, args.format, args.wide, to_file,
                                types if args.types is not None else None), args.output)
        return EXIT_OK
    table.marks, against = _marks(pol, table, args.vs)
    diff = _diff(pol, table, args.vs)
    if args.format == "html":
        text = diff.html(_pictures(pol, args.vs, list(table.rows), only_diffs=args.only_diffs),
                         only_diffs=args.only_diffs)
    elif args.only_diffs:
        text = diff.diffs(args.format)
    elif args.format == "csv":
        text = diff.csv()
    elif args.format == "markdown":
        text = diff.markdown()
    else:
        text = diff.wide_text(None if to_file else terminal_width()) if args.wide else diff.text(fitted_width(to_file))
    if args.format == "text" and not args.only_diffs:
        text += _footer(pol, table, against, errata=_is_seed(args.vs))
    write_output(text, args.output)
    return EXIT_OK


def _own_table(pol: Policy, table: PromotionTable, fmt: str, wide: bool, to_file: bool,
               types: "list[PType] | None") -> str:
    """A policy's own table in ``fmt``: text in bands with a legend (one grid with ``wide``), or a page."""
    name = namer(pol)
    if fmt == "text":
        return table.render("text", name) if wide else render_text(grid_of(table, name), fitted_width(to_file))
    if fmt != "html":
        return table.render(fmt, name)
    grid = grid_of(table, name, short=not wide, explain=_explainer(pol, None))
    refused = sum(v is None for v in table.cells.values())
    summary = (f"{hp.escape(pol.title)}. Source: {hp.escape(pol.source)}. A cell is the promotion of its row "
               f"(the left operand) and its column; {refused} of {len(table.cells)} pairs are refused. Hover a cell "
               "for the reason.")
    key = hp.legend([("same", "i16", "the promoted type"), ("undef", "-", "refused")], grid.codes, grid.notes)
    drawing = policy_drawing(pol, types)
    body = [key, hp.row(hp.section("Every pair", html_grid(grid, "table")), hp.figure(drawing.title, svg(drawing)))]
    return hp.page(f"{pol.name}: type promotion table", body, summary=summary)


def _diff(pol: Policy, table: PromotionTable, vs: str) -> TableDiff:
    """The comparison: the other side's result for every cell, spelled by the other side."""
    name = namer(pol)
    other_cells: dict[Cell, str] = {}
    if _is_seed(vs):
        published = list(evidence(pol).published.values())
        for cell in table.cells:
            value = next((t.cells[cell] for t in published if cell in t.cells), UNDEFINED)
            other_cells[cell] = UNDEFINED if value is None else name(value)
        return TableDiff(table, pol.name, "seed", other_cells, name, _explainer(pol, None))
    other = load_policy(vs)
    other_name = namer(other)
    for a, b in table.cells:
        result = other.try_promote(as_other_reads_it(other, a), as_other_reads_it(other, b)) \
            if _knows(other, a) and _knows(other, b) else None
        other_cells[(a, b)] = UNDEFINED if result is None else other_name(result)
    return TableDiff(table, pol.name, other.name, other_cells, name, _explainer(pol, other))


def _knows(pol: Policy, t: Hashable) -> bool:
    try:
        pol.canonical(as_ptype(t))
    except (ValueError, TypeError, LookupError):
        return False
    return True


def _explainer(pol: Policy, other: Policy | None) -> "Callable[[Hashable, Hashable], str]":
    """A cell's tooltip: ``explain`` under both policies (one where there is no other policy)."""
    def explain(a: Hashable, b: Hashable) -> str:
        parts = []
        for p in (pol, other):
            if p is None:
                continue
            try:
                parts.append(p.explain(as_ptype(a), as_ptype(b)).strip())
            except Exception as e:  # noqa: BLE001 - a type the other policy lacks: say so in the tooltip
                parts.append(f"{p.name}: {e}")
        return "\n\n".join(parts)
    return explain


def _pictures(pol: Policy, vs: str, types: list[Hashable], *, only_diffs: bool = False) -> list[tuple[str, str]]:
    """The pictures of a comparison page: the two policies' direct promotions in one picture, then
    each policy's promotion graph over the table's types (only the first with ``only_diffs``; only the
    policy's own against a seed table). SVG by Graphviz where installed, else by latticecast."""
    out = []
    if not _is_seed(vs):
        both = diff_drawing(pol, load_policy(vs), types)
        out.append((f"{pol.name} vs {load_policy(vs).name}: direct promotions", svg(both)))
        if only_diffs:
            return out
    policies = [pol] if _is_seed(vs) else [pol, load_policy(vs)]
    for p in policies:
        shown = [p.canonical(as_ptype(t)) for t in types if _knows(p, t)]
        graph = promotion_graph(p, shown)
        kind = "promotion lattice" if graph.is_lattice else "promotion graph"
        drawing = promotion_graph_drawing(graph, name=p.name, title=f"{p.title}: {kind}", label=namer(p),
                                          is_weak=lambda n: isinstance(n, Weak))
        out.append((f"{p.name}: {kind}", svg(drawing)))
    return out


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
