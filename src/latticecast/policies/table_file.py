"""Reading a CSV promotion table for a user-defined policy: ``Policy.from_table("my.csv")``.

The file is a square table. The header row names the columns, the first column names the rows,
and each cell is the type that row and column promote to, or empty (or ``-``) where there is no
promotion::

    # my.csv: int8 and uint8 meet at int16; floats stay apart from integers
    ,bool,int8,uint8,int16,float32
    bool,bool,int8,uint8,int16,float32
    int8,int8,int8,int16,int16,
    uint8,uint8,int16,uint8,int16,
    int16,int16,int16,int16,int16,
    float32,float32,,,,float32

- Names are latticecast's (``int8``, ``i8``, ``bf16``, ``float8_e4m3fn``: anything
  ``DType.parse`` reads, in bits: ``i8`` is int8), and weak types (Python scalars) are
  ``i*``, ``f*``, ``c*`` (or anvil's ``i32?``). ``latticecast table --policy P --format csv``
  writes a table in this format, so a built-in policy can be exported, edited and loaded back.
- The rows may come in another order than the columns, but name the same types; every result is
  one of them; the table is symmetric (``a . b`` is ``b . a``). Lines starting with ``#`` are
  comments. The corner cell is empty or a label that is not a type (``lhs\\rhs``).
- A file that breaks a rule raises :class:`~latticecast.promotion.tables.TableFormatError`, one line with
  ``file:line:col`` and the fix: not UTF-8, an unknown type, a row of the wrong length, a
  table that is not square, an asymmetric pair, a result that is not one of the table's types.

This module reads and checks the file (:func:`read_table_file`, nothing here is a policy); the
policy is :class:`~latticecast.policies.base.CsvTablePolicy`. It decides every pair by looking it up,
refuses where the cell is empty (naming the cell), and leaves the rest to the defaults of
:class:`~latticecast.Policy`: a Python int is the table's weak int (``i*``) where it has one
(and refused where it has none), a weak value on its own materialises as its dtype (the widest
of its kind in the table if the table lacks that one). A table says nothing about true
division: ``/`` of integers is refused (a :class:`~latticecast.DomainError`; ``//`` and the
``stablehlo.divide`` the pass sees divide integers as integers). Whether the table is a lattice
is for ``latticecast audit --policy-file my.csv`` to say.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ..promotion.dtypes import DType, UnknownDTypeError, valid_dtype_names
from ..promotion.tables import PromotionTable, TableFormatError
from ..promotion.weak import PType, Weak, parse_ptype, ptype_name

__all__ = ["TableFile", "Position", "read_table_file"]

_EMPTY = {"", "-"}
Position = tuple[int, int]


@dataclass(frozen=True, eq=False)
class TableFile:
    """A checked policy table: ``types`` in the header's order (``dtypes`` and ``weak_types`` split),
    the square, symmetric ``table`` over them, each cell's ``(line, column)`` in ``positions``, and
    ``path`` as the user wrote it."""

    path: str
    name: str
    dtypes: tuple[DType, ...]
    weak_types: tuple[Weak, ...]
    table: PromotionTable
    positions: Mapping[tuple[PType, PType], Position]


def read_table_file(path: "str | os.PathLike[str]") -> TableFile:
    """The checked table in the CSV file ``path`` (see the module); raises
    :class:`~latticecast.promotion.tables.TableFormatError` naming ``file:line:col`` and the fix. A file is read
    once while it is unchanged (the CLI checks it before the pipeline that names it reads it again)."""
    p = Path(path)
    try:
        stat = p.stat()
        key = (str(p.resolve()), stat.st_mtime_ns, stat.st_size, str(path))
    except OSError as e:
        raise TableFormatError(f"{path}: cannot read the policy table: {e.strerror or e}") from None
    found = _LOADED.get(key)
    if found is None:
        found = _LOADED[key] = _load(p, str(path))
    return found


_LOADED: dict[tuple[object, ...], TableFile] = {}


def _load(p: Path, shown: str) -> TableFile:
    try:
        data = p.read_bytes()
    except OSError as e:
        raise TableFormatError(f"{shown}: cannot read the policy table: {e.strerror or e}") from None
    reader = _Reader(shown)
    rows = _rows(_decode(data, shown), reader, shown)
    columns, column_at = _header(rows[0], reader)
    cells, positions, row_at = _body(rows[1:], columns, reader)
    _check_square(column_at, row_at, reader)
    _check_closed(cells, positions, set(columns), reader)
    _check_symmetric(cells, positions, columns, reader)
    return TableFile(shown, p.name, tuple(t for t in columns if isinstance(t, DType)),
                     tuple(t for t in columns if isinstance(t, Weak)),
                     PromotionTable(tuple(columns), tuple(columns), dict(cells.items()), p.name), positions)


_Row = tuple[int, list[tuple[str, int]]]
"""A row of the file: its line number and its cells, each with its column."""


def _rows(text: str, reader: _Reader, shown: str) -> list[_Row]:
    """The rows that are not blank or comments; at least one (the header)."""
    rows = [(n, fields) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")
            for fields in [reader.split(line, n)]]
    if not rows:
        raise TableFormatError(f"{shown}:1:1: empty policy table; write a header row of type names "
                               "(',int8,int16'), then one row per type")
    return rows


def _header(row: _Row, reader: _Reader) -> tuple[list[PType], dict[PType, Position]]:
    """The column types the header names, each once, and where each is named."""
    header_line, header = row
    corner, corner_col = header[0]
    if corner and _try_parse(corner) is not None:
        raise reader.error(header_line, corner_col,
                           f"the header starts with the type {corner!r}, but its first cell is the corner above "
                           "the row names; start the header with a comma (',int8,...')")
    columns: list[PType] = []
    column_at: dict[PType, Position] = {}
    for label, col in header[1:]:
        t = reader.parse(label, header_line, col)
        if t in column_at:
            line, first_col = column_at[t]
            raise reader.error(header_line, col, f"column {label!r} is the type of column {line}:{first_col} again; "
                                                 "name each type once")
        columns.append(t)
        column_at[t] = (header_line, col)
    if not columns:
        raise reader.error(header_line, 1, "the header names no types; write ',int8,int16,...'")
    return columns, column_at


def _body(rows: list[_Row], columns: list[PType], reader: _Reader) -> tuple[
        dict[tuple[PType, PType], PType | None], dict[tuple[PType, PType], Position], dict[PType, Position]]:
    """Each row's cells (``None``: empty, no promotion), where each cell is, and where each row is named."""
    cells: dict[tuple[PType, PType], PType | None] = {}
    positions: dict[tuple[PType, PType], Position] = {}
    row_at: dict[PType, Position] = {}
    for line, fields in rows:
        label, label_col = fields[0]
        r = reader.parse(label, line, label_col)
        if r in row_at:
            raise reader.error(line, label_col, f"row {label!r} is the type of the row on line {row_at[r][0]} "
                                                "again; name each type once")
        row_at[r] = (line, label_col)
        if len(fields) != len(columns) + 1:
            where = fields[len(columns) + 1][1] if len(fields) > len(columns) + 1 else reader.end(line)
            raise reader.error(line, where, f"row {label!r} has {len(fields) - 1} cells, the header has "
                                            f"{len(columns)} columns; give one cell per column (empty: no promotion)")
        for c, (value, col) in zip(columns, fields[1:]):
            positions[(r, c)] = (line, col)
            cells[(r, c)] = None if value in _EMPTY else reader.parse(value, line, col)
    return cells, positions, row_at


def _check_square(column_at: dict[PType, Position], row_at: dict[PType, Position], reader: _Reader) -> None:
    """Every column has a row and every row a column."""
    missing = [c for c in column_at if c not in row_at]
    if missing:
        line, col = column_at[missing[0]]
        raise reader.error(line, col, f"column {ptype_name(missing[0])} has no row; the table must be square: add "
                                      f"a row for each column ({len(missing)} missing)")
    extra = [r for r in row_at if r not in column_at]
    if extra:
        line, col = row_at[extra[0]]
        raise reader.error(line, col, f"row {ptype_name(extra[0])} has no column; the table must be square: add a "
                                      f"column for each row ({len(extra)} missing)")


def _check_closed(cells: dict[tuple[PType, PType], PType | None], positions: dict[tuple[PType, PType], Position],
                  known: set[PType], reader: _Reader) -> None:
    """Every result is one of the table's types."""
    for (r, c), v in cells.items():
        if v is not None and v not in known:
            line, col = positions[(r, c)]
            raise reader.error(line, col, f"{ptype_name(v)} is not one of the table's types; add a row and a column "
                                          f"for it, or promote {ptype_name(r)} and {ptype_name(c)} to one of them")


def _check_symmetric(cells: dict[tuple[PType, PType], PType | None],
                     positions: dict[tuple[PType, PType], Position], columns: list[PType], reader: _Reader) -> None:
    """``a . b`` is ``b . a``; the later of two cells that differ is the one reported."""
    def show(v: PType | None) -> str:
        return "empty" if v is None else ptype_name(v)

    for i, a in enumerate(columns):
        for b in columns[i:]:
            if cells[(a, b)] != cells[(b, a)]:
                first, second = sorted([(a, b), (b, a)], key=lambda k: positions[k])
                line, col = positions[second]
                raise reader.error(line, col, f"{ptype_name(second[0])} . {ptype_name(second[1])} is "
                                              f"{show(cells[second])} but {ptype_name(first[0])} . "
                                              f"{ptype_name(first[1])} at {positions[first][0]}:"
                                              f"{positions[first][1]} is {show(cells[first])}; a promotion table "
                                              "is symmetric: make the two cells the same")


def _decode(data: bytes, shown: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise TableFormatError(f"{shown}:{line}:{col}: not UTF-8 (byte 0x{data[e.start]:02x}); save the table as "
                               "UTF-8 text") from None


def _try_parse(text: str) -> PType | None:
    try:
        return parse_ptype(text)
    except UnknownDTypeError:
        return None


class _Reader:
    """Splits CSV lines into cells with their columns, and makes located errors."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lengths: dict[int, int] = {}

    def error(self, line: int, col: int, message: str) -> TableFormatError:
        return TableFormatError(f"{self.source}:{line}:{col}: {message}")

    def end(self, line: int) -> int:
        return self.lengths.get(line, 0) + 1

    def split(self, line: str, n: int) -> list[tuple[str, int]]:
        """``line``'s cells, stripped, each with the 1-based column where it starts (quotes as in CSV)."""
        self.lengths[n] = len(line)
        out: list[tuple[str, int]] = []
        i = 0
        while True:
            start = i
            while i < len(line) and line[i] in " \t":
                i += 1
            col = i + 1
            if i < len(line) and line[i] == '"':
                j = i + 1
                value = []
                while True:
                    if j >= len(line):
                        raise self.error(n, col, "a quote that is never closed; close it or remove it")
                    if line[j] == '"':
                        if j + 1 < len(line) and line[j + 1] == '"':
                            value.append('"')
                            j += 2
                            continue
                        break
                    value.append(line[j])
                    j += 1
                i = j + 1
                while i < len(line) and line[i] != ",":
                    if line[i] not in " \t":
                        raise self.error(n, i + 1, "text after a closing quote; put it inside the quotes")
                    i += 1
                out.append(("".join(value).strip(), col))
            else:
                j = line.find(",", i)
                j = len(line) if j < 0 else j
                out.append((line[i:j].strip(), col if line[i:j].strip() else start + 1))
                i = j
            if i >= len(line):
                return out
            i += 1  # the comma

    def parse(self, text: str, line: int, col: int) -> PType:
        if not text:
            raise self.error(line, col, "a row or column needs a type name here")
        try:
            return parse_ptype(text)
        except UnknownDTypeError:
            import difflib  # only for an error's suggestion (start-up)

            close = difflib.get_close_matches(text, valid_dtype_names(), n=1)
            fix = f"did you mean {close[0]}?" if close else (
                f"use a dtype name ({', '.join(valid_dtype_names()[:9])}, ...) or a weak type (i*, f*, c*)")
            raise self.error(line, col, f"unknown type {text!r}; {fix}") from None
