"""A promotion table as a person reads it: short type codes, a legend, and a width that fits.

A table of JAX's 35 types is 35 columns, however it is spelled. For a terminal (``text``) the
table is cut into bands of columns that each fit the width (the terminal's, else
:data:`DEFAULT_WIDTH`), every band with its row labels, as R and pandas print a wide matrix;
types are spelled in the seeds' short codes (``i8 u64 bf f8e4m3``: :func:`compact`), each
column as wide as its own longest entry, and a legend after the table says what every code
means. ``--wide`` keeps one unbroken grid (:meth:`PromotionTable.render
<latticecast.PromotionTable.render>`'s text). The same :class:`Grid` is what the HTML page draws
(:mod:`.html_page`), so both show the same cells under the same codes.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Callable, Hashable, Sequence

from ..promotion.tables import UNDEFINED, PromotionTable
from ..promotion.weak import Weak
from .html_page import GridCell, grid_table

__all__ = ["Grid", "DEFAULT_WIDTH", "FROM_CODE", "compact", "long_name", "grid_of", "render_text", "legend_lines",
           "html_grid", "codes_shown"]

DEFAULT_WIDTH = 100
"""The width a table is fitted to when the terminal's is not known (output to a pipe or a file)."""

_COMPACT = {"bf16": "bf", "address": "addr",
            # the low-precision floats: eXmY names the width (1 + X + Y bits, e8m0 has no sign), the
            # suffix what the format lacks: fn finite (no inf), fz finite with an unsigned zero (fnuz),
            # fu finite and unsigned (fnu), b11 the exponent bias 11 (and fnuz)
            "f8e3m4": "e3m4", "f8e4m3": "e4m3", "f8e4m3fn": "e4m3fn", "f8e4m3fnuz": "e4m3fz",
            "f8e4m3b11fnuz": "e4m3b11", "f8e5m2": "e5m2", "f8e5m2fnuz": "e5m2fz", "f8e8m0fnu": "e8m0fu",
            "f6e2m3fn": "e2m3fn", "f6e3m2fn": "e3m2fn", "f4e2m1fn": "e2m1fn"}
"""Codes shorter than the policy's spelling: the seeds' ``bf`` for bfloat16, and the low-precision
floats by exponent and mantissa bits, so that a table of 35 types fits a terminal in a few bands."""
FROM_CODE = {code: name for name, code in _COMPACT.items()}
"""A code back to the spelling it abbreviates (``--types`` takes the codes a table shows)."""


def compact(name: str) -> str:
    """The short code a table shows for a type the policy spells ``name``.

    Example:
        >>> compact("bf16"), compact("f8e4m3fn"), compact("i*")
        ('bf', 'e4m3fn', 'i*')
    """
    return _COMPACT.get(name, name)


def long_name(t: Hashable) -> str:
    """A type's full name for the legend: ``int8``, ``bfloat16``, ``weak int64`` (another label as is)."""
    if isinstance(t, Weak):
        return f"weak {t.dtype.name}"
    name = getattr(t, "name", None)
    return name if isinstance(name, str) else str(t)


@dataclass
class Grid:
    """The cells of a table as shown: column and row codes, each cell's :class:`GridCell`, and
    the legend (each code with its full name, then notes)."""

    columns: list[str]
    rows: list[tuple[str, list[GridCell]]]
    codes: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def code_names(self) -> dict[str, str]:
        return dict(self.codes)


def grid_of(table: PromotionTable, name: Callable[[Hashable], str], *,
            other_cells: "dict[tuple[Hashable, Hashable], str] | None" = None,
            explain: "Callable[[Hashable, Hashable], str] | None" = None, this: str = "", other: str = "",
            short: bool = True) -> Grid:
    """The grid of ``table``, its types spelled by ``name`` (through :func:`compact` when ``short``).

    With ``other_cells`` (another side's result for every cell, spelled), a cell in
    ``table.marks`` shows both results; ``explain`` gives each cell's tooltip.

    Example:
        >>> from latticecast import policy
        >>> jax = policy("jax")
        >>> g = grid_of(jax.table([jax.canonical(t) for t in ("i8", "bf16")]), jax.type_name)
        >>> g.columns, [c.text for c in g.rows[0][1]], g.codes
        (['i8', 'bf'], ['i8', 'bf'], [('i8', 'int8'), ('bf', 'bfloat16')])
    """
    spell = (lambda t: compact(name(t))) if short else name
    labels = list(dict.fromkeys([*table.rows, *table.columns]))
    codes = list(dict.fromkeys((spell(t), long_name(t)) for t in labels))
    rows = []
    for r in table.rows:
        cells = []
        for c in table.columns:
            value = table.cells[(r, c)]
            mine = UNDEFINED if value is None else spell(value)
            tip = explain(r, c) if explain is not None else ""
            if other_cells is not None and (r, c) in table.marks:
                theirs = other_cells[(r, c)]
                theirs = compact(theirs) if short else theirs
                kind = "diff refused" if UNDEFINED in (mine, theirs) else "diff"
                cells.append(GridCell(mine, kind, theirs, tip))
            else:
                cells.append(GridCell(mine, "undef" if value is None else "same", "", tip))
        rows.append((spell(r), cells))
    notes = [f"{UNDEFINED}: no promotion (the policy refuses the pair)"]
    if any(isinstance(t, Weak) for t in labels):
        notes.append("weak types (i*, f*, c*, ...) are Python scalars: they take the other operand's type where "
                     "the policy lets them")
    if other_cells is not None and table.marks:
        notes.insert(0, f"a differing cell shows {this}/{other}")
    return Grid([spell(c) for c in table.columns], rows, codes, notes)


def _shown(cell: GridCell) -> str:
    return f"{cell.text}/{cell.other}" if cell.kind.startswith("diff") else cell.text


def render_text(grid: Grid, width: int = DEFAULT_WIDTH) -> str:
    """The grid in bands of columns no wider than ``width``, then its legend.

    Example:
        >>> g = Grid(["a", "b"], [("x", [GridCell("1"), GridCell("22")])], [("a", "alpha"), ("b", "beta")])
        >>> print(render_text(g, 80), end="")
           a  b
        x  1 22
        a=alpha  b=beta
    """
    label_w = max((len(label) for label, _ in grid.rows), default=0)
    col_w = [max([len(c)] + [len(_shown(cells[j])) for _, cells in grid.rows]) for j, c in enumerate(grid.columns)]
    bands: list[list[int]] = []
    current: list[int] = []
    used = label_w
    for j, w in enumerate(col_w):
        if current and used + 1 + w > width:
            bands.append(current)
            current, used = [], label_w
        current.append(j)
        used += 1 + w
    if current:
        bands.append(current)
    lines: list[str] = []
    for b, band in enumerate(bands):
        if len(bands) > 1:
            if b:
                lines.append("")
            lines.append(f"(columns {band[0] + 1}-{band[-1] + 1} of {len(grid.columns)})")
        lines.append(" " * label_w + "".join(" " + grid.columns[j].rjust(col_w[j]) for j in band))
        for label, cells in grid.rows:
            lines.append(label.rjust(label_w) + "".join(" " + _shown(cells[j]).rjust(col_w[j]) for j in band))
    out = "\n".join(line.rstrip() for line in lines) + "\n"
    return out + "".join(line + "\n" for line in legend_lines(grid, width))


def legend_lines(grid: Grid, width: int = DEFAULT_WIDTH) -> list[str]:
    """Every code with its full name (``bf=bfloat16``), wrapped to ``width``, then the notes (codes
    that are their own full name are left out)."""
    named = [f"{code}={full.replace(' ', chr(0xa0))}" for code, full in grid.codes if code != full]
    lines = textwrap.wrap("  ".join(named), width, break_on_hyphens=False) if named else []
    for note in grid.notes:
        lines += textwrap.wrap(note, width, subsequent_indent="  ")
    return lines


def html_grid(grid: Grid, table_id: str) -> str:
    """The grid as the HTML table of :func:`~.html_page.grid_table` (headers' tooltips: full names)."""
    full = grid.code_names()
    return grid_table(grid.columns, grid.rows, table_id=table_id,
                      column_titles=[full.get(c, c) for c in grid.columns],
                      row_titles=[full.get(r, r) for r, _ in grid.rows])


def codes_shown(grids: Sequence[Grid]) -> list[tuple[str, str]]:
    """The codes of several grids, each once, in order."""
    return list(dict.fromkeys(pair for g in grids for pair in g.codes))
