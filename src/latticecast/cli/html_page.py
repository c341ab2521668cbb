"""The one HTML writer of latticecast's pages and tables: a standalone page, and the pieces in it.

Every HTML latticecast writes comes from here: ``latticecast table --format html`` (a policy's
table, or a comparison with ``--vs``), the documentation's policy tables and comparisons, and any
other command's report page. A page (:func:`page`) has a title, an optional summary, a legend and
sections; a table (:func:`grid_table`, :func:`list_table`) scrolls inside its own box with its
header row and first column sticky, so a 35 x 35 table never widens the page; a picture
(:func:`figure`) is inline SVG. The stylesheet is :data:`CSS`: a page carries it in its
``<style>``, the documentation once per page (:func:`style`).

Example:
    >>> html = page("t", [grid_table(["a"], [("x", [GridCell("1")])], table_id="g")])
    >>> html.startswith("<!DOCTYPE html>") and 'id="g"' in html and "position: sticky" in html
    True
"""

from __future__ import annotations

import html as _html
from dataclasses import dataclass
from typing import Sequence

__all__ = ["CSS", "GridCell", "page", "style", "grid_table", "list_table", "markup_table", "legend", "figure",
           "section", "row", "escape", "CELL_KINDS"]

escape = _html.escape

CELL_KINDS = ("same", "undef", "diff", "diff refused")
"""A cell's class: a result (``same``), a refusal (``undef``), and in a comparison a cell whose two
results differ (``diff``), or where one side refuses (``diff refused``)."""

CSS = """
.lc-page { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 1.5em;
  color: #222; max-width: 1400px; }
.lc-page h1 { font-size: 1.35em; margin: 0 0 .4em 0; }
.lc-page h2 { font-size: 1.1em; margin: 1.2em 0 .4em 0; }
.lc-scroll { overflow: auto; max-width: 100%; max-height: 75vh; border: 1px solid #ccc; margin: .5em 0 1em 0;
  display: inline-block; vertical-align: top; }
table.lc-grid, table.lc-list { border-collapse: separate; border-spacing: 0; font-family: ui-monospace,
  SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
table.lc-grid th, table.lc-grid td { border-right: 1px solid #ddd; border-bottom: 1px solid #ddd;
  padding: 2px 5px; text-align: center; white-space: nowrap; }
table.lc-grid thead th { position: sticky; top: 0; z-index: 2; background: #eef1f5; }
table.lc-grid tbody th { position: sticky; left: 0; z-index: 1; background: #eef1f5; text-align: right; }
table.lc-grid thead th:first-child { left: 0; z-index: 3; }
table.lc-list th, table.lc-list td { border-bottom: 1px solid #ddd; padding: 2px 10px; text-align: left;
  white-space: nowrap; }
table.lc-list thead th { position: sticky; top: 0; background: #eef1f5; }
td.same { background: #ffffff; }
td.undef { background: #eeeeee; color: #888; }
td.diff { background: #f4a261; font-weight: bold; }
td.diff.refused { background: #e76f51; color: #fff; }
td.diff .other { color: #1d3557; }
td.diff.refused .other { color: #fff; }
table.lc-grid td:hover { outline: 2px solid #264653; }
.lc-legend { margin: .3em 0 .8em 0; line-height: 1.9; }
.lc-legend .swatch { display: inline-block; padding: 0 8px; margin-right: 6px; border: 1px solid #ccc;
  font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.lc-legend .codes { font-size: 12px; color: #444; }
.lc-legend code { background: none; padding: 0; }
.lc-figures, .lc-row { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.lc-row > div { max-width: 100%; }
table.lc-list td.refused { color: #c0392b; }
figure.lc-figure { margin: .5em 0; max-width: 100%; overflow-x: auto; }
figure.lc-figure figcaption { font-weight: bold; margin-bottom: .4em; }
figure.lc-figure svg { max-width: 100%; height: auto; }
.lc-report { display: block; }
table.lc-markup { border-collapse: collapse; width: 100%; }
table.lc-markup th, table.lc-markup td { text-align: left; padding: .4rem .7rem; border-bottom: 1px solid #e6e8eb;
  vertical-align: top; }
table.lc-markup thead th { position: sticky; top: 0; background: #eef1f5; white-space: nowrap; }
.lc-page pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; margin: .25rem 0 0;
  white-space: pre-wrap; word-break: break-all; }
.lc-page mark { background: #ffe08a; border-radius: 2px; padding: 0 1px; }
.lc-page .where { color: #555; white-space: nowrap; } .lc-page .refused { color: #b00020; font-weight: 600; }
.lc-page .dtype { font-family: ui-monospace, monospace; white-space: nowrap; }
.lc-page .why { color: #555; font-size: 13px; margin-top: .25rem; }
.lc-page .num { display: block; text-align: right; font-variant-numeric: tabular-nums; }
.lc-page .ok { color: #1b7f3b; } .lc-page span.diff, .lc-page td.num.diff { color: #b00020; background: none; }
"""
"""The stylesheet of every page and table (``lc-`` classes; the cell kinds of :data:`CELL_KINDS`)."""


@dataclass(frozen=True)
class GridCell:
    """One cell of a grid: its text, its kind (:data:`CELL_KINDS`), the other side's text in a
    comparison, and a tooltip."""

    text: str
    kind: str = "same"
    other: str = ""
    title: str = ""


def style() -> str:
    """:data:`CSS` as a ``<style>`` element, for HTML that is not a whole :func:`page`."""
    return f"<style>{CSS}</style>"


def page(title: str, body: Sequence[str], *, summary: str = "") -> str:
    """A standalone HTML document: ``title`` as its title and heading, ``summary`` (HTML) under
    it, then the ``body`` parts (HTML) in order."""
    head = f'<p id="summary">{summary}</p>\n' if summary else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n{style()}</head>\n"
            f'<body class="lc-page">\n<h1>{escape(title)}</h1>\n{head}' + "\n".join(body) + "\n</body></html>\n")


def section(heading: str, *parts: str) -> str:
    """A heading and what follows it."""
    return f"<h2>{escape(heading)}</h2>\n" + "\n".join(parts)


def row(*parts: str) -> str:
    """Parts side by side where the page is wide enough, one under the other where it is not."""
    return '<div class="lc-row">' + "".join(f"<div>{p}</div>" for p in parts) + "</div>"


def grid_table(columns: Sequence[str], rows: Sequence[tuple[str, Sequence[GridCell]]], *, table_id: str = "",
               column_titles: Sequence[str] = (), row_titles: Sequence[str] = ()) -> str:
    """A table of results in its own scrolling box, the header row and the first column sticky.

    A ``diff`` cell shows both sides, ``this/other``; every cell carries ``data-row``,
    ``data-col``, ``data-this`` and ``data-other`` for scripts, and its ``title`` as a tooltip.
    ``column_titles`` and ``row_titles`` are the headers' tooltips (a code's full name).
    """
    ident = f' id="{escape(table_id)}"' if table_id else ""
    col_tips = list(column_titles) or [""] * len(columns)
    row_tips = list(row_titles) or [""] * len(rows)
    head = "".join(f'<th scope="col"{_tip(t)}>{escape(c)}</th>' for c, t in zip(columns, col_tips))
    body = []
    for (label, cells), tip in zip(rows, row_tips):
        tds = []
        for column, cell in zip(columns, cells):
            shown = (f'<span class="this">{escape(cell.text)}</span><span class="sep">/</span>'
                     f'<span class="other">{escape(cell.other)}</span>') if cell.kind.startswith("diff") \
                else escape(cell.text)
            other = cell.other if cell.kind.startswith("diff") else cell.text
            tds.append(f'<td class="{cell.kind}" data-row="{escape(label)}" data-col="{escape(column)}" '
                       f'data-this="{escape(cell.text)}" data-other="{escape(other)}"{_tip(cell.title)}>'
                       f"{shown}</td>")
        body.append(f'<tr><th scope="row"{_tip(tip)}>{escape(label)}</th>{"".join(tds)}</tr>')
    return (f'<div class="lc-scroll"><table class="lc-grid"{ident}><thead><tr><th></th>{head}</tr></thead>\n'
            f"<tbody>\n" + "\n".join(body) + "\n</tbody></table></div>")


def list_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, table_id: str = "") -> str:
    """Rows of text under a sticky header, in a scrolling box."""
    ident = f' id="{escape(table_id)}"' if table_id else ""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>\n" for row in rows)
    return (f'<div class="lc-scroll"><table class="lc-list"{ident}><thead><tr>{head}</tr></thead>\n'
            f"<tbody>\n{body}</tbody></table></div>")


def markup_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, table_id: str = "") -> str:
    """Rows whose cells are HTML already (a source line with a marked span, a dtype and why), under a
    sticky header, as wide as the page and scrolling inside its own box; the header is text."""
    ident = f' id="{escape(table_id)}"' if table_id else ""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>\n" for row in rows)
    return (f'<div class="lc-scroll lc-report"><table class="lc-markup"{ident}><thead><tr>{head}</tr></thead>\n'
            f"<tbody>\n{body}</tbody></table></div>")


def legend(swatches: Sequence[tuple[str, str, str]] = (), codes: Sequence[tuple[str, str]] = (),
           notes: Sequence[str] = ()) -> str:
    """A legend: coloured ``swatches`` (cell kind, sample text, meaning), then each type code and
    its full name, then ``notes`` (text)."""
    parts = [f'<span class="swatch {escape(kind)}" style="{_SWATCH.get(kind, "")}">{escape(sample)}</span>'
             f"{escape(meaning)} " for kind, sample, meaning in swatches]
    out = '<div class="lc-legend" id="legend">'
    if parts:
        out += "<div>" + " ".join(parts) + "</div>"
    if codes:
        out += ('<div class="codes">' + ", ".join(f"<code>{escape(c)}</code> {escape(n)}" for c, n in codes)
                + "</div>")
    for note in notes:
        out += f'<div class="codes">{escape(note)}</div>'
    return out + "</div>"


_SWATCH = {"same": "background:#fff", "undef": "background:#eee;color:#888", "diff": "background:#f4a261",
           "diff refused": "background:#e76f51;color:#fff"}


def figure(caption: str, svg: str) -> str:
    """An inline SVG picture with its caption."""
    start = svg.find("<svg")
    return (f'<figure class="lc-figure"><figcaption>{escape(caption)}</figcaption>'
            f"{svg[start:] if start >= 0 else svg}</figure>")


def _tip(text: str) -> str:
    return f' title="{escape(text)}"' if text else ""
