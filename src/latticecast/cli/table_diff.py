"""Two promotion tables side by side, for a person: ``latticecast table --policy P --vs Q``.

A differing cell shows both results (``f16/f32``: this policy's, then the other's), so nothing
has to be looked up. The same comparison renders as:

- ``text``: the table in bands that fit the width, with a legend (:mod:`.table_view`); with
  ``--wide``, one grid (and a note when it is wider than the terminal);
- a list of the differing pairs only (``--only-diffs``): pair, this, other;
- ``csv``: one row per cell, with one value column per side and a ``differs`` column;
- ``html``: a standalone page (:mod:`.html_page`) with a heat map of the differences, each cell's
  ``explain`` text under both policies as its tooltip, the list of differing pairs, and the
  pictures; with ``--only-diffs``, the list and the picture of the differences only.
"""

from __future__ import annotations

import csv
import io
import shutil
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from ..policies import Policy
from ..promotion.tables import UNDEFINED, PromotionTable
from ..promotion.weak import PType
from . import html_page as hp
from .table_view import DEFAULT_WIDTH, Grid, compact, grid_of, html_grid, legend_lines, render_text

__all__ = ["COMMON_TYPES", "TableDiff", "default_types", "terminal_width", "fitted_width"]

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
        ['b', 'i8', 'i16', 'i32']
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

    def grid(self, short: bool = True) -> Grid:
        """The comparison as a :class:`~.table_view.Grid`: a differing cell holds both results."""
        return grid_of(self.table, self.name, other_cells=self.other_cells, explain=self.explain, this=self.this,
                       other=self.other, short=short)

    def text(self, width: int = DEFAULT_WIDTH) -> str:
        """The table in bands of columns that fit ``width``, then the legend."""
        return render_text(self.grid(), width)

    def wide_text(self, width: int | None = None) -> str:
        """The table as one grid with both values in each differing cell (``--wide``); when ``width``
        (the terminal's) is too narrow, a last line says so and what to do instead."""
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
            out += (f"(the table is {wide} columns wide and the terminal {width}: leave out --wide, or use "
                    "--only-diffs, fewer --types, or --format html)\n")
        return out

    def diffs(self, fmt: str = "text") -> str:
        """Only the differing pairs: ``pair  this  other`` (``text``, ``markdown`` or ``csv``)."""
        rows = self.diff_rows()
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

    def diff_rows(self) -> list[tuple[str, str, str]]:
        """``(pair, this, other)`` for each differing cell: what ``--only-diffs`` lists."""
        return [(f"{r} . {c}", a, b) for r, c, a, b in self.differing()]

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

    def html(self, pictures: Sequence[tuple[str, str]] = (), *, only_diffs: bool = False) -> str:
        """A standalone page (:func:`~.html_page.page`): the summary, the legend, the heat map, the list
        of differences, and ``pictures`` (a caption and an SVG document each). With ``only_diffs``
        (``--only-diffs``, as in text), the list of differing pairs replaces the heat map."""
        grid = self.grid()
        n, total = len(self.table.marks), len(self.table.cells)
        summary = (f"{n} of {total} cells differ. A differing cell shows {hp.escape(self.this)}/"
                   f"{hp.escape(self.other)}; hover a cell for both policies' reasons.")
        swatches = [("same", "i16", "the same result"), ("diff", "f16/f32", "another type"),
                    ("diff refused", "-/i32", "refused by one side"), ("undef", "-", "refused by both")]
        if only_diffs:
            swatches = swatches[1:3]
        key = hp.legend(swatches, grid.codes, grid.notes[1:] if grid.notes else [])
        listed = hp.list_table(["pair", self.this, self.other],
                               [(f"{compact(a)} . {compact(b)}", compact(x), compact(y))
                                for a, b, x, y in self.differing()], table_id="diffs")
        figures = [hp.figure(c, p) for c, p in pictures]
        pairs = hp.section(f"The {n} pairs that differ", listed)
        if only_diffs:  # the list and the picture of the differences, side by side
            body = [key, hp.row(pairs, *figures[:1])]
        else:
            body = [key, hp.row(hp.section("Every pair", html_grid(grid, "heat")), *figures[:1]),
                    hp.row(pairs, *figures[1:])]
        title = f"{self.this} vs {self.other}: type promotion" + (", the pairs that differ" if only_diffs else "")
        return hp.page(title, body, summary=summary)


def terminal_width() -> int | None:
    """The terminal's width when standard output is one (``COLUMNS`` wins, as for every tool), else ``None``."""
    import os
    import sys

    if "COLUMNS" in os.environ or sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def fitted_width(to_file: bool) -> int:
    """The width a text table is fitted to: the terminal's when it is known and the output goes
    there, else :data:`~.table_view.DEFAULT_WIDTH`."""
    width = None if to_file else terminal_width()
    return width if width is not None else DEFAULT_WIDTH
