"""``latticecast lattice``: a picture of a policy's promotion lattice (DOT, SVG or PNG).

The picture is the generating DAG (:meth:`Lattice.hasse_edges`), which for JAX
is the design note's figure. A policy defined by a table rather than a lattice
(NumPy) gets the DAG its audit derives, when its table is a lattice; when it is
not, there is nothing truthful to draw, and we say why.
"""

from __future__ import annotations

import argparse
from typing import Hashable

from ..policies import Policy
from ..weak import Weak, as_ptype
from .common import EXIT_OK, CliError, add_policy_options, chosen_policy, namer, write_output
from .dot import dag_to_dot
from .render_graph import RenderUnavailable, render

__all__ = ["add_parser", "run", "policy_dag"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("lattice", help="draw a policy's promotion lattice",
                       description="Draw the DAG that generates a policy's promotion lattice (its "
                                   "transitive reduction; weak types dashed). DOT needs nothing "
                                   "installed; SVG and PNG need the graphviz Python package and "
                                   "Graphviz's dot program.")
    add_policy_options(p)
    p.add_argument("--format", choices=("dot", "svg", "png"), default="dot")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (required for png; dot and svg go to standard output without it)")
    p.set_defaults(handler=run)


def policy_dag(pol: Policy) -> tuple[dict[Hashable, tuple[Hashable, ...]], str]:
    """The generating DAG of the policy's lattice, and a caption saying where it comes from."""
    lattice = pol.lattice
    if lattice is not None:
        return dict(lattice.hasse_edges().items()), f"{pol.title}: promotion lattice"
    report = pol.audit()
    if report.generator is None:
        texts = report.problem_texts(lambda t: pol.type_name(as_ptype(t)))
        why = texts[0] if texts else "its table fails the lattice laws"
        if not report.associative:
            why = (f"it is not associative ({report.non_associative} of {report.triples} triples); "
                   + why)
        audit_it = f"audit --policy-file {path}" if (path := getattr(pol, "table_path", None)) else \
            f"verify --policy {pol.name}"
        raise CliError(f"policy {pol.name!r} has no promotion lattice to draw: its table is not a "
                       f"lattice ({why}); latticecast {audit_it} shows the audit")
    return report.generator, f"{pol.title}: the DAG that generates its table"


def run(args: argparse.Namespace) -> int:
    pol = chosen_policy(args)
    if args.format == "png" and args.output in (None, "-"):
        raise CliError("--format png writes a binary file: give one with -o FILE")
    edges, title = policy_dag(pol)
    text = dag_to_dot(edges, name=pol.name, title=title, label=namer(pol),
                      is_weak=lambda n: isinstance(n, Weak))
    if args.format == "dot":
        write_output(text, args.output)
        return EXIT_OK
    try:
        data = render(text, args.format)
    except RenderUnavailable as e:
        raise CliError(str(e)) from None
    write_output(data, args.output)
    return EXIT_OK
