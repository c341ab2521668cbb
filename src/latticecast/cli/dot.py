"""DOT text for a promotion DAG, written by hand so that ``--format dot`` needs nothing installed.

The picture is the *generating* DAG (the transitive reduction, as the JAX design
note draws its lattice), with promotion pointing up: ``bool`` at the bottom,
the widest types at the top. Weakly typed nodes are dashed ellipses, dtypes solid
boxes. Node identifiers are ``n0``, ``n1``, ...; labels are quoted and escaped,
so any label (a table file's, too) is safe.
"""

from __future__ import annotations

from typing import Callable, Hashable, Mapping, Sequence

__all__ = ["dag_to_dot", "quote"]


def quote(text: str) -> str:
    """A DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dag_to_dot(edges: Mapping[Hashable, Sequence[Hashable]], *, name: str, title: str,
               label: Callable[[Hashable], str] = str,
               is_weak: Callable[[Hashable], bool] = lambda n: False) -> str:
    """DOT for the DAG ``edges`` (node -> the nodes it promotes to directly)."""
    nodes: list[Hashable] = []
    for src, dsts in edges.items():
        for n in (src, *dsts):
            if n not in nodes:
                nodes.append(n)
    ids = {n: f"n{i}" for i, n in enumerate(nodes)}
    any_weak = any(is_weak(n) for n in nodes)
    caption = title + ("\n(dashed: weakly typed)" if any_weak else "")
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
        lines.append(f"  {ids[n]} [label={quote(label(n))}{style}];")
    for src, dsts in edges.items():
        for d in dsts:
            lines.append(f"  {ids[src]} -> {ids[d]};")
    lines.append("}")
    return "\n".join(lines) + "\n"
