"""``--split-input-file``: cut the input at ``// -----`` lines into chunks processed one by one.

Unlike ``mlir-opt`` (whose chunks are buffers of their own, numbered from 1), each
chunk here is padded with the newlines that precede it, so the parser, the pass
and the verifier report line numbers of the whole file, and ``expected-*``
comments and ``--mlir-print-debuginfo`` locations agree with what an editor shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Chunk", "split_input", "SPLIT_MARKER", "OUTPUT_SEPARATOR"]

SPLIT_MARKER = "// -----"
OUTPUT_SEPARATOR = f"\n{SPLIT_MARKER}\n"  # what mlir-opt prints between the chunks' outputs
_MARKER_LINE = re.compile(r"^\s*// -----")


@dataclass(frozen=True)
class Chunk:
    """``text`` is the chunk padded to its place in the file; ``first_line`` its first real line."""

    text: str
    first_line: int


def split_input(text: str, enabled: bool = True) -> list[Chunk]:
    """The chunks of ``text`` (the whole text as one chunk when splitting is off)."""
    if not enabled:
        return [Chunk(text, 1)]
    chunks: list[Chunk] = []
    lines = text.split("\n")
    start = 0
    for index, line in enumerate(lines):
        if _MARKER_LINE.match(line):
            chunks.append(_chunk(lines, start, index))
            start = index + 1
    chunks.append(_chunk(lines, start, len(lines)))
    return chunks


def _chunk(lines: list[str], start: int, stop: int) -> Chunk:
    return Chunk("\n" * start + "\n".join(lines[start:stop]), start + 1)
