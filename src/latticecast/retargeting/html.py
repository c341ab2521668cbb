"""A :class:`~.report.Report` as one HTML page: ``compare --format html`` and ``retarget --format html``.

One self-contained page (no script, no external file): a title and a summary, the table of ops that
differ with each one's Python line (the recorded columns highlighted) and MLIR line, the outputs
that change, and for a run the numeric table and the first op where values differ. Every table form
of the command line is to be written by one HTML writer; this module is the whole of the report's
HTML, so that it moves onto that writer in one place.
"""

from __future__ import annotations

from html import escape

from .report import Report, _number, short_type
from .sources import SourceSite

__all__ = ["render_html"]

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 78rem; padding: 0 1.5rem; color: #1d1f21; }
h1 { font-size: 1.45rem; margin-bottom: .2rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
p.summary { color: #444; margin-top: 0; }
.table { overflow-x: auto; border: 1px solid #d8dadd; border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .45rem .7rem; border-bottom: 1px solid #e6e8eb; vertical-align: top; }
th { position: sticky; top: 0; background: #f3f4f6; font-weight: 600; white-space: nowrap; }
code, pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { margin: .25rem 0 0; white-space: pre-wrap; word-break: break-all; }
mark { background: #ffe08a; border-radius: 2px; padding: 0 1px; }
.where { color: #555; white-space: nowrap; } .refused { color: #b00020; font-weight: 600; }
.dtype { font-family: ui-monospace, monospace; white-space: nowrap; }
.why { color: #555; font-size: 13px; margin-top: .25rem; } .num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #1b7f3b; } .diff { color: #b00020; }
"""


def _dtype(name: str | None) -> str:
    return '<span class="refused">refused</span>' if name is None else f'<span class="dtype">{escape(name)}</span>'


def _source(site: SourceSite) -> str:
    """The Python line with the recorded columns marked, the places under it."""
    parts = []
    if site.line is not None:
        line = site.line
        if site.span is not None:
            first, last = site.span
            a, b = max(first - 1, 0), max(last, first)
            line_html = escape(line[:a]) + "<mark>" + escape(line[a:b]) + "</mark>" + escape(line[b:])
        else:
            line_html = escape(line)
        parts.append(f"<pre>{line_html}</pre>")
    places = [escape(p) for p in (site.python, site.mlir) if p]
    parts.append(f'<div class="where">{" &middot; ".join(places) or "no location"}</div>')
    return "".join(parts)


def render_html(report: Report) -> str:
    """The report as one HTML page.

    Args:
        report: The report (:func:`~.report.build_report`).

    Returns:
        The page.

    Example:
        >>> import latticecast as lc
        >>> from latticecast.retargeting.report import build_report
        >>> r = lc.retarget('''func.func @main(%t: tensor<4xi32>) -> tensor<4xf64> {
        ...   %0 = stablehlo.convert %t : (tensor<4xi32>) -> tensor<4xf64>
        ...   %c = stablehlo.constant dense<5.000000e-01> : tensor<f64>
        ...   %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f64>) -> tensor<4xf64>
        ...   %2 = stablehlo.multiply %0, %1 : tensor<4xf64>
        ...   return %2 : tensor<4xf64>
        ... }''', from_="jax", to="torch", source_name="t.mlir")
        >>> page = render_html(build_report(r.comparison, r.lifted, r.text, "t.mlir", lifted=r.lift))
        >>> page.startswith("<!DOCTYPE html>") and "stablehlo.multiply" in page
        True
    """
    title = f"{escape(report.source_name)}: {escape(report.this)} vs {escape(report.other)}"
    body: list[str] = [f"<h1>{title}</h1>"]
    if report.unjudged is not None:
        body.append(f'<p class="summary">{escape(report.unjudged)}</p>')
        return _page(title, body)
    n = len(report.entries)
    summary = f"{n} op{' differs' if n == 1 else 's differ'} in dtype between {report.this} and {report.other}"
    if report.refused:
        summary += f" ({report.refused} refused)"
    if report.lifted is not None:
        summary += (f"; lifted under {report.this}: {report.lifted.lifted} converts, "
                    f"{report.lifted.literals} weak literals")
    body.append(f'<p class="summary">{escape(summary)}.</p>')
    if report.entries:
        rows = []
        for e in report.entries:
            why = "".join(f'<div class="why">{escape(who)}: {escape(" ".join(w.split()))}</div>'
                          for who, w in ((report.this, e.why_this), (report.other, e.why_other)) if w)
            rows.append(f"<tr><td><code>{escape(e.op)}</code></td><td>{_source(e.site)}</td>"
                        f"<td>{_dtype(e.this)}</td><td>{_dtype(e.other)}{why}</td></tr>")
        body.append(_table(("op", "source", escape(report.this), escape(report.other)), rows, "Ops that differ"))
    if report.outputs:
        rows = [f"<tr><td><code>@{escape(name)}</code></td><td class=\"dtype\">{escape(', '.join(mine))}</td>"
                f"<td class=\"dtype\">{escape(', '.join(theirs))}</td></tr>" for name, mine, theirs in report.outputs]
        body.append(_table(("function", escape(report.this), escape(report.other)), rows, "Outputs that change"))
    if report.errors:
        items = "".join(f"<li><code>{escape(d.format())}</code></li>" for d in report.errors)
        body.append(f"<h2>Refused by {escape(report.other)}</h2><ul>{items}</ul>")
    if report.run is not None:
        body += _run(report)
    for note in report.notes:
        body.append(f"<p>{escape(note)}</p>")
    return _page(title, body)


def _run(report: Report) -> list[str]:
    run = report.run
    assert run is not None
    out = [f"<h2>Run on the same inputs</h2><p class=\"summary\">Inputs {escape(run.input_source)}.</p>"]
    rows = []
    for o in run.outputs:
        cls = "ok" if o.differing == 0 else "diff"
        rows.append(f"<tr><td><code>{escape(o.name)}</code></td><td class=\"dtype\">{escape(short_type(o.source))}</td>"
                    f"<td class=\"dtype\">{escape(short_type(o.target))}</td><td class=\"num\">{_number(o.max_abs)}</td>"
                    f"<td class=\"num\">{_number(o.max_rel)}</td>"
                    f"<td class=\"num {cls}\">{o.differing}/{o.total}</td></tr>")
    out.append(_table(("output", escape(report.this), escape(report.other), "max abs diff", "max rel diff",
                       "differing"), rows, None))
    if run.first is not None:
        f = run.first
        site = report.first_site or SourceSite(None)
        out.append(f"<h2>Where values first differ</h2><p><code>{escape(f.name)}</code>: "
                   f"<span class=\"dtype\">{escape(short_type(f.source))}</span> under {escape(report.this)}, "
                   f"<span class=\"dtype\">{escape(short_type(f.target))}</span> under {escape(report.other)}; "
                   f"{f.differing}/{f.total} elements differ, max abs diff {_number(f.max_abs)}, "
                   f"max rel diff {_number(f.max_rel)}.</p>{_source(site)}")
    elif run.unpaired is not None:
        out.append(f"<p>No op named where values first differ: {escape(run.unpaired)}.</p>")
    else:
        out.append(f"<p class=\"ok\">No value differs: the {run.compared} ops of @main compute the same.</p>")
    return out


def _table(header: tuple[str, ...], rows: list[str], caption: str | None) -> str:
    head = "".join(f"<th>{h}</th>" for h in header)
    title = f"<h2>{caption}</h2>" if caption else ""
    return f'{title}<div class="table"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


def _page(title: str, body: list[str]) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>{_STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
