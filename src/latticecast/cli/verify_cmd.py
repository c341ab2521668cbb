"""``latticecast verify``: is this policy a lattice, and are its published tables?

Audits the policy's full table (weak types included) and each of its published
seed tables, and states per table, in plain words, whether it is commutative,
associative (with the count of failing triples) and a lattice. The exit code
answers the question scripts ask, "is this policy a (partial) lattice?": 0 yes,
1 no. Where the policy deliberately departs from its published table
(:class:`latticecast.evidence.Evidence`), each such cell is listed with the reason, so a reader
can check the departure against the seed.
"""

from __future__ import annotations

import argparse
from typing import cast

from ..promotion.audit import AuditReport, audit
from ..evidence import evidence
from ..policies import Policy
from ..promotion.tables import PromotionTable
from ..promotion.weak import PType
from .common import EXIT_OK, EXIT_PROPERTY_FAILS, load_policy, namer, write_output
from .compare import same_result

__all__ = ["add_parser", "run", "verdict"]

MAX_LISTED = 10


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("verify", help="audit a policy and its published tables; exit 1 if it is not a lattice",
                       description="Audit a policy's full promotion table and each of its published seed "
                                   "tables: commutativity, associativity, lattice. Exit code 0 when the "
                                   "policy is a (partial) lattice, 1 when it is not.")
    p.add_argument("--policy", default="jax", help="the policy (default: jax)")
    p.set_defaults(handler=run)


def verdict(report: AuditReport) -> str:
    """One line: commutative, associative (with the count), lattice."""
    comm = "yes" if report.commutative else f"no ({len(report.non_commutative)} pairs with a.b != b.a)"
    assoc = ("yes" if report.associative
             else f"no ({report.non_associative} of {report.triples} triples fail)")
    if report.is_lattice:
        lat = "yes" if report.is_complete else "yes (a partial lattice: some pairs have no promotion)"
    else:
        lat = "no"
    return f"commutative: {comm}; associative: {assoc}; lattice: {lat}"


def run(args: argparse.Namespace) -> int:
    pol = load_policy(args.policy)
    out: list[str] = [f"verify policy {pol.name} ({pol.title})", ""]
    report = pol.audit()
    n_weak = len(pol.types) - len(pol.dtypes)
    all_types = f"all {len(pol.types)} types" + (f", the {n_weak} weak types included" if n_weak else "")
    out += [f"== the policy's promotion table ({all_types}) ==", report.summary(namer(pol)).rstrip(),
            f"=> {verdict(report)}"]
    scope = pol.lattice_scope
    is_lattice = report.is_lattice
    if tuple(scope) != tuple(pol.types):
        # Python scalars follow a rule outside the lattice (MAX, the Array API): judge the lattice
        # on the types it is defined over, and show the scalar rule's table for what it is.
        scoped = audit(pol.table(scope))
        is_lattice = scoped.is_lattice
        out += ["", f"== the lattice: the policy's {len(scope)} dtypes, without Python scalars ==",
                scoped.summary(namer(pol)).rstrip(), f"=> {verdict(scoped)}",
                f"   Python scalars ({', '.join(namer(pol)(w) for w in pol.weak_types)}) are not lattice "
                f"nodes in {pol.name}: a scalar takes the dtype of the value it meets, and two scalars "
                "do not promote; the full table above shows that rule"]
    elif n_weak and not report.is_lattice:
        # Say whether the dtypes are the problem or the rules for weak values.
        strong = audit(pol.table(pol.dtypes))
        out.append(f"   its {len(pol.dtypes)} dtypes alone (no weak types): {verdict(strong)}")
    ev = evidence(pol)
    if not ev.published:
        out += ["", f"(policy {pol.name} has no published seed table)"]
    for kind, tables, documented, what in (("published", ev.published, ev.errata, "documented errata"),
                                          ("measured", ev.measured, ev.known_gaps, "known gaps")):
        for title, table in tables.items():
            out += ["", f"== {kind}: {title} =="]
            if table.is_square:
                seed_report = audit(table)
                out += [seed_report.summary(namer(pol)).rstrip(), f"=> {verdict(seed_report)}"]
            else:
                out.append(f"   ({len(table.rows)} rows x {len(table.columns)} columns of different types: "
                           "no lattice laws to check; compared cell by cell)")
            out += _departures(pol, table, documented, what)
    out += ["", f"result: policy {pol.name} " + ("is a (partial) lattice" if is_lattice
                                                  else "is NOT a (partial) lattice")]
    write_output("\n".join(out) + "\n", None)
    return EXIT_OK if is_lattice else EXIT_PROPERTY_FAILS


def _departures(pol: Policy, table: PromotionTable, errata: "dict[tuple[PType, PType], str]",
                what: str = "documented errata") -> list[str]:
    """Where the policy answers differently from a published (or measured) table, with the reasons
    of the documented cells (``errata``: the errata of a published table, the known gaps of a
    measured one).

    A cell where only weakness differs (the policy keeps anvil's ambiguous ``i8?``
    where the table prints ``i8``) gives the same dtype in the end, but weakness
    is what decides associativity, so such cells are counted separately.
    """
    name = namer(pol)
    differ, weak_only = [], []
    for (ra, rb), cell in table.cells.items():
        # a policy's published tables are typed: their labels and cells are the policy's types
        a, b, published = cast(PType, ra), cast(PType, rb), cast("PType | None", cell)
        mine = pol.try_promote(a, b)
        if not same_result(mine, published, pol, pol):
            differ.append((a, b, published, mine))
        elif mine != published:
            weak_only.append((a, b, published, mine))
    total = len(table.cells)
    lines: list[str] = []
    if not differ:
        lines.append(f"   the policy gives the same dtype as this table in all {total} cells")
    else:
        documented = sum(1 for a, b, _, _ in differ if (a, b) in errata)
        head = f"   the policy differs from this table in {len(differ)} of {total} cells"
        if documented == len(differ):
            head += f", all {what}:"
        elif documented:
            head += f", {documented} of them {what}:"
        else:
            head += ":"
        lines.append(head)
        for a, b, published, mine in differ[:MAX_LISTED]:
            line = f"     {name(a)} . {name(b)}: published {name(published)}, policy {name(mine)}"
            if (a, b) in errata:
                line += f" ({'erratum' if what == 'documented errata' else 'known gap'}: {errata[(a, b)]})"
            lines.append(line)
        if len(differ) > MAX_LISTED:
            lines.append(f"     ... and {len(differ) - MAX_LISTED} more")
    if weak_only:
        a, b, published, mine = weak_only[0]
        lines.append(f"   in {len(weak_only)} cells only weakness differs, the dtype is the same (e.g. "
                     f"{name(a)} . {name(b)}: published {name(published)}, policy {name(mine)})")
    return lines
