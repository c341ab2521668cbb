"""What ``latticecast compare`` and ``latticecast retarget`` print: one report, as text (here) or as one
HTML page (:mod:`.html`).

A :class:`Report` is built once from a comparison (and, for ``retarget --run``, the numbers) and
holds everything both forms show: each op whose dtype differs or that a policy refuses, with the
Python line its frontend recorded and its MLIR line; the outputs that change; what lifting took
out; per output the dtypes, shapes and differences; and the first op where values differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlib.mlir import ir

from ..dialect_utils.diagnostics import Diagnostic
from ..passes.infer_types import Comparison
from .sources import SourceSite, source_sites

if TYPE_CHECKING:
    from ..passes.lift import LiftResult
    from ..promotion.tensor_type import TensorType
    from .run import RunComparison

__all__ = ["Entry", "Report", "build_report", "render_text", "short_type"]


@dataclass(frozen=True)
class Entry:
    """One op whose dtype differs between the two policies: its name, where it is, the dtype under each
    (``None`` where that policy refuses it) and, for a refusal, the policy's reason."""

    op: str
    site: SourceSite
    this: str | None
    other: str | None
    why_this: str | None = None
    why_other: str | None = None


@dataclass
class Report:
    """Everything ``compare`` and ``retarget`` show about one program (see the module docstring)."""

    source_name: str
    this: str
    other: str
    entries: list[Entry]
    outputs: list[tuple[str, list[str], list[str]]]
    lifted: "LiftResult | None" = None
    run: "RunComparison | None" = None
    first_site: SourceSite | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unjudged: str | None = None
    """Why nothing was compared (a program with nothing left to decide): the whole report, then."""

    @property
    def refused(self) -> int:
        return sum(1 for e in self.entries if e.this is None or e.other is None)


def short_type(spec: "TensorType") -> str:
    """``f32[5,8]``: a value's dtype (MLIR's spelling) and shape."""
    return f"{spec.dtype.mlir_name}[{','.join(str(d) for d in spec.shape)}]"


def build_report(comparison: Comparison, module: ir.Module, text: str | None, source_name: str, *,
                 lifted: "LiftResult | None" = None, run: "RunComparison | None" = None,
                 errors: "list[Diagnostic] | None" = None) -> Report:
    """The :class:`Report` of ``comparison`` (made on ``module``, read from ``text`` named ``source_name``).

    Args:
        comparison: The program under two policies.
        module: The module the comparison was made on (the lifted one, for ``--from``).
        text: The MLIR text it was read from (``None`` for bytecode).
        source_name: Its file name.
        lifted: What lifting took out, when the program was lifted.
        run: The numbers, for ``retarget --run``.
        errors: Where the target policy refuses the program (``retarget``).

    Returns:
        The report.
    """
    a, b = comparison.this.policy, comparison.other.policy
    ops = [c.op_ref for c in comparison.changes if c.op_ref is not None]
    first_op = run.first.op if run is not None and run.first is not None else None
    if first_op is not None:
        ops.append(first_op)
    sites = source_sites(ops, module, text, source_name)
    why_a: dict[ir.Operation | None, str] = {op: message for op, message in comparison.this.refusals}
    why_b: dict[ir.Operation | None, str] = {op: message for op, message in comparison.other.refusals}
    entries = []
    for c in comparison.changes:
        site = sites.get(c.op_ref) if c.op_ref is not None else None
        entries.append(Entry(c.op, site or SourceSite(c.location), None if c.this is None else a.type_name(c.this),
                             None if c.other is None else b.type_name(c.other), why_a.get(c.op_ref),
                             why_b.get(c.op_ref)))
    outputs = [(name, [a.type_name(t) for t in mine], [b.type_name(t) for t in theirs])
               for name, (mine, theirs) in comparison.outputs.items()]
    first = sites.get(first_op) if first_op is not None else None
    return Report(source_name, a.name, b.name, entries, outputs, lifted, run, first, list(errors or []))


def _site_lines(site: SourceSite, indent: str = "    ") -> list[str]:
    """The Python line and a caret under the recorded columns, indented; nothing without a Python line."""
    return [indent + line for line in site.caret()]


def _dtype(name: str | None, policy: str) -> str:
    return f"{policy} refuses it" if name is None else f"{policy} {name}"


def render_text(report: Report) -> str:
    """The report as text: an entry per op (its Python line with a caret under the expression, and its
    MLIR line), the outputs that change, a summary, then the numbers of a run.

    Args:
        report: The report.

    Returns:
        The text, ending in a newline.

    Example:
        >>> import latticecast as lc
        >>> r = lc.retarget('''func.func @main(%t: tensor<4xi32>) -> tensor<4xf64> {
        ...   %0 = stablehlo.convert %t : (tensor<4xi32>) -> tensor<4xf64>
        ...   %c = stablehlo.constant dense<5.000000e-01> : tensor<f64>
        ...   %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f64>) -> tensor<4xf64>
        ...   %2 = stablehlo.multiply %0, %1 : tensor<4xf64>
        ...   return %2 : tensor<4xf64>
        ... }''', from_="jax", to="torch", source_name="t.mlir")
        >>> print(render_text(build_report(r.comparison, r.lifted, r.text, "t.mlir", lifted=r.lift)))
        t.mlir:5:8: 'stablehlo.multiply': jax f64, torch f32
        @main outputs: jax (f64), torch (f32)
        1 op differs in dtype between jax and torch; lifted under jax: 1 convert, 1 weak literal
        <BLANKLINE>
    """
    if report.unjudged is not None:
        return report.unjudged + "\n"
    lines: list[str] = []
    for e in report.entries:
        site = e.site
        head = f"{site.where}: '{e.op}': {_dtype(e.this, report.this)}, {_dtype(e.other, report.other)}"
        if site.python is not None and site.mlir is not None:
            head += f"  [{site.mlir}]"
        lines.append(head)
        lines += _site_lines(site)
        for who, why in ((report.this, e.why_this), (report.other, e.why_other)):
            if why is not None:
                lines.append(f"    {who}: {' '.join(why.split())}")
    for name, mine, theirs in report.outputs:
        lines.append(f"@{name} outputs: {report.this} ({', '.join(mine)}), {report.other} ({', '.join(theirs)})")
    n = len(report.entries)
    summary = f"{n} op{' differs' if n == 1 else 's differ'} in dtype between {report.this} and {report.other}"
    if report.refused:
        summary += f" ({report.refused} refused)"
    if report.lifted is not None:
        k, w = report.lifted.lifted, report.lifted.literals
        summary += (f"; lifted under {report.this}: {k} convert{'' if k == 1 else 's'}, "
                    f"{w} weak literal{'' if w == 1 else 's'}")
    lines.append(summary)
    lines += report.notes
    if report.run is not None:
        lines += _run_lines(report)
    return "\n".join(lines) + "\n"


def _number(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.3g}"


def _run_lines(report: Report) -> list[str]:
    run = report.run
    assert run is not None
    lines = [f"ran both on the same inputs ({run.input_source}): "
             + ", ".join(short_type(_spec(a)) for a in run.inputs)]
    header = ("output", report.this, report.other, "max abs diff", "max rel diff", "differing")
    rows = [header] + [(o.name, short_type(o.source), short_type(o.target), _number(o.max_abs), _number(o.max_rel),
                        f"{o.differing}/{o.total}") for o in run.outputs]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    if run.first is not None:
        f = run.first
        site = report.first_site
        where = site.where if site is not None else "?"
        tail = f"  [{site.mlir}]" if site is not None and site.python is not None and site.mlir else ""
        lines.append(f"values first differ at {where}: '{f.name}' ({short_type(f.source)} under {report.this}, "
                     f"{short_type(f.target)} under {report.other}; {f.differing}/{f.total} elements, max abs diff "
                     f"{_number(f.max_abs)}, max rel diff {_number(f.max_rel)}){tail}")
        if site is not None:
            lines += _site_lines(site)
    elif run.unpaired is not None:
        lines.append(f"no op named where values first differ: {run.unpaired}")
    else:
        lines.append(f"no value differs: the {run.compared} ops of @main compute the same under both")
    return lines


def _spec(a: object) -> "TensorType":
    from .run import _spec as spec

    return spec(a)  # type: ignore[arg-type]
