"""DOT text for a promotion DAG, written by hand so that ``--format dot`` needs nothing installed.

The picture is the *generating* DAG (the transitive reduction, as the JAX design
note draws its lattice), with promotion pointing up: ``bool`` at the bottom,
the widest types at the top. Weakly typed nodes are dashed ellipses, dtypes solid
boxes. Node identifiers are ``n0``, ``n1``, ...; labels are quoted and escaped,
so any label (a table file's, too) is safe.

Many sinks below one node (JAX's eleven low-precision floats, each reached only
from ``f*``) would stretch the picture into one long row; such a group is drawn
as a dotted cluster laid out in rows of :data:`GROUP_ROW` (by invisible edges,
which carry no meaning and are marked ``style=invis``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Hashable, Mapping, Sequence

if TYPE_CHECKING:
    from ..promotion_graph import PromotionGraph

__all__ = ["dag_to_dot", "promotion_graph_to_dot", "quote", "GROUP_ROW"]

GROUP_ROW = 4
"""Nodes per row in a cluster of sibling sinks."""
GROUP_MIN = 4
"""The fewest sibling sinks drawn as a cluster."""
NON_LATTICE_SHOWN = 6
"""How many non-lattice cells a promotion graph's caption spells out."""


def quote(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dag_to_dot(edges: Mapping[Hashable, Sequence[Hashable]], *, name: str, title: str,
               label: Callable[[Hashable], str] = str,
               is_weak: Callable[[Hashable], bool] = lambda n: False,
               extra_edges: Sequence[tuple[Hashable, Hashable, str]] = (), notes: Sequence[str] = (),
               filled: "set[Hashable] | frozenset[Hashable]" = frozenset()) -> str:
    """DOT for the DAG ``edges`` (node -> the nodes it promotes to directly); ``extra_edges`` are
    drawn too, each with its DOT attributes, ``notes`` are lines added to the caption, and the
    ``filled`` nodes are filled orange."""
    nodes: list[Hashable] = []
    for src, dsts in edges.items():
        for n in (src, *dsts):
            if n not in nodes:
                nodes.append(n)
    ids = {n: f"n{i}" for i, n in enumerate(nodes)}
    any_weak = any(is_weak(n) for n in nodes)
    caption = "\n".join([title, *notes]) + ("\n(dashed: weakly typed)" if any_weak else "")
    lines = [
        f"digraph {quote(name)} {{",
        "  rankdir=BT;",
        f"  label={quote(caption)};",
        "  labelloc=t;",
        '  fontname="Helvetica";',
        '  node [shape=box, fontname="Helvetica"];',
        '  edge [arrowsize=0.7];',
    ]
    for n in nodes:
        style = ", shape=ellipse, style=dashed" if is_weak(n) else ""
        if n in filled:
            style = (style.replace("style=dashed", 'style="dashed,filled"') if style else ", style=filled") + \
                ", fillcolor=orange"
        lines.append(f"  {ids[n]} [label={quote(label(n))}{style}];")
    for src, dsts in edges.items():
        for d in dsts:
            lines.append(f"  {ids[src]} -> {ids[d]};")
    for a, b, attributes in extra_edges:
        lines.append(f"  {ids[a]} -> {ids[b]} [{attributes}];")
    for i, (parent, group) in enumerate(_sink_groups(edges, nodes)):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(f"    label={quote('only from ' + label(parent))}; style=dotted; fontsize=10;")
        lines.append("    " + " ".join(f"{ids[n]};" for n in group))
        lines.append("  }")
        for a, b in zip(group, group[GROUP_ROW:]):
            lines.append(f"  {ids[a]} -> {ids[b]} [style=invis];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _sink_groups(edges: Mapping[Hashable, Sequence[Hashable]],
                 nodes: Sequence[Hashable]) -> list[tuple[Hashable, list[Hashable]]]:
    """(parent, its children that have no other parent and no edge out), for groups of ``GROUP_MIN``+."""
    parents: dict[Hashable, list[Hashable]] = {n: [] for n in nodes}
    for src, dsts in edges.items():
        for d in dsts:
            parents[d].append(src)
    groups = []
    for src, dsts in edges.items():
        sinks = [d for d in dsts if parents[d] == [src] and not edges.get(d)]
        if len(sinks) >= GROUP_MIN:
            groups.append((src, sinks))
    return groups


def promotion_graph_to_dot(graph: "PromotionGraph", *, name: str, title: str,
                           label: Callable[[Hashable], str] = str,
                           is_weak: Callable[[Hashable], bool] = lambda n: False) -> str:
    """DOT for a policy's "promotes to" graph (:func:`~latticecast.promotion_graph.promotion_graph`):
    the order's transitive reduction as solid edges, refused pairs as dotted red lines, pairs that
    promote to each other as bold red lines, and the results of the cells that break the lattice laws
    filled orange, those cells listed in the caption."""
    extra: list[tuple[Hashable, Hashable, str]] = []
    for a, b in graph.refusals:
        if a != b:
            extra.append((a, b, "dir=none, style=dotted, color=red, constraint=false"))
    for a, b in graph.cycles:
        extra.append((a, b, "dir=both, penwidth=2, color=red, constraint=false"))
    notes = []
    if graph.refusals:
        notes.append("dotted red: no promotion")
    if graph.cycles:
        notes.append("bold red: promote to each other")
    cells = [f"{label(a)} . {label(b)} = {label(r)}" for a, b, r in graph.non_lattice]
    if cells:
        shown = ", ".join(cells[:NON_LATTICE_SHOWN]) + (f", and {len(cells) - NON_LATTICE_SHOWN} more"
                                                          if len(cells) > NON_LATTICE_SHOWN else "")
        notes.append(f"orange: the result of a cell that is not the least type both operands promote to ({shown})")
    covers: dict[Hashable, tuple[Hashable, ...]] = {node: tuple(up) for node, up in graph.covers.items()}
    return dag_to_dot(covers, name=name, title=title, label=label, is_weak=is_weak, extra_edges=extra,
                      notes=notes, filled={r for _, _, r in graph.non_lattice})
