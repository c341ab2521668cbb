"""``--verify-diagnostics``: check diagnostics against ``// expected-*`` comments, as MLIR does.

The rules are those of MLIR's ``SourceMgrDiagnosticVerifierHandler``, so tests
written for ``mlir-opt`` read the same here:

* ``expected-(error|warning|remark|note)(-re)? *(@(+N|-N|above|below|unknown))? *{{message}}``
  anywhere on a line; the message runs from the first ``{{`` to the ``}}`` that
  ends the line.
* With no ``@``, the diagnostic is expected on the comment's own line; ``@+N`` and
  ``@-N`` count lines from it; ``@above`` is the last line above that is not itself
  an ``expected-*`` line, ``@below`` the next such line below; ``@unknown`` matches
  diagnostics without a file location.
* A plain message matches a diagnostic that *contains* it. With ``-re`` the parts
  inside ``{{...}}`` are regular expressions and the rest is literal text.
* Every diagnostic (notes included) must match an expectation on its line with
  the same severity, and every expectation must be matched. One expectation may
  match several identical diagnostics, as in MLIR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from ...dialect_utils.diagnostics import Diagnostic

__all__ = ["Expected", "ExpectationSet", "parse_expectations", "verify_diagnostics"]

_DESIGNATOR = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$")


@dataclass
class Expected:
    """One ``expected-*`` comment: what it wants and where it was written."""

    severity: str
    line: int  # the line the diagnostic is expected on (1-based); 0 for @unknown
    written_line: int
    written_col: int
    text: str
    regex: re.Pattern[str] | None = None
    unknown: bool = False
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message


@dataclass
class ExpectationSet:
    """The expectations of one buffer, and the problems found while reading them."""

    file: str
    expected: list[Expected] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _compile(text: str) -> re.Pattern[str]:
    """``literal {{regex}} literal``: literal parts escaped, regex parts grouped (MLIR's
    ``ExpectedDiag::computeRegex``). Raises ``ValueError`` with MLIR's wording."""
    out: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            out.append(re.escape(rest))
            break
        out.append(re.escape(rest[:start]))
        rest = rest[start + 2:]
        end = rest.find("}}")
        if end < 0:
            raise ValueError("found start of regex with no end '}}'")
        part = rest[:end]
        try:
            re.compile(part)
        except re.error as e:
            raise ValueError(f"invalid regex: {e}") from None
        out.append(f"({part})")
        rest = rest[end + 2:]
    return re.compile("".join(out))


def parse_expectations(text: str, file: str, first_line: int = 1) -> ExpectationSet:
    """Read the ``expected-*`` comments of ``text``, one buffer whose first line is line
    ``first_line`` of ``file`` (a chunk of ``--split-input-file``)."""
    result = ExpectationSet(file)
    lines = text.split("\n")
    shift = first_line - 1
    last_plain = 0  # 0-based index of the last line that is not a designator
    waiting: list[Expected] = []  # @below designators looking for their line
    for index, raw in enumerate(lines):
        m = _DESIGNATOR.search(raw.rstrip())
        if m is None:
            for e in waiting:
                e.line = index + 1
            waiting.clear()
            last_plain = index
            continue
        severity, is_re, offset, body = m.group(1), m.group(2), m.group(4), m.group(5)
        e = Expected(severity, index + 1, index + 1, m.start() + 1, body)
        if is_re:
            try:
                e.regex = _compile(body)
            except ValueError as err:
                result.problems.append(f"{file}:{index + 1 + shift}:{m.start() + 1}: error: {err}")
                continue
        if offset is not None:
            if offset[0] in "+-":
                e.line += int(offset)
            elif offset == "unknown":
                e.unknown, e.line = True, 0
            elif offset == "above":
                e.line = last_plain + 1
            else:  # below: the next plain line; a dangling one points past the end
                e.line = len(lines)
                waiting.append(e)
        result.expected.append(e)
    if shift:
        for e in result.expected:
            e.written_line += shift
            if not e.unknown:
                e.line += shift
    return result


def verify_diagnostics(diags: Iterable[Diagnostic], expectations: ExpectationSet) -> list[str]:
    """The mismatches between ``diags`` and ``expectations``, as MLIR reports them; empty when
    every diagnostic was expected and every expectation was met."""
    report = list(expectations.problems)
    for top in diags:
        for d in top.flattened():
            report.extend(_process(d, expectations))
    for e in expectations.expected:
        if not e.matched:
            where = f"{expectations.file}:{e.written_line}:{e.written_col}: "
            report.append(f"{where}error: expected {e.severity} \"{e.text}\" was not produced")
    return report


def _process(d: Diagnostic, expectations: ExpectationSet) -> list[str]:
    if d.file is None:
        candidates = [e for e in expectations.expected if e.unknown]
    elif d.file == expectations.file:
        candidates = [e for e in expectations.expected if not e.unknown and e.line == d.line]
    else:
        candidates = []
    near_miss: Expected | None = None
    for e in candidates:
        if e.matches(d.message):
            if e.severity == d.severity:
                e.matched = True
                return []
            near_miss = e
    if near_miss is not None:
        where = f"{expectations.file}:{near_miss.written_line}:{near_miss.written_col}"
        return [f"{where}: error: '{d.severity}' diagnostic emitted when expecting a '{near_miss.severity}'"]
    unexpected = Diagnostic("error", f"unexpected {d.severity}: {d.message}", d.file, d.line, d.col)
    return [unexpected.format()]
