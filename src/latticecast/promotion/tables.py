"""Promotion tables as data: read from CSV or markdown, written as text, markdown, HTML or CSV.

A table maps an ordered pair of labels (row, column) to a result label, or to
``None`` where the promotion is undefined (``-`` in the seeds' tables). Labels are
plain strings here, so any table can be audited, including ones whose labels are
not latticecast dtypes.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Hashable, Iterable, Mapping, Sequence, TypeVar, cast

from ..errors import LatticecastError

__all__ = ["PromotionTable", "TableFormatError", "UNDEFINED"]

UNDEFINED = "-"
_UNDEFINED_SPELLINGS = {"-", "", "none", "undefined", "error", "x", "—"}


_L = TypeVar("_L", bound=Hashable)  # the labels a table is made from


class TableFormatError(LatticecastError, ValueError):
    """A table file that cannot be read; the message names the file and line."""


@dataclass
class PromotionTable:
    """Results of promoting each (row, column) pair; ``None`` where undefined.

    ``marks`` optionally flags cells (as the JAX docs shade the cells where JAX
    differs from NumPy); renderers show them.
    """

    rows: tuple[Hashable, ...]
    columns: tuple[Hashable, ...]
    cells: dict[tuple[Hashable, Hashable], Hashable | None]
    name: str = ""
    marks: set[tuple[Hashable, Hashable]] = field(default_factory=set)

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_function(cls, rows: Sequence[_L], columns: Sequence[_L] | None,
                      fn: Callable[[_L, _L], Hashable | None], name: str = "") -> "PromotionTable":
        cols = tuple(rows if columns is None else columns)
        return cls(tuple(rows), cols, {(r, c): fn(r, c) for r in rows for c in cols}, name)

    @classmethod
    def from_mapping(cls, mapping: "Mapping[_L, Hashable | None] | Mapping[_L, Mapping[_L, Hashable | None]]",
                     name: str = "") -> "PromotionTable":
        """From ``{(row, col): result}`` or ``{row: {col: result}}``; ``None``/``"-"`` is undefined."""
        cells: dict[tuple[Hashable, Hashable], Hashable | None] = {}
        rows: list[Hashable] = []
        cols: list[Hashable] = []
        for key, value in mapping.items():
            pairs: list[tuple[tuple[Hashable, Hashable], Hashable | None]]
            if isinstance(key, tuple):
                pairs = [(key, value)]
            else:
                pairs = [((key, c), v) for c, v in cast("Mapping[Hashable, Hashable | None]", value).items()]
            for (r, c), v in pairs:
                if r not in rows:
                    rows.append(r)
                if c not in cols:
                    cols.append(c)
                cells[(r, c)] = None if v is None or (isinstance(v, str) and v.strip().lower()
                                                      in _UNDEFINED_SPELLINGS) else v
        missing = [(r, c) for r in rows for c in cols if (r, c) not in cells]
        if missing:
            r, c = missing[0]
            raise TableFormatError(f"table {name or ''} has no cell for ({r}, {c}) "
                                   f"({len(missing)} cells missing); give '-' for undefined")
        return cls(tuple(rows), tuple(cols), cells, name)

    @classmethod
    def read(cls, path: "str | Path") -> "PromotionTable":
        """Read a CSV (``.csv``) or markdown / whitespace table file; ``#`` lines are comments."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise TableFormatError(f"{path}: cannot read table file: {e.strerror}") from None
        except UnicodeDecodeError:
            raise TableFormatError(f"{path}: not a text file (expected CSV or markdown)") from None
        return cls.parse(text, source=str(path), name=p.stem)

    @classmethod
    def parse(cls, text: str, *, source: str = "<table>", name: str = "") -> "PromotionTable":
        lines = [(i + 1, ln) for i, ln in enumerate(text.splitlines())
                 if ln.strip() and not ln.lstrip().startswith("#")]
        lines = [(i, ln) for i, ln in lines if not _is_markdown_rule(ln)]
        if not lines:
            raise TableFormatError(f"{source}: empty table")
        first = lines[0][1]
        split: Callable[[str], list[str]]
        if "|" in first:
            split = _split_markdown
        elif "," in first:
            split = _split_csv
        elif "\t" in first:
            split = lambda ln: [c.strip() for c in ln.split("\t")]  # noqa: E731
        else:
            split = lambda ln: ln.split()  # noqa: E731
        header = _fields(split, first, source, lines[0][0])
        if header and header[0] in ("", "Type", "type", "row\\col", "lhs\\rhs", "\\"):
            header = header[1:]
        columns = tuple(header)
        if not columns:
            raise TableFormatError(f"{source}:{lines[0][0]}: header row names no columns")
        if len(set(columns)) != len(columns):
            dup = next(c for c in columns if columns.count(c) > 1)
            raise TableFormatError(f"{source}:{lines[0][0]}: column {dup!r} appears twice")
        rows: list[str] = []
        seen: set[str] = set()
        cells: dict[tuple[Hashable, Hashable], Hashable | None] = {}
        for lineno, ln in lines[1:]:
            fields = _fields(split, ln, source, lineno)
            if len(fields) != len(columns) + 1:
                raise TableFormatError(
                    f"{source}:{lineno}: row has {len(fields) - 1} cells, the header has "
                    f"{len(columns)} columns"
                )
            label, values = fields[0], fields[1:]
            if label in seen:
                raise TableFormatError(f"{source}:{lineno}: row {label!r} appears twice")
            seen.add(label)
            rows.append(label)
            for col, v in zip(columns, values):
                cells[(label, col)] = None if v.strip().lower() in _UNDEFINED_SPELLINGS else v.strip()
        if not rows:
            raise TableFormatError(f"{source}: the table has a header but no rows")
        return cls(tuple(rows), columns, cells, name)

    # -- access -------------------------------------------------------------------------

    def __getitem__(self, key: tuple[Hashable, Hashable]) -> Hashable | None:
        return self.cells[key]

    @property
    def is_square(self) -> bool:
        return self.rows == self.columns

    def map_labels(self, fn: Callable[[Hashable], Hashable]) -> "PromotionTable":
        """The same table with every label and result passed through ``fn`` (e.g. a dtype parser)."""
        cache: dict[Hashable, Hashable] = {}

        def m(x: Hashable) -> Hashable:
            if x not in cache:
                cache[x] = fn(x)
            return cache[x]

        return PromotionTable(
            tuple(m(r) for r in self.rows), tuple(m(c) for c in self.columns),
            {(m(r), m(c)): None if v is None else m(v) for (r, c), v in self.cells.items()},
            self.name, {(m(r), m(c)) for r, c in self.marks},
        )

    def subtable(self, labels: Iterable[Hashable]) -> "PromotionTable":
        keep = tuple(labels)
        return PromotionTable(keep, keep, {(r, c): self.cells[(r, c)] for r in keep for c in keep},
                              self.name, {m for m in self.marks if m[0] in keep and m[1] in keep})

    def differences(self, other: "PromotionTable") -> list[tuple[Hashable, Hashable, Hashable | None, Hashable | None]]:
        """Cells (row, col, mine, theirs) that differ, over the rows and columns both tables have."""
        out = []
        for r in self.rows:
            for c in self.columns:
                if (r, c) in other.cells and self.cells[(r, c)] != other.cells[(r, c)]:
                    out.append((r, c, self.cells[(r, c)], other.cells[(r, c)]))
        return out

    # -- rendering ----------------------------------------------------------------------

    def _label(self, x: Hashable | None, namer: Callable[[Hashable], str]) -> str:
        return UNDEFINED if x is None else namer(x)

    def render(self, fmt: str = "text", namer: Callable[[Hashable], str] = str) -> str:
        """``text`` (aligned columns), ``markdown``, ``html`` or ``csv``; marked cells are flagged."""
        head = [namer(c) for c in self.columns]
        body = [[namer(r)] + [self._label(self.cells[(r, c)], namer) for c in self.columns]
                for r in self.rows]
        marked = [[(r, c) in self.marks for c in self.columns] for r in self.rows]
        if fmt == "csv":
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            w.writerow([""] + head)
            for row, flags in zip(body, marked):
                w.writerow([row[0]] + [v + ("*" if f else "") for v, f in zip(row[1:], flags)])
            return buf.getvalue()
        if fmt == "markdown":
            out = ["| | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
            for row, flags in zip(body, marked):
                cells = [f"**{v}**" if f else v for v, f in zip(row[1:], flags)]
                out.append(f"| **{row[0]}** | " + " | ".join(cells) + " |")
            return "\n".join(out) + "\n"
        if fmt == "html":
            import html  # here, not at the top: html.entities is a fifth of a small run's start-up overhead

            out = ['<table class="latticecast-promotion">',
                   "<tr><th></th>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
            for row, flags in zip(body, marked):
                tds = "".join(f'<td class="d">{html.escape(v)}</td>' if f else f"<td>{html.escape(v)}</td>"
                              for v, f in zip(row[1:], flags))
                out.append(f"<tr><td>{html.escape(row[0])}</td>{tds}</tr>")
            out.append("</table>")
            return "\n".join(out) + "\n"
        if fmt == "text":
            shown = [[v + ("*" if f else " ") for v, f in zip(row[1:], flags)]
                     for row, flags in zip(body, marked)]
            width = max([len(h) for h in head] + [len(v) for r in shown for v in r] +
                        [len(r[0]) for r in body]) + 1
            lines = [" " * width + "".join(h.rjust(width) for h in head)]
            for row, vals in zip(body, shown):
                lines.append(row[0].rjust(width) + "".join(v.rjust(width) for v in vals))
            text = "\n".join(line.rstrip() for line in lines) + "\n"
            if self.marks:
                text += "(* marks the cells that differ)\n"
            return text
        raise ValueError(f"unknown table format {fmt!r}; choose text, markdown, html or csv")


def _is_markdown_rule(line: str) -> bool:
    """A markdown header rule such as ``|---|:--:|`` or ``---|---``."""
    s = "".join(line.split()).replace("|", "").replace(":", "")
    return len(s) >= 3 and set(s) == {"-"}


def _split_markdown(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip().strip("*").strip() for c in s.split("|")]


def _fields(split: Callable[[str], list[str]], line: str, source: str, lineno: int) -> list[str]:
    """``split(line)``, with the CSV reader's own complaints (a field over its size limit, a stray
    quote) turned into a located :class:`TableFormatError`."""
    try:
        return split(line)
    except csv.Error as e:
        raise TableFormatError(f"{source}:{lineno}: not a readable CSV row ({e}); a promotion table's cells "
                               "are type names") from None


def _split_csv(line: str) -> list[str]:
    return [c.strip() for c in next(csv.reader([line]))]
