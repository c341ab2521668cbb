"""SVG for a :class:`~.drawing.Drawing`, laid out by latticecast itself: pictures without Graphviz.

A layered (Sugiyama) layout, the method of Graphviz's ``dot``, kept small:

1. **Layers.** Each node sits one layer above the highest node that promotes to it (longest
   path from the bottom), so every arrow points up. A group of sibling sinks is one block,
   laid out as a grid of :data:`~.drawing.GROUP_ROW` columns.
2. **Order.** An arrow that spans several layers passes through a virtual point on each; the
   nodes of each layer are then ordered by the mean position of their neighbours (barycentres),
   sweeping up and down, and the order with the fewest crossings is kept.
3. **Positions.** Each node is pulled toward its neighbours' mean ``x`` while the layer keeps
   its order and its gaps; arrows are smooth curves through their virtual points.

Edges that do not order their ends (refusals, cycles) are drawn over the layout as arcs.
Widths of text are estimated from character counts (the picture has no font metrics), with a
margin, so a label never spills out of its box. Everything is linear or quadratic in the size
of one layer: a policy has at most a few dozen types.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass, field
from typing import Sequence

from .drawing import Drawing

__all__ = ["to_svg", "Layout", "layout", "crossings"]

FONT = "Helvetica, Arial, sans-serif"
FONT_SIZE = 14
CHAR = 0.62 * FONT_SIZE        # a generous average advance of Helvetica at FONT_SIZE
NODE_H = 28
PAD_X = 10                     # text to box
GAP_X = 22                     # box to box in one layer
LAYER_GAP = 70                 # centre to centre of two layers
MARGIN = 16
CAPTION_LINE = 18
SWEEPS = 24
ARC_LIFT = 28

EDGE_STYLE = {
    "cover": 'stroke="#333" stroke-width="1.2" marker-end="url(#{id}-arrow)"',
    "this": 'stroke="#e8710a" stroke-width="2.2" marker-end="url(#{id}-arrow-this)"',
    "other": 'stroke="#1f5fbf" stroke-width="2.2" stroke-dasharray="6 4" marker-end="url(#{id}-arrow-other)"',
    "refusal": 'stroke="#d62728" stroke-width="1.2" stroke-dasharray="2 3"',
    "cycle": 'stroke="#d62728" stroke-width="2.5" marker-end="url(#{id}-arrow-red)" '
             'marker-start="url(#{id}-arrow-red)"',
}


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """An estimate of the width of ``text`` in Helvetica at ``size`` px (wide letters count more)."""
    wide = sum(1 for c in text if c in "mwMW@%")
    narrow = sum(1 for c in text if c in "ijlt.,:;!|' ()*-")
    return (len(text) + 0.5 * wide - 0.4 * narrow) * CHAR * size / FONT_SIZE


@dataclass
class Layout:
    """Where everything goes: each node's centre and size, each ranking edge's points, the canvas."""

    x: dict[str, float] = field(default_factory=dict)
    y: dict[str, float] = field(default_factory=dict)
    w: dict[str, float] = field(default_factory=dict)
    paths: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    boxes: list[tuple[str, float, float, float, float]] = field(default_factory=list)
    """The groups' dotted boxes: label, left, top, width, height."""
    width: float = 0.0
    height: float = 0.0
    top: float = 0.0
    """Where the picture starts below the caption."""
    layers: list[list[str]] = field(default_factory=list)
    """The order found for each layer, bottom first (virtual points are ``~`` ids)."""
    caption: list[str] = field(default_factory=list)
    """The caption's lines, wrapped to the picture's width."""
    merged: dict[int, list[int]] = field(default_factory=dict)
    """A group's arrows from its parent, drawn as one arrow into the group's box: the drawn
    edge's index, and the edges it stands for."""


def _ranks(ids: Sequence[str], up: dict[str, list[str]]) -> dict[str, int]:
    """Longest path from the bottom, iteratively (Kahn's order); edges closing a cycle are ignored."""
    indegree = {n: 0 for n in ids}
    for n in ids:
        for m in up[n]:
            indegree[m] += 1
    rank = {n: 0 for n in ids}
    ready = [n for n in ids if indegree[n] == 0]
    seen: set[str] = set()
    while True:
        while ready:
            n = ready.pop()
            seen.add(n)
            for m in up[n]:
                rank[m] = max(rank[m], rank[n] + 1)
                indegree[m] -= 1
                if indegree[m] == 0:
                    ready.append(m)
        rest = [n for n in ids if n not in seen]
        if not rest:
            return rank
        ready.append(rest[0])  # in a cycle: start anywhere, its closing edge is ignored
        indegree[rest[0]] = 0


def crossings(upper: Sequence[str], lower: Sequence[str], links: Sequence[tuple[str, str]]) -> int:
    """How many of ``links`` (lower id, upper id) cross between two ordered layers."""
    pos_u = {n: i for i, n in enumerate(upper)}
    pos_l = {n: i for i, n in enumerate(lower)}
    pairs = sorted((pos_l[a], pos_u[b]) for a, b in links if a in pos_l and b in pos_u)
    count = 0
    for i, (la, ua) in enumerate(pairs):
        for lb, ub in pairs[i + 1:]:
            if lb > la and ub < ua:
                count += 1
    return count


def layout(drawing: Drawing) -> Layout:
    """Place ``drawing``'s nodes and route its ranking edges (see the module docstring)."""
    out = Layout()
    grouped = {m: g for g in drawing.groups for m in g.members}
    blocks = [n.id for n in drawing.nodes if n.id not in grouped] + [f"#g{i}" for i in range(len(drawing.groups))]
    block_of = {n.id: (f"#g{drawing.groups.index(grouped[n.id])}" if n.id in grouped else n.id)
                for n in drawing.nodes}
    size: dict[str, tuple[float, float]] = {}
    for node in drawing.nodes:
        out.w[node.id] = max(text_width(node.label) + 2 * PAD_X + (14 if node.weak else 0), 36.0)
    cell_w = {i: max(out.w[m] for m in g.members) for i, g in enumerate(drawing.groups)}
    for b in blocks:
        if b.startswith("#g"):
            i = int(b[2:])
            g = drawing.groups[i]
            cols = min(g.per_row, len(g.members))
            rows = -(-len(g.members) // g.per_row)
            size[b] = (cols * cell_w[i] + (cols - 1) * 10 + 20, rows * NODE_H + (rows - 1) * 10 + 34)
        else:
            size[b] = (out.w[b], NODE_H)
    up: dict[str, list[str]] = {b: [] for b in blocks}
    links: list[tuple[str, str, int]] = []
    for k, e in enumerate(drawing.edges):
        if not e.ranks:
            continue
        a, b = block_of[e.src], block_of[e.dst]
        if a != b and b not in up[a]:
            up[a].append(b)
        if a != b:
            links.append((a, b, k))
    rank = _ranks(blocks, up)
    top = max(rank.values(), default=0)
    layers: list[list[str]] = [[] for _ in range(top + 1)]
    for b in blocks:
        layers[rank[b]].append(b)
    # virtual points on each layer an edge crosses
    chain: dict[int, list[str]] = {}
    segments: list[tuple[str, str]] = []
    for a, b, k in links:
        if rank[b] <= rank[a]:
            continue  # closes a cycle: drawn as an arc instead
        points = [a]
        for r in range(rank[a] + 1, rank[b]):
            v = f"~{k}.{r}"
            layers[r].append(v)
            size[v] = (8.0, NODE_H)
            points.append(v)
        points.append(b)
        chain[k] = points
        segments += list(zip(points, points[1:]))
    below: dict[str, list[str]] = {}
    above: dict[str, list[str]] = {}
    for lo, hi in segments:
        above.setdefault(lo, []).append(hi)
        below.setdefault(hi, []).append(lo)
    _order(layers, above, below, segments)
    out.layers = layers
    # x: packed, then pulled toward the neighbours' mean, keeping order and gaps
    x: dict[str, float] = {}
    for layer in layers:
        pos = 0.0
        for n in layer:
            x[n] = pos + size[n][0] / 2
            pos += size[n][0] + GAP_X
    widest = max((sum(size[n][0] for n in layer) + GAP_X * (len(layer) - 1) for layer in layers), default=0.0)
    for layer in layers:  # centre each layer under the widest
        span = sum(size[n][0] for n in layer) + GAP_X * (len(layer) - 1)
        for n in layer:
            x[n] += (widest - span) / 2
    for sweep in range(SWEEPS):
        order = range(len(layers)) if sweep % 2 == 0 else range(len(layers) - 1, -1, -1)
        for r in order:
            want = {}
            for n in layers[r]:
                near = below.get(n, []) + above.get(n, [])
                want[n] = sum(x[m] for m in near) / len(near) if near else x[n]
            _place(layers[r], want, size, x)
    left = min((x[n] - size[n][0] / 2 for layer in layers for n in layer), default=0.0)
    right = max((x[n] + size[n][0] / 2 for layer in layers for n in layer), default=0.0)
    wrap = max(right - left, 520.0) / (CHAR * 13 / FONT_SIZE)
    out.caption = [part for line in drawing.caption for part in textwrap.wrap(line, int(wrap))]
    caption = out.caption
    out.top = MARGIN + CAPTION_LINE * len(caption) + 10
    heights = [max((size[n][1] for n in layer), default=float(NODE_H)) for layer in layers]
    centre_y: list[float] = []
    y_pos: float = out.top
    for r in range(len(layers) - 1, -1, -1):  # the top layer first: promotion points up
        centre_y.append(y_pos + heights[r] / 2)
        y_pos += heights[r] + LAYER_GAP - NODE_H
    centre_y.reverse()
    shift = MARGIN - left
    for r, layer in enumerate(layers):
        for n in layer:
            x[n] += shift
            if n.startswith("#g"):
                i = int(n[2:])
                g = drawing.groups[i]
                w, h = size[n]
                x0, y0 = x[n] - w / 2, centre_y[r] - h / 2
                out.boxes.append((g.label, x0, y0, w, h))
                for j, m in enumerate(g.members):
                    row, col = divmod(j, g.per_row)
                    out.x[m] = x0 + 10 + col * (cell_w[i] + 10) + cell_w[i] / 2
                    out.y[m] = y0 + h - 10 - NODE_H / 2 - row * (NODE_H + 10)
            elif not n.startswith("~"):
                out.x[n], out.y[n] = x[n], centre_y[r]
    virtual_y = {n: centre_y[r] for r, layer in enumerate(layers) for n in layer}
    box_bottom = {f"#g{i}": (x[f"#g{i}"], by + bh) for i, (_, _, by, _, bh) in enumerate(out.boxes)}
    for k, points in chain.items():
        e = drawing.edges[k]
        route = [(out.x[e.src], out.y[e.src] - NODE_H / 2)]
        route += [(x[v], virtual_y[v]) for v in points[1:-1]]
        into = points[-1]
        if into in box_bottom and drawing.groups[int(into[2:])].parent == e.src:
            first = next((j for j, ks in out.merged.items() if drawing.edges[j].dst in grouped
                          and block_of[drawing.edges[j].dst] == into and drawing.edges[j].kind == e.kind), None)
            if first is not None:
                out.merged[first].append(k)
                continue
            out.merged[k] = [k]
            route.append(box_bottom[into])
        else:
            route.append((out.x[e.dst], out.y[e.dst] + NODE_H / 2))
        out.paths[k] = route
    texts = max((text_width(line, 13 if i else 15) for i, line in enumerate(caption)), default=0.0)
    out.width = max(right - left + 2 * MARGIN, texts + 2 * MARGIN)
    if out.width > right - left + 2 * MARGIN:  # a caption wider than the picture: centre the picture
        dx = (out.width - (right - left + 2 * MARGIN)) / 2
        for n in out.x:
            out.x[n] += dx
        out.boxes = [(lb, bx + dx, by, bw, bh) for lb, bx, by, bw, bh in out.boxes]
        out.paths = {k: [(px + dx, py) for px, py in pts] for k, pts in out.paths.items()}
    out.height = y_pos - (LAYER_GAP - NODE_H) + MARGIN
    return out


def _order(layers: list[list[str]], above: dict[str, list[str]], below: dict[str, list[str]],
           segments: list[tuple[str, str]]) -> None:
    """Barycentre sweeps; each layer ends in the order of the sweep with the fewest crossings."""
    def total() -> int:
        return sum(crossings(layers[r + 1], layers[r], segments) for r in range(len(layers) - 1))

    best = [list(layer) for layer in layers]
    best_count = total()
    for sweep in range(SWEEPS):
        upward = sweep % 2 == 0
        rng = range(1, len(layers)) if upward else range(len(layers) - 2, -1, -1)
        for r in rng:
            ref = {n: i for i, n in enumerate(layers[r - 1] if upward else layers[r + 1])}
            near = below if upward else above
            keyed = []
            for i, n in enumerate(layers[r]):
                ps = [ref[m] for m in near.get(n, []) if m in ref]
                keyed.append((sum(ps) / len(ps) if ps else i, i, n))
            layers[r] = [n for _, _, n in sorted(keyed)]
        count = total()
        if count < best_count:
            best, best_count = [list(layer) for layer in layers], count
        if best_count == 0:
            break
    layers[:] = best


def _place(layer: list[str], want: dict[str, float], size: dict[str, tuple[float, float]],
           x: dict[str, float]) -> None:
    """Move the nodes of one layer to ``want`` as far as their order and gaps allow: the mean of
    the placement that resolves overlaps rightward and the one that resolves them leftward (both
    keep the gaps, so their mean does too)."""
    right = {n: want[n] for n in layer}
    for a, b in zip(layer, layer[1:]):
        right[b] = max(right[b], right[a] + (size[a][0] + size[b][0]) / 2 + GAP_X)
    left = {n: want[n] for n in layer}
    for a, b in zip(reversed(layer[:-1]), reversed(layer[1:])):
        left[a] = min(left[a], left[b] - (size[a][0] + size[b][0]) / 2 - GAP_X)
    for n in layer:
        x[n] = (right[n] + left[n]) / 2


def _curve(points: list[tuple[float, float]]) -> str:
    """A smooth path through ``points`` (a Catmull-Rom spline as cubic Beziers), leaving the first
    and entering the last vertically, as a layered layout's arrows do."""
    lead = (points[0][0], points[0][1] + LAYER_GAP / 2)
    tail = (points[-1][0], points[-1][1] - LAYER_GAP / 2)
    p = [lead, *points, tail]
    d = [f"M{p[1][0]:.1f},{p[1][1]:.1f}"]
    for i in range(1, len(p) - 2):
        (ax, ay), (bx, by), (cx, cy), (ex, ey) = p[i - 1], p[i], p[i + 1], p[i + 2]
        d.append(f"C{bx + (cx - ax) / 6:.1f},{by + (cy - ay) / 6:.1f} {cx - (ex - bx) / 6:.1f},{cy - (ey - by) / 6:.1f} "
                 f"{cx:.1f},{cy:.1f}")
    return " ".join(d)


def _arc(ax: float, ay: float, bx: float, by: float) -> str:
    """A line between two nodes, bowed so that it does not run along the arrows of one layer."""
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    lift = min(ARC_LIFT, length / 3) if abs(dy) < 1 else min(ARC_LIFT, length / 5)
    cx, cy = mx - dy / length * lift, my + dx / length * lift - (lift if abs(dy) < 1 else 0)
    return f"M{ax:.1f},{ay:.1f} Q{cx:.1f},{cy:.1f} {bx:.1f},{by:.1f}"


def to_svg(drawing: Drawing) -> str:
    """The drawing as a standalone SVG document (inline it in HTML as it is).

    Example:
        >>> from latticecast.cli.drawing import dag_drawing
        >>> svg = to_svg(dag_drawing({"b": ["i8"], "i8": ["i16"]}, name="t", title="a chain"))
        >>> svg.startswith("<svg") and svg.count('class="edge cover"'), ">i16</text>" in svg
        (2, True)
    """
    lay = layout(drawing)
    esc = html.escape
    ident = "lc-" + "".join(c if c.isalnum() else "-" for c in drawing.name)
    w, h = lay.width, lay.height
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="latticecast-lattice" width="{w:.0f}" '
             f'height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}" role="img" aria-label="{esc(drawing.title)}" '
             f'font-family="{FONT}">',
             f"<title>{esc(drawing.title)}</title>",
             "<defs>"]
    for suffix, colour in (("", "#333"), ("-this", "#e8710a"), ("-other", "#1f5fbf"), ("-red", "#d62728")):
        parts.append(f'<marker id="{ident}-arrow{suffix}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                     f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
                     f'fill="{colour}"/></marker>')
    parts.append("</defs>")
    parts.append(f'<rect width="{w:.0f}" height="{h:.0f}" fill="white"/>')
    for i, line in enumerate(lay.caption):
        size, weight = (15, ' font-weight="bold"') if i == 0 else (13, "")
        parts.append(f'<text class="caption" x="{w / 2:.1f}" y="{MARGIN + 13 + i * CAPTION_LINE}" '
                     f'text-anchor="middle" font-size="{size}"{weight}>{esc(line)}</text>')
    for label, bx, by, bw, bh in lay.boxes:
        parts.append(f'<g class="group"><rect x="{bx:.1f}" y="{by:.1f}" width="{bw:.1f}" height="{bh:.1f}" '
                     f'rx="6" fill="none" stroke="#888" stroke-dasharray="2 3"/>'
                     f'<text x="{bx + bw / 2:.1f}" y="{by + 14:.1f}" text-anchor="middle" font-size="11" '
                     f'fill="#555">{esc(label)}</text></g>')
    stood_for = {k for ks in lay.merged.values() for k in ks}
    for k, e in enumerate(drawing.edges):
        style = EDGE_STYLE[e.kind].format(id=ident)
        to = ", ".join(drawing.node(drawing.edges[j].dst).label for j in lay.merged.get(k, [k]))
        if k in lay.paths:
            d = _curve(lay.paths[k])
        elif k in stood_for:
            continue  # one arrow into the group's box stands for it
        else:
            d = _arc(lay.x[e.src], lay.y[e.src], lay.x[e.dst], lay.y[e.dst])
        parts.append(f'<path class="edge {e.kind}" d="{d}" fill="none" {style}>'
                     f"<title>{esc(drawing.node(e.src).label)} \u2192 {esc(to)}</title></path>")
    for n in drawing.nodes:
        cx, cy, nw = lay.x[n.id], lay.y[n.id], lay.w[n.id]
        fill = "#ffa500" if n.filled else ("#d9d9d9" if n.only else "white")
        if n.weak:
            shape = (f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{nw / 2:.1f}" ry="{NODE_H / 2:.1f}" '
                     f'fill="{fill}" stroke="#333" stroke-dasharray="5 3"/>')
        else:
            shape = (f'<rect x="{cx - nw / 2:.1f}" y="{cy - NODE_H / 2:.1f}" width="{nw:.1f}" height="{NODE_H}" '
                     f'rx="3" fill="{fill}" stroke="#333"/>')
        parts.append(f'<g class="node" id="{ident}-{n.id}">{shape}<text x="{cx:.1f}" y="{cy + 5:.1f}" '
                     f'text-anchor="middle" font-size="{FONT_SIZE}">{esc(n.label)}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
