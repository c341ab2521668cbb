"""DOT text for a :class:`~.drawing.Drawing`, written by hand so that ``--format dot`` needs nothing installed.

The picture is the *generating* DAG (the transitive reduction, as the JAX design note draws
its lattice), with promotion pointing up (``rankdir=BT``). Node identifiers are the drawing's
(``n0``, ``n1``, ...); labels are quoted and escaped, so any label (a table file's, too) is
safe. A group of sibling sinks is a dotted cluster laid out in rows of
:data:`~.drawing.GROUP_ROW` by invisible edges, which carry no meaning (``style=invis``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Hashable, Mapping, Sequence

from .drawing import GROUP_ROW, Drawing, dag_drawing, promotion_graph_drawing

if TYPE_CHECKING:
    from ..promotion.promotion_graph import PromotionGraph

__all__ = ["to_dot", "dag_to_dot", "promotion_graph_to_dot", "quote", "GROUP_ROW", "EDGE_ATTRIBUTES"]

EDGE_ATTRIBUTES = {
    "cover": "",
    "refusal": "dir=none, style=dotted, color=red, constraint=false",
    "cycle": "dir=both, penwidth=2, color=red, constraint=false",
    "this": "color=darkorange, penwidth=2",
    "other": "color=blue, style=dashed, penwidth=2",
}
"""How each edge kind (:data:`~.drawing.EDGE_KINDS`) is drawn by Graphviz."""


def quote(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(drawing: Drawing) -> str:
    """The drawing as a DOT ``digraph``."""
    lines = [
        f"digraph {quote(drawing.name)} {{",
        "  rankdir=BT;",
        f"  label={quote(chr(10).join(drawing.caption))};",
        "  labelloc=t;",
        '  fontname="Helvetica";',
        '  node [shape=box, fontname="Helvetica"];',
        '  edge [arrowsize=0.7];',
    ]
    for n in drawing.nodes:
        styles = (["dashed"] if n.weak else []) + (["filled"] if n.filled or n.only else [])
        attrs = [f"label={quote(n.label)}"] + (["shape=ellipse"] if n.weak else [])
        if styles:
            attrs.append(f"style={quote(','.join(styles)) if len(styles) > 1 else styles[0]}")
        if n.filled:
            attrs.append("fillcolor=orange")
        elif n.only:
            attrs.append("fillcolor=lightgrey")
        lines.append(f"  {n.id} [{', '.join(attrs)}];")
    for e in drawing.edges:
        attributes = EDGE_ATTRIBUTES[e.kind]
        lines.append(f"  {e.src} -> {e.dst} [{attributes}];" if attributes else f"  {e.src} -> {e.dst};")
    for i, group in enumerate(drawing.groups):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(f"    label={quote(group.label)}; style=dotted; fontsize=10;")
        lines.append("    " + " ".join(f"{m};" for m in group.members))
        lines.append("  }")
        for a, b in zip(group.members, group.members[group.per_row:]):
            lines.append(f"  {a} -> {b} [style=invis];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dag_to_dot(edges: Mapping[Hashable, Sequence[Hashable]], *, name: str, title: str,
               label: Callable[[Hashable], str] = str,
               is_weak: Callable[[Hashable], bool] = lambda n: False,
               extra_edges: Sequence[tuple[Hashable, Hashable, str]] = (), notes: Sequence[str] = (),
               filled: "set[Hashable] | frozenset[Hashable]" = frozenset()) -> str:
    """DOT for the DAG ``edges`` (node -> the nodes it promotes to directly); see
    :func:`~.drawing.dag_drawing` (``extra_edges`` are ``(a, b, kind)``)."""
    return to_dot(dag_drawing(edges, name=name, title=title, label=label, is_weak=is_weak,
                              extra_edges=extra_edges, notes=notes, filled=filled))


def promotion_graph_to_dot(graph: "PromotionGraph", *, name: str, title: str,
                           label: Callable[[Hashable], str] = str,
                           is_weak: Callable[[Hashable], bool] = lambda n: False) -> str:
    """DOT for a policy's "promotes to" graph; see :func:`~.drawing.promotion_graph_drawing`."""
    return to_dot(promotion_graph_drawing(graph, name=name, title=title, label=label, is_weak=is_weak))
