"""Pipeline text for ``latticecast-opt``: from short pass flags, and facts about a pipeline.

``--implicit-cast --policy max --canonicalize --cse`` becomes
``builtin.module(implicit-cast{policy=max},canonicalize,cse)``, in the order the
flags were given, as ``mlir-opt`` composes its pass flags. Building and running
the pipeline is :mod:`latticecast.passes.pipeline`'s job; this module only writes
the text, tells whether the first pass is ``implicit-cast`` (the one pass that
may see IR that does not verify), and turns MLIR's multi-line pipeline errors
into one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..passes.pipeline import PipelineError, split_pipeline

__all__ = ["PassFlag", "compose_pipeline", "first_pass_name", "one_line_error", "IMPLICIT_CAST"]

IMPLICIT_CAST = "implicit-cast"


@dataclass(frozen=True)
class PassFlag:
    """``--name`` or ``--name=options`` on the command line."""

    name: str
    options: str | None = None


def compose_pipeline(flags: Sequence[PassFlag], implicit_cast_defaults: Sequence[str] = ()) -> str:
    """``builtin.module(...)`` running ``flags`` in order. ``implicit_cast_defaults``
    (``policy=max`` ...) go before any options written on an ``--implicit-cast=...`` flag,
    so the flag's own options win."""
    elements = []
    for f in flags:
        options = [o for o in ([*implicit_cast_defaults] if f.name == IMPLICIT_CAST else []) + [f.options or ""]
                   if o]
        elements.append(f"{f.name}{{{' '.join(options)}}}" if options else f.name)
    return f"builtin.module({','.join(elements)})"


def _name(element: str) -> str:
    return re.split(r"[{(]", element, maxsplit=1)[0].strip()


def _elements(pipeline: str) -> list[str]:
    """The top-level passes of ``pipeline``, looking inside one ``builtin.module(...)``."""
    top = split_pipeline(pipeline.strip())
    if len(top) == 1 and _name(top[0]) == "builtin.module":
        inner = top[0][top[0].index("(") + 1:top[0].rindex(")")] if "(" in top[0] else ""
        return split_pipeline(inner)
    return top


def first_pass_name(pipeline: str) -> str | None:
    """The first pass ``pipeline`` runs, or ``None`` for an empty pipeline."""
    elements = _elements(pipeline)
    return _name(elements[0]) if elements else None


def is_empty(pipeline: str) -> bool:
    return not _elements(pipeline)


_PARSER_PREFIX = re.compile(r"^.*?:\d+:\d+: error: ")
_OPTIONS_PREFIX = re.compile(r"^<Pass-Options-Parser>: ")


def one_line_error(error: PipelineError | Exception) -> str:
    """MLIR's pipeline parser answers with several lines (the message, an echo of the text,
    a caret); keep the message lines and join them with '; '."""
    lines = [line.rstrip() for line in str(error).splitlines() if line.strip()]
    kept: list[str] = []
    for line in lines:
        if set(line.strip()) <= {"^", "~"}:  # the caret line: drop it and the echo above it
            if kept:
                kept.pop()
            continue
        kept.append(_OPTIONS_PREFIX.sub("", _PARSER_PREFIX.sub("", line)))
    return "; ".join(kept) if kept else str(error).strip()
