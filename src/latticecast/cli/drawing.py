"""A picture of a promotion order, before anyone draws it: nodes, edges, groups and a caption.

One :class:`Drawing` is made from a lattice's generating DAG (:func:`dag_drawing`), from a
policy's promotion graph (:func:`promotion_graph_drawing`) or from two policies' graphs at
once (:func:`diff_drawing`), and then written by either of two back ends: DOT text for
Graphviz (:mod:`.dot`), or SVG laid out by latticecast itself (:mod:`.svg_layout`), so that a
picture never needs Graphviz. Promotion points up: ``bool`` at the bottom, the widest types
at the top. Weakly typed nodes are dashed ellipses, dtypes boxes.

Many sinks below one node (JAX's eleven low-precision floats, each reached only from ``f*``)
would stretch the picture into one long row; such a group (:attr:`Drawing.groups`) is drawn
in rows of :data:`GROUP_ROW` inside a dotted box.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Hashable, Mapping, Sequence

if TYPE_CHECKING:
    from ..policies import Policy
    from ..promotion.promotion_graph import PromotionGraph

__all__ = ["Node", "Edge", "Group", "Drawing", "EDGE_KINDS", "dag_drawing", "promotion_graph_drawing",
           "diff_drawing", "GROUP_ROW", "GROUP_MIN", "ISOLATED_ROW", "NON_LATTICE_SHOWN"]

GROUP_ROW = 4
"""Nodes per row in a group of sibling sinks."""
GROUP_MIN = 4
"""The fewest sibling sinks drawn as a group."""
ISOLATED_ROW = 8
"""Nodes per row in the group of types that promote with no other (``jax-lax``'s)."""
NON_LATTICE_SHOWN = 6
"""How many non-lattice cells a promotion graph's caption spells out."""

EDGE_KINDS = ("cover", "refusal", "cycle", "this", "other")
"""What an edge says: ``cover`` a direct promotion (drawn as an arrow up); ``refusal`` a pair that
does not promote (dotted red, no arrow); ``cycle`` two types that promote to each other (bold
red); in a comparison, ``this`` / ``other`` a direct promotion of only one of the two policies
(``cover`` is then one both have)."""


@dataclass(frozen=True)
class Node:
    """One type: its label, and whether it is weak (dashed), filled (a cell's result that breaks
    the lattice laws) or missing from one side of a comparison (``only``: that side's name)."""

    id: str
    label: str
    weak: bool = False
    filled: bool = False
    only: str = ""


@dataclass(frozen=True)
class Edge:
    """``src`` to ``dst`` (ids), of one of :data:`EDGE_KINDS`. Only ``cover``, ``this`` and ``other``
    edges point up and so decide the layout; the others are drawn over it."""

    src: str
    dst: str
    kind: str = "cover"

    @property
    def ranks(self) -> bool:
        """Whether the edge orders its ends (the layout puts ``dst`` above ``src``)."""
        return self.kind in ("cover", "this", "other")


@dataclass(frozen=True)
class Group:
    """Nodes drawn together in rows of ``per_row``, with a caption: sibling sinks (``only from f*``),
    or the types that promote with no other (``parent`` empty)."""

    parent: str
    members: tuple[str, ...]
    label: str
    per_row: int = GROUP_ROW


@dataclass
class Drawing:
    """Everything a back end needs: the graph's name, a caption (title, then notes) and the parts."""

    name: str
    title: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    legend: dict[str, str] = field(default_factory=dict)
    """What each edge kind means in this picture, for the back ends that draw a key."""

    @property
    def caption(self) -> list[str]:
        """The title, the notes, and a word on dashed nodes when there are any."""
        return [self.title, *self.notes] + (["(dashed: weakly typed)"] if any(n.weak for n in self.nodes) else [])

    def node(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.id == node_id)


def _groups(edges: Sequence[Edge], nodes: Sequence[Node], label: Callable[[str], str]) -> list[Group]:
    """(parent, its children that have no other parent and no edge out), for groups of ``GROUP_MIN``+."""
    parents: dict[str, list[str]] = {n.id: [] for n in nodes}
    out: dict[str, list[str]] = {n.id: [] for n in nodes}
    for e in edges:
        if e.ranks:
            parents[e.dst].append(e.src)
            out[e.src].append(e.dst)
    groups = []
    for n in nodes:
        sinks = [d for d in dict.fromkeys(out[n.id]) if parents[d] == [n.id] and not out[d]]
        if len(sinks) >= GROUP_MIN:
            groups.append(Group(n.id, tuple(sinks), f"only from {label(n.id)}"))
    touched = {end for e in edges for end in (e.src, e.dst)}
    alone = tuple(n.id for n in nodes if n.id not in touched)
    if len(alone) >= GROUP_MIN:
        groups.append(Group("", alone, "no promotion with another type", ISOLATED_ROW))
    return groups


def dag_drawing(edges: Mapping[Hashable, Sequence[Hashable]], *, name: str, title: str,
                label: Callable[[Hashable], str] = str, is_weak: Callable[[Hashable], bool] = lambda n: False,
                extra_edges: Sequence[tuple[Hashable, Hashable, str]] = (), notes: Sequence[str] = (),
                filled: "set[Hashable] | frozenset[Hashable]" = frozenset()) -> Drawing:
    """The DAG ``edges`` (node -> the nodes it promotes to directly) as a :class:`Drawing`;
    ``extra_edges`` are ``(a, b, kind)``, ``notes`` lines added to the caption, and the ``filled``
    nodes are marked.

    Example:
        >>> d = dag_drawing({"b": ["i8"], "i8": []}, name="t", title="tiny")
        >>> [(e.src, e.dst, e.kind) for e in d.edges], [n.label for n in d.nodes]
        ([('n0', 'n1', 'cover')], ['b', 'i8'])
    """
    order: list[Hashable] = []
    for src, dsts in edges.items():
        for n in (src, *dsts):
            if n not in order:
                order.append(n)
    ids = {n: f"n{i}" for i, n in enumerate(order)}
    nodes = [Node(ids[n], label(n), is_weak(n), n in filled) for n in order]
    drawn = [Edge(ids[s], ids[d]) for s, dsts in edges.items() for d in dsts]
    drawn += [Edge(ids[a], ids[b], kind) for a, b, kind in extra_edges]
    names = {ids[n]: label(n) for n in order}
    return Drawing(name, title, nodes, drawn, list(notes), _groups(drawn, nodes, names.__getitem__))


def _non_lattice_note(graph: "PromotionGraph", label: Callable[[Hashable], str]) -> list[str]:
    cells = [f"{label(a)} . {label(b)} = {label(r)}" for a, b, r in graph.non_lattice]
    if not cells:
        return []
    shown = ", ".join(cells[:NON_LATTICE_SHOWN]) + (f", and {len(cells) - NON_LATTICE_SHOWN} more"
                                                      if len(cells) > NON_LATTICE_SHOWN else "")
    return [f"orange: the result of a cell that is not the least type both operands promote to ({shown})"]


def promotion_graph_drawing(graph: "PromotionGraph", *, name: str, title: str,
                            label: Callable[[Hashable], str] = str,
                            is_weak: Callable[[Hashable], bool] = lambda n: False) -> Drawing:
    """A policy's "promotes to" graph (:func:`~latticecast.promotion.promotion_graph.promotion_graph`): the
    order's transitive reduction as arrows, refused pairs as dotted red lines, pairs that promote
    to each other as bold red lines, and the results of the cells that break the lattice laws
    filled orange, those cells listed in the caption.

    Example:
        >>> from latticecast import policy
        >>> from latticecast.promotion.promotion_graph import promotion_graph
        >>> torch = policy("torch")
        >>> g = promotion_graph(torch, [torch.canonical(t) for t in ("i8", "u16")])
        >>> d = promotion_graph_drawing(g, name="torch", title="torch", label=torch.type_name)
        >>> [e.kind for e in d.edges], d.notes
        (['refusal'], ['dotted red: no promotion'])
    """
    extra: list[tuple[Hashable, Hashable, str]] = [(a, b, "refusal") for a, b in graph.refusals if a != b]
    extra += [(a, b, "cycle") for a, b in graph.cycles]
    notes = (["dotted red: no promotion"] if graph.refusals else []) + \
        (["bold red: promote to each other"] if graph.cycles else []) + _non_lattice_note(graph, label)
    covers: dict[Hashable, tuple[Hashable, ...]] = {node: tuple(up) for node, up in graph.covers.items()}
    for n in graph.nodes:  # a type with no promotion at all is still drawn
        covers.setdefault(n, ())
    return dag_drawing(covers, name=name, title=title, label=label, is_weak=is_weak, extra_edges=extra,
                       notes=notes, filled={r for _, _, r in graph.non_lattice})


def diff_drawing(this: "Policy", other: "Policy", types: Sequence[Hashable]) -> Drawing:
    """Two policies' promotion graphs over ``types`` in one picture: an arrow both policies have is
    black, one only ``this`` has orange, one only ``other`` has dashed blue; a type only one
    side has is grey, named so in the caption.

    Example:
        >>> from latticecast import policy
        >>> d = diff_drawing(policy("jax"), policy("numpy"), ["i8", "u8", "i16", "f16"])
        >>> sorted((d.node(e.src).label, d.node(e.dst).label, e.kind) for e in d.edges)[:3]
        [('i16', 'f16', 'this'), ('i8', 'f16', 'other'), ('i8', 'i16', 'cover')]
    """
    from ..promotion.promotion_graph import promotion_graph
    from ..promotion.weak import Weak, parse_ptype
    from .common import namer

    def known(p: "Policy", t: Hashable) -> object | None:
        try:
            return p.canonical(parse_ptype(t) if isinstance(t, str) else t)  # type: ignore[arg-type]
        except (ValueError, TypeError, LookupError):
            return None

    # one key per type, as this policy spells it (the other's spelling where only it has the type)
    keys: dict[str, dict[str, object]] = {}
    for t in types:
        for side, p in (("this", this), ("other", other)):
            c = known(p, t)
            if c is not None:
                keys.setdefault(namer(this)(c) if known(this, t) is not None else namer(other)(c), {})[side] = c
    edges: dict[tuple[str, str], set[str]] = {}
    for side, p in (("this", this), ("other", other)):
        shown = [k[side] for k in keys.values() if side in k]
        graph = promotion_graph(p, shown)  # type: ignore[arg-type]
        by_type = {k[side]: label for label, k in keys.items() if side in k}
        for a, ups in graph.covers.items():
            for b in ups:
                if a in by_type and b in by_type:
                    edges.setdefault((by_type[a], by_type[b]), set()).add(side)
    labels = list(keys)
    ids = {label: f"n{i}" for i, label in enumerate(labels)}
    nodes = [Node(ids[lb], lb, isinstance(next(iter(keys[lb].values())), Weak), False,
                  "" if len(keys[lb]) == 2 else (this.name if "this" in keys[lb] else other.name))
             for lb in labels]
    drawn = [Edge(ids[a], ids[b], "cover" if len(sides) == 2 else next(iter(sides)))
             for (a, b), sides in edges.items()]
    notes = [f"black: both promote this way; orange: only {this.name}; dashed blue: only {other.name}"]
    missing = [n for n in nodes if n.only]
    if missing:
        notes.append("grey: a type only one has (" + ", ".join(f"{n.label}: {n.only}" for n in missing) + ")")
    drawing = Drawing(f"{this.name}-vs-{other.name}", f"{this.title} vs {other.title}: direct promotions",
                      nodes, drawn, notes)
    drawing.groups = _groups(drawn, nodes, {n.id: n.label for n in nodes}.__getitem__)
    drawing.legend = {"cover": "both", "this": f"only {this.name}", "other": f"only {other.name}"}
    return drawing
