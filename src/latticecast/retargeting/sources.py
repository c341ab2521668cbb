"""Where an op came from: its line in the MLIR file, and the Python line its frontend recorded.

JAX records the user's Python file, line and columns in every op's ``loc``
(``loc("jit(f)/mul"(callsite("f"("model.py":12:8 to :15) at ...)))``, printed with
``lowered.as_text(debug_info=True)``); a module printed without them has only the parser's
``file:line:col`` of the MLIR text. MLIR keeps one location per op, so when the module carries
the frontend's locations its own lines are found by reading the text again without them
(:func:`~latticecast.dialect_utils.parsing.strip_locations`) and pairing the ops in program order.
"""

from __future__ import annotations

import linecache
import re
from dataclasses import dataclass
from typing import Iterable

from jaxlib.mlir import ir

from ..dialect_utils.context import make_context
from ..dialect_utils.diagnostics import caret_under, location_parts
from ..dialect_utils.parsing import parse_module, strip_locations

__all__ = ["SourceSite", "source_sites"]

_SPAN = re.compile(r'"(?:[^"\\]|\\.)*":(\d+):(\d+) to (\d+)?:(\d+)')


@dataclass(frozen=True)
class SourceSite:
    """An op's places: ``mlir`` (``file:line:col`` in the MLIR input), ``python`` (``file:line`` the
    frontend recorded, or ``None``), the Python ``line`` of source text and the ``span`` of columns it
    points at (first, last; 1-based) when the file is readable here."""

    mlir: str | None
    python: str | None = None
    line: str | None = None
    span: tuple[int, int] | None = None

    @property
    def where(self) -> str:
        """The place a reader looks first: the Python line where there is one, else the MLIR line."""
        return self.python or self.mlir or "<unknown>"

    def caret(self) -> list[str]:
        """:attr:`line` with a caret under the recorded columns (``^~~~``); the line alone without
        columns; nothing without a line."""
        if self.line is None:
            return []
        if self.span is None:
            return [self.line.expandtabs(8)]
        return caret_under(self.line, *self.span)


def source_sites(ops: Iterable[ir.Operation], module: ir.Module, text: str | None, source_name: str,
                 skip: frozenset[str] = frozenset({"stablehlo.convert"})) -> dict[ir.Operation, SourceSite]:
    """The :class:`SourceSite` of each of ``ops`` (ops of ``module``, which was parsed from ``text``,
    named ``source_name``, and may since have lost or gained ops named in ``skip``: lifting takes
    converts out, so ops are paired by their place among the others).

    Args:
        ops: The ops to place.
        module: The module they belong to.
        text: The MLIR text ``module`` was read from (``None``: bytecode, whose lines are unknown).
        source_name: The file name of ``text``.
        skip: Op names left out of the pairing.

    Returns:
        The sites, by op.
    """
    wanted = list(ops)
    sites: dict[ir.Operation, SourceSite] = {}
    need_lines = []
    for op in wanted:
        parts = location_parts(op.location)
        python = None
        line = span = None
        if parts is not None and parts[0] != source_name:
            python = f"{parts[0]}:{parts[1]}"
            line, span = _python_line(op.location, parts)
        mlir = f"{parts[0]}:{parts[1]}:{parts[2]}" if parts is not None and parts[0] == source_name else None
        if mlir is None:
            need_lines.append(op)
        sites[op] = SourceSite(mlir, python, line, span)
    if need_lines and text is not None:
        lines = _mlir_lines(module, text, source_name, need_lines, skip)
        for op, where in lines.items():
            s = sites[op]
            sites[op] = SourceSite(where, s.python, s.line, s.span)
    return sites


def _python_line(loc: ir.Location, parts: tuple[str, int, int]) -> tuple[str | None, tuple[int, int] | None]:
    """The source line of a Python location, and the columns its span covers."""
    file, line, col = parts
    text = linecache.getline(file, line)
    if not text:
        return None, None
    text = text.rstrip("\n")
    m = _SPAN.search(str(loc))
    last = col
    if m is not None and int(m.group(1)) == line and int(m.group(2)) == col and m.group(3) in (None, str(line)):
        last = max(int(m.group(4)) - 1, col)
    return text, (col + 1 if _zero_based(loc) else col, last + 1 if _zero_based(loc) else last)


def _zero_based(loc: ir.Location) -> bool:
    """JAX writes Python's 0-based column offsets (``f.py":3:26 to :33`` covers columns 27-33); MLIR's
    own locations are 1-based. A location from Python has a call-site or a name around it."""
    return str(loc).startswith(("loc(callsite(", 'loc("')) and '"(' in str(loc)


def _mlir_lines(module: ir.Module, text: str, source_name: str, ops: list[ir.Operation],
                skip: frozenset[str]) -> dict[ir.Operation, str]:
    """The MLIR ``file:line:col`` of ``ops``: ``text`` read again without its locations, paired with
    ``module`` op for op in program order (ops named in ``skip`` left out of both)."""
    try:
        plain = parse_module(strip_locations(text), make_context(lenient=True), lenient=True, source_name=source_name)
    except Exception:  # noqa: BLE001 - a text whose locations cannot be stripped: no MLIR lines, said so
        return {}
    wanted = {op: None for op in ops}
    found: dict[ir.Operation, str] = {}

    def order(root: ir.Operation) -> list[ir.Operation]:
        out: list[ir.Operation] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name not in skip:
                out.append(op)
            return ir.WalkResult.ADVANCE

        root.walk(visit, ir.WalkOrder.PRE_ORDER)
        return out

    mine, theirs = order(module.operation), order(plain.operation)
    if len(mine) != len(theirs):
        return {}
    for a, b in zip(mine, theirs):
        if a in wanted and a.name == b.name:
            parts = location_parts(b.location)
            if parts is not None:
                found[a] = f"{parts[0]}:{parts[1]}:{parts[2]}"
    return found
