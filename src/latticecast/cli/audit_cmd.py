"""``latticecast audit FILE``: the lattice laws, checked on a promotion table from a file.

The exit code answers "is this table a (partial) lattice?" as ``verify``'s does: 0 yes, 1 no
(the report says which law fails), 2 for a file that cannot be read.

Labels need not be dtypes: any square CSV or markdown table can be audited. When
every label does parse as a type (in the notation the file declares with a
``# notation: bytes`` comment, or that ``--notation`` gives), the labels are read
as types, so that two spellings of one type in one file (``int16`` in the header,
``i16`` in a cell) are one element; the report still uses the header's spelling.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Callable, Hashable, cast

from ..promotion.audit import AuditReport, audit
from ..promotion.dtypes import UnknownDTypeError
from ..promotion.tables import PromotionTable
from ..promotion.weak import PType, parse_ptype, ptype_name
from ..policies import Policy
from .common import EXIT_OK, EXIT_PROPERTY_FAILS, CliError, write_output
from .progress import reporter
from .common import namer as policy_namer

__all__ = ["add_parser", "run", "read_table", "report_json"]

Namer = Callable[[Hashable], str]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("audit", help="audit a promotion table from a CSV or markdown file; exit 1 if it is not "
                                     "a lattice",
                       description="Check a promotion table for commutativity, associativity and "
                                   "whether a lattice generates it. The first row names the columns, "
                                   "the first column the rows; '-' marks an undefined promotion; "
                                   "lines starting with # are comments. Exit code 0 when the table is a "
                                   "(partial) lattice, 1 when it is not (as verify), 2 when it cannot be read.")
    p.add_argument("file", nargs="?", help="a .csv or markdown table")
    p.add_argument("--policy-file", metavar="CSV", dest="policy_file",
                   help="audit the policy this CSV promotion table defines instead (checked as --policy-file "
                        "is everywhere: type names, square, symmetric)")
    p.add_argument("--notation", choices=("bits", "bytes"), default=None,
                   help="how dtype codes i1, i8, u8 are read: bit counts (i8 = int8) or byte counts "
                        "(i8 = int64, JAX's table); default: the file's '# notation:' comment, else bits")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run, audit_parser=p)


def run(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.policy_file is None):  # argparse's usage error (exit 2), as before
        args.audit_parser.error("give FILE or --policy-file CSV (one of them)")
    if args.policy_file is not None:
        pol = Policy.from_table(args.policy_file)
        table, namer = pol.table(), policy_namer(pol)
        source = args.policy_file
    else:
        table, namer = read_table(args.file, args.notation)
        source = args.file
    with reporter("audit") as progress:  # a bar per stage once the audit takes DELAY seconds (tqdm)
        report = audit(table, progress=progress)
    if args.format == "json":
        write_output(json.dumps(report_json(report, namer, source=source), indent=2) + "\n", None)
    else:
        write_output(report.summary(namer), None)
    return EXIT_OK if report.is_lattice else EXIT_PROPERTY_FAILS


def read_table(path: str, notation: str | None = None) -> tuple[PromotionTable, Namer]:
    """The table in ``path``, square, with labels read as types where they all are types."""
    table = PromotionTable.read(path)  # TableFormatError names file:line
    table = _squared(table, path)
    if notation is None:
        notation = "bytes" if "notation: bytes" in Path(path).read_text(encoding="utf-8") else "bits"
    typed = _as_types(table, notation)
    if typed is None:
        return table, str
    spelled: dict[Hashable, str] = {}
    for label in table.rows:
        spelled.setdefault(parse_ptype(str(label), notation=notation), str(label))
    return typed, lambda t: spelled.get(t) or ptype_name(cast(PType, t))


def _squared(table: PromotionTable, path: str) -> PromotionTable:
    """Rows in the columns' order when they name the same types; else a usage error."""
    if table.is_square:
        return table
    if len(table.rows) == len(table.columns) and set(table.rows) == set(table.columns):
        return table.subtable(table.columns)
    only_rows = [r for r in table.rows if r not in table.columns]
    only_cols = [c for c in table.columns if c not in table.rows]
    detail = "; ".join(part for part in (
        f"rows only: {', '.join(map(str, only_rows))}" if only_rows else "",
        f"columns only: {', '.join(map(str, only_cols))}" if only_cols else "") if part)
    raise CliError(f"{path}: the table is not square ({len(table.rows)} rows, {len(table.columns)} "
                   f"columns; {detail}): the lattice laws need the same types as rows and columns")


def _as_types(table: PromotionTable, notation: str) -> PromotionTable | None:
    """The table over types, or ``None`` when some label is not a type or two labels are one type."""
    try:
        typed = table.map_labels(lambda x: parse_ptype(str(x), notation=notation))
    except UnknownDTypeError:
        return None
    if len(set(typed.rows)) != len(table.rows):
        return None
    return typed


def report_json(report: AuditReport, namer: Namer, *, source: str) -> dict[str, object]:
    """The audit as plain data, for scripts: every verdict, its counts and its examples."""
    def n(x: Hashable | None) -> str | None:
        return None if x is None else namer(x)

    k = len(report.labels)
    return {
        "file": source,
        "table": report.name,
        "types": [n(x) for x in report.labels],
        "cells": k * k,
        "defined_cells": k * k - len(report.undefined),
        "complete": report.is_complete,
        "commutative": report.commutative,
        "non_commutative": [{"a": n(a), "b": n(b), "a.b": n(ab), "b.a": n(ba)}
                            for a, b, ab, ba in report.non_commutative],
        "idempotent": report.idempotent,
        "non_idempotent": [{"a": n(a), "a.a": n(r)} for a, r in report.non_idempotent],
        "closed": not report.not_closed,
        "not_closed": [{"a": n(a), "b": n(b), "a.b": n(r)} for a, b, r in report.not_closed],
        "associative": report.associative,
        "triples": report.triples,
        "non_associative_triples": report.non_associative,
        "associativity_examples": [{"a": n(a), "b": n(b), "c": n(c), "(a.b).c": n(left), "a.(b.c)": n(right)}
                                   for a, b, c, left, right in report.associativity_examples],
        "lattice": report.is_lattice,
        "lattice_problems": report.problem_texts(n),
        "generator": None if report.generator is None else
        {n(src): [n(d) for d in dsts] for src, dsts in report.generator.items()},
    }
