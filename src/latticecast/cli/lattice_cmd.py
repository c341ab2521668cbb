"""``latticecast lattice``: a picture of a policy's promotions (DOT, SVG or PNG).

SVG needs nothing installed: Graphviz lays it out where it is installed, latticecast itself
elsewhere (:mod:`.render_graph`); PNG needs Graphviz.

The picture of a lattice policy is its generating DAG (:meth:`Lattice.hasse_edges`),
which for JAX is the design note's figure; a table policy whose table is a lattice gets
the DAG its audit derives. Every other policy (PyTorch, NumPy, TensorFlow, MAX's
``max.graph``) gets its promotion graph (:mod:`latticecast.promotion.promotion_graph`) over the
common types (or ``--types``): the "promotes to" order, with the refusals and the cells
that break the lattice laws marked.
"""

from __future__ import annotations

import argparse
from typing import Hashable

from ..policies import Policy
from ..promotion.promotion_graph import promotion_graph
from ..promotion.weak import PType, Weak
from .common import EXIT_OK, CliError, add_policy_options, chosen_policy, namer, parse_types, write_output
from .dot import to_dot
from .drawing import Drawing, dag_drawing, promotion_graph_drawing
from .render_graph import ENGINES, RenderUnavailable, render
from .table_diff import default_types

__all__ = ["add_parser", "run", "policy_dag", "policy_picture", "policy_drawing"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("lattice", help="draw a policy's promotion lattice, or its promotion graph",
                       description="Draw the DAG that generates a policy's promotion lattice (its "
                                   "transitive reduction; weak types dashed), or, for a policy whose "
                                   "promotions are not a lattice, its promotion graph with the refusals and "
                                   "the cells that break the lattice laws marked. DOT and SVG need nothing "
                                   "installed (SVG is laid out by Graphviz where it is installed, by "
                                   "latticecast elsewhere); PNG needs the graphviz Python package and "
                                   "Graphviz's dot program.")
    add_policy_options(p)
    p.add_argument("--types", metavar="T1,T2,...", help="draw a promotion graph over these types (default for a "
                                                        "policy that is not a lattice: the common types)")
    p.add_argument("--format", choices=("dot", "svg", "png"), default="dot")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="who lays out an SVG: Graphviz where installed (auto, the default), graphviz, or latticecast")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write to FILE (required for png; dot and svg go to standard output without it)")
    p.set_defaults(handler=run)


def policy_dag(pol: Policy) -> tuple[dict[Hashable, tuple[Hashable, ...]], str] | None:
    """The generating DAG of the policy's lattice and a caption saying where it comes from, or
    ``None`` when the policy's promotions are not a lattice."""
    lattice = pol.lattice
    if lattice is not None:
        return dict(lattice.hasse_edges().items()), f"{pol.title}: promotion lattice"
    report = pol.audit()
    if report.generator is None:
        return None
    return report.generator, f"{pol.title}: the DAG that generates its table"


def policy_drawing(pol: Policy, types: "list[PType] | None" = None) -> Drawing:
    """The policy's picture: its lattice's DAG where it has one (and no ``types`` were asked for),
    else its promotion graph over ``types`` (default: the common types).

    Example:
        >>> from latticecast import policy
        >>> policy_drawing(policy("jax")).title
        'JAX, jax.numpy with jax_enable_x64: promotion lattice'
    """
    dag = policy_dag(pol) if types is None else None
    if dag is not None:
        edges, title = dag
        return dag_drawing(edges, name=pol.name, title=title, label=namer(pol),
                           is_weak=lambda n: isinstance(n, Weak))
    graph = promotion_graph(pol, [pol.canonical(t) for t in (types or default_types(pol))])
    what = "promotion lattice" if graph.is_lattice else "promotion graph (not a lattice)"
    return promotion_graph_drawing(graph, name=pol.name, title=f"{pol.title}: {what}", label=namer(pol),
                                   is_weak=lambda n: isinstance(n, Weak))


def policy_picture(pol: Policy, types: "list[PType] | None") -> str:
    """DOT for :func:`policy_drawing`."""
    return to_dot(policy_drawing(pol, types))


def run(args: argparse.Namespace) -> int:
    pol = chosen_policy(args)
    if args.format == "png" and args.output in (None, "-"):
        raise CliError("--format png writes a binary file: give one with -o FILE")
    types = list(parse_types(args.types, pol)) if args.types is not None else None
    drawing = policy_drawing(pol, types)
    if args.format == "dot":
        write_output(to_dot(drawing), args.output)
        return EXIT_OK
    try:
        data = render(drawing, args.format, args.engine)
    except RenderUnavailable as e:
        raise CliError(str(e)) from None
    write_output(data, args.output)
    return EXIT_OK
