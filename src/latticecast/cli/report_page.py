"""A :class:`~latticecast.retargeting.report.Report` as one HTML page: ``compare --format html`` and
``retarget --format html``.

One self-contained page (no script, no external file): a title and a summary, the table of ops that
differ with each one's Python line (the recorded columns highlighted) and MLIR line, the outputs
that change, and for a run the numeric table and the first op where values differ. The page, its
sections and tables come from latticecast's one HTML writer (:mod:`latticecast.cli.html_page`);
this module says what goes in them.
"""

from __future__ import annotations

from ..retargeting.report import Report, _number, short_type
from ..retargeting.sources import SourceSite
from .html_page import escape, markup_table, page, section

__all__ = ["render_html"]

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
        report: The report (:func:`~latticecast.retargeting.report.build_report`).

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
    title = f"{report.source_name}: {report.this} vs {report.other}"
    if report.unjudged is not None:
        return page(title, [], summary=escape(report.unjudged))
    body: list[str] = []
    n = len(report.entries)
    summary = f"{n} op{' differs' if n == 1 else 's differ'} in dtype between {report.this} and {report.other}"
    if report.refused:
        summary += f" ({report.refused} refused)"
    if report.lifted is not None:
        summary += (f"; lifted under {report.this}: {report.lifted.lifted} converts, "
                    f"{report.lifted.literals} weak literals")
    summary_html = escape(summary) + "."
    if report.entries:
        rows = []
        for e in report.entries:
            why = "".join(f'<div class="why">{escape(who)}: {escape(" ".join(w.split()))}</div>'
                          for who, w in ((report.this, e.why_this), (report.other, e.why_other)) if w)
            rows.append([f"<code>{escape(e.op)}</code>", _source(e.site), _dtype(e.this), _dtype(e.other) + why])
        body.append(section("Ops that differ", markup_table(("op", "source", report.this, report.other), rows)))
    if report.outputs:
        out_rows = [[f"<code>@{escape(name)}</code>", f'<span class="dtype">{escape(", ".join(mine))}</span>',
                     f'<span class="dtype">{escape(", ".join(theirs))}</span>'] for name, mine, theirs in report.outputs]
        body.append(section("Outputs that change", markup_table(("function", report.this, report.other), out_rows)))
    if report.errors:
        items = "".join(f"<li><code>{escape(d.format())}</code></li>" for d in report.errors)
        body.append(section(f"Refused by {report.other}", f"<ul>{items}</ul>"))
    if report.run is not None:
        body += _run(report)
    for note in report.notes:
        body.append(f"<p>{escape(note)}</p>")
    return page(title, body, summary=summary_html)


def _run(report: Report) -> list[str]:
    run = report.run
    assert run is not None
    rows = []
    for o in run.outputs:
        cls = "ok" if o.differing == 0 else "diff"
        rows.append([f"<code>{escape(o.name)}</code>", f'<span class="dtype">{escape(short_type(o.source))}</span>',
                     f'<span class="dtype">{escape(short_type(o.target))}</span>',
                     f'<span class="num">{_number(o.max_abs)}</span>', f'<span class="num">{_number(o.max_rel)}</span>',
                     f'<span class="num {cls}">{o.differing}/{o.total}</span>'])
    out = [section("Run on the same inputs", f"<p>Inputs {escape(run.input_source)}.</p>",
                   markup_table(("output", report.this, report.other, "max abs diff", "max rel diff", "differing"),
                                rows))]
    if run.first is not None:
        f = run.first
        site = report.first_site or SourceSite(None)
        out.append("<h2>Where values first differ</h2>" + f"<p><code>{escape(f.name)}</code>: "
                   f"<span class=\"dtype\">{escape(short_type(f.source))}</span> under {escape(report.this)}, "
                   f"<span class=\"dtype\">{escape(short_type(f.target))}</span> under {escape(report.other)}; "
                   f"{f.differing}/{f.total} elements differ, max abs diff {_number(f.max_abs)}, "
                   f"max rel diff {_number(f.max_rel)}.</p>{_source(site)}")
    elif run.unpaired is not None:
        out.append(f"<p>No op named where values first differ: {escape(run.unpaired)}.</p>")
    else:
        out.append(f"<p class=\"ok\">No value differs: the {run.compared} ops of @main compute the same.</p>")
    return out
