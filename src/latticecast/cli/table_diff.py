"""Two promotion tables side by side, for a person: ``latticecast table --policy P --vs Q``.

A differing cell shows both results (``f16/f32``: this policy's, then the other's), so nothing
has to be looked up. The same comparison renders as:

- ``text``: the table, sized for the terminal (or a note that it is wider, and what to do);
- a list of the differing pairs only (``--only-diffs``): pair, this, other;
- ``csv``: one row per cell, with one value column per side and a ``differs`` column;
- ``html``: a standalone page with a heat map of the differences, each cell's ``explain`` text
  under both policies as its tooltip, and the policies' promotion graphs beside it.
"""

from __future__ import annotations

import csv
import html
import io
import shutil
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from ..policies import Policy
from ..tables import UNDEFINED, PromotionTable
from ..weak import PType

__all__ = ["COMMON_TYPES", "TableDiff", "default_types"]

COMMON_TYPES = ("b", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "bf16", "f16", "f32", "f64", "c64",
                "c128", "i*", "f*", "c*", "b*", "index", "address")
"""The types a table shows by default: the ones every system has, and the weak types; the rarer
ones (float8, int4, ...) are one ``--types`` away."""

Cell = tuple[Hashable, Hashable]


def default_types(pol: Policy) -> list[PType]:
    """The policy's types among :data:`COMMON_TYPES`, in the policy's own order.

    Example:
        >>> from latticecast import policy
        >>> [policy("array-api").type_name(t) for t in default_types(policy("array-api"))][:4]
        ['b', 'u8', 'u16', 'u32']
    """
    return [t for t in pol.types if pol.type_name(t) in COMMON_TYPES]


@dataclass
class TableDiff:
    """A policy's table and another side's result for each of its cells.

    Attributes:
        table: This policy's table; ``table.marks`` are the cells that differ.
        this: This side's name (the policy's).
        other: The other side's name (a policy, or a published table).
        other_cells: The other side's result for each cell, already spelled.
        name: Spells a type of this table.
        explain: The tooltip text of a cell (both sides' reasons), or ``None``.
    """

    table: PromotionTable
    this: str
    other: str
    other_cells: dict[Cell, str]
    name: Callable[[Hashable], str]
    explain: Callable[[Hashable, Hashable], str] | None = None

    def _mine(self, cell: Cell) -> str:
        value = self.table.cells[cell]
        return UNDEFINED if value is None else self.name(value)

    def differing(self) -> list[tuple[str, str, str, str]]:
        """``(row, column, this, other)`` for every cell that differs, in table order."""
        return [(self.name(r), self.name(c), self._mine((r, c)), self.other_cells[(r, c)])
                for r in self.table.rows for c in self.table.columns if (r, c) in self.table.marks]

    # -- renderers ------------------------------------------------------------------------

    def text(self, width: int | None = None) -> str:
        """The table with both values in each differing cell, and a legend; when ``width`` (the
        terminal's) is too narrow, a last line says so and what to do instead."""
        t = self.table
        head = [self.name(c) for c in t.columns]
        body = [[self.name(r)] + [self._mine((r, c)) + (f"/{self.other_cells[(r, c)]}" if (r, c) in t.marks else "")
                                  for c in t.columns] for r in t.rows]
        cell = max([len(h) for h in head] + [len(v) for row in body for v in row]) + 1
        lines = [" " * cell + "".join(h.rjust(cell) for h in head)]
        lines += ["".join(v.rjust(cell) for v in row) for row in body]
        out = "\n".join(line.rstrip() for line in lines) + "\n"
        if t.marks:
            out += f"(a differing cell shows {self.this}/{self.other})\n"
        wide = len(lines[0])
        if width is not None and wide > width:
            out += (f"(the table is {wide} columns wide and the terminal {width}: use --only-diffs, fewer --types, "
                    "or --format html)\n")
        return out

    def diffs(self, fmt: str = "text") -> str:
        """Only the differing pairs: ``pair  this  other`` (``text``, ``markdown`` or ``csv``)."""
        rows = [(f"{r} . {c}", a, b) for r, c, a, b in self.differing()]
        header = ("pair", self.this, self.other)
        if fmt == "csv":
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
            return buf.getvalue()
        if fmt == "markdown":
            return "\n".join([f"| {' | '.join(header)} |", "|---|---|---|"]
                             + [f"| {p} | {a} | {b} |" for p, a, b in rows]) + "\n"
        widths = [max(len(x[i]) for x in [header, *rows]) for i in range(3)]
        return "\n".join("  ".join(v.ljust(w) for v, w in zip(x, widths)).rstrip() for x in [header, *rows]) + "\n"

    def csv(self) -> str:
        """One row per cell: ``row, column, <this>, <other>, differs`` (``1`` or ``0``)."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["row", "column", self.this, self.other, "differs"])
        for r in self.table.rows:
            for c in self.table.columns:
                writer.writerow([self.name(r), self.name(c), self._mine((r, c)), self.other_cells[(r, c)],
                                 int((r, c) in self.table.marks)])
        return buf.getvalue()

    def markdown(self) -> str:
        """The table in markdown, a differing cell in bold with both values."""
        t = self.table
        out = ["| | " + " | ".join(self.name(c) for c in t.columns) + " |", "|---" * (len(t.columns) + 1) + "|"]
        for r in t.rows:
            cells = [f"**{self._mine((r, c))}/{self.other_cells[(r, c)]}**" if (r, c) in t.marks
                     else self._mine((r, c)) for c in t.columns]
            out.append(f"| **{self.name(r)}** | " + " | ".join(cells) + " |")
        return "\n".join(out) + f"\n\nA bold cell differs: {self.this}/{self.other}.\n"

    def html(self, pictures: Sequence[tuple[str, str]] = ()) -> str:
        """A standalone page: the heat map, the list of differences, and ``pictures`` (a caption and
        an SVG document, or a caption and DOT text where no renderer is installed)."""
        t = self.table
        esc = html.escape
        tip = self.explain or (lambda a, b: "")
        head = "".join(f"<th scope=col>{esc(self.name(c))}</th>" for c in t.columns)
        rows = []
        for r in t.rows:
            tds = []
            for c in t.columns:
                mine, theirs = self._mine((r, c)), self.other_cells[(r, c)]
                differs = (r, c) in t.marks
                refused = UNDEFINED in (mine, theirs)
                kind = ("diff refused" if refused else "diff") if differs else ("undef" if mine == UNDEFINED else "same")
                shown = (f'<span class="this">{esc(mine)}</span><span class="sep">/</span>'
                         f'<span class="other">{esc(theirs)}</span>') if differs else esc(mine)
                tds.append(f'<td class="{kind}" data-row="{esc(self.name(r))}" data-col="{esc(self.name(c))}" '
                           f'data-this="{esc(mine)}" data-other="{esc(theirs)}" title="{esc(tip(r, c))}">{shown}</td>')
            rows.append(f"<tr><th scope=row>{esc(self.name(r))}</th>{''.join(tds)}</tr>")
        diffs = "".join(f"<tr><td>{esc(a)} . {esc(b)}</td><td>{esc(x)}</td><td>{esc(y)}</td></tr>"
                        for a, b, x, y in self.differing())
        figures = []
        for caption, picture in pictures:
            body = picture if picture.lstrip().startswith(("<svg", "<?xml")) else f"<pre>{esc(picture)}</pre>"
            figures.append(f"<figure><figcaption>{esc(caption)}</figcaption>{body}</figure>")
        n = len(t.marks)
        title = f"{self.this} vs {self.other}: type promotion"
        return _PAGE.format(title=esc(title), css=_CSS, n=n, total=len(t.cells), this=esc(self.this),
                            other=esc(self.other), head=head, rows="\n".join(rows), diffs=diffs,
                            figures="\n".join(figures))


def terminal_width() -> int | None:
    """The terminal's width when standard output is one (``COLUMNS`` wins, as for every tool), else ``None``."""
    import os
    import sys

    if "COLUMNS" in os.environ or sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; }
.layout { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
table.heat { border-collapse: collapse; font-size: 12px; }
table.heat th, table.heat td { border: 1px solid #ddd; padding: 3px 5px; text-align: center; }
table.heat th { background: #f3f3f3; position: sticky; top: 0; }
td.same { background: #ffffff; }
td.undef { background: #eeeeee; color: #888; }
td.diff { background: #f4a261; font-weight: bold; }
td.diff.refused { background: #e76f51; color: #fff; }
td.diff.refused .other { color: #fff; }
td.diff .other { color: #1d3557; }
td:hover { outline: 2px solid #264653; }
table.list { border-collapse: collapse; font-size: 12px; }
table.list td, table.list th { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: left; }
figure { margin: 0; } figcaption { font-weight: bold; margin-bottom: .5em; }
figure svg { max-width: 640px; height: auto; }
.legend span { display: inline-block; padding: 2px 8px; margin-right: 6px; border: 1px solid #ddd; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{css}</style></head>
<body>
<h1>{title}</h1>
<p id="summary">{n} of {total} cells differ. A differing cell shows {this}/{other}; hover a cell for both
policies' reasons.</p>
<p class="legend"><span>same</span><span style="background:#f4a261">another type</span>
<span style="background:#e76f51; color:#fff">refused by one side</span>
<span style="background:#eeeeee">refused by both</span></p>
<div class="layout">
<table class="heat" id="heat"><thead><tr><th></th>{head}</tr></thead><tbody>
{rows}
</tbody></table>
<div>
<h2>Pairs that differ</h2>
<table class="list" id="diffs"><thead><tr><th>pair</th><th>{this}</th><th>{other}</th></tr></thead>
<tbody>{diffs}</tbody></table>
</div>
{figures}
</div>
</body></html>
"""
