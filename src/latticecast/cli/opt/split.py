"""``--split-input-file``: cut the input at ``// -----`` lines into chunks processed one by one.

Each chunk is its own buffer, as in ``mlir-opt``, but it knows the line of the file
where it starts, so the parser, the passes and the verifier report line numbers of
the whole file (see :func:`latticecast.dialect_utils.parsing.parse_module`'s
``first_line``), and ``expected-*`` comments and ``--mlir-print-debuginfo``
locations agree with what an editor shows. Cutting is one pass over the lines:
the work is linear in the input, however many chunks there are.
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
    """``text`` is the chunk; ``first_line`` is the line of the file where it starts."""

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
            chunks.append(Chunk("\n".join(lines[start:index]), start + 1))
            start = index + 1
    chunks.append(Chunk("\n".join(lines[start:]), start + 1))
    return chunks
