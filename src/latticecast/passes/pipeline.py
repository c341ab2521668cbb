"""Textual pass pipelines with ``implicit-cast`` in them, run by jaxlib's PassManager.

MLIR's pipeline parser knows only passes registered in C++, so a pipeline such as
``builtin.module(implicit-cast{policy=max},canonicalize,cse)`` is split here: our
pass is added as a Python pass (``PassManager.add(callable)``), and each run of
other elements is handed to MLIR's own parser unchanged, so every upstream pass
and option keeps working and ordering is preserved.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxlib.mlir import ir, passmanager

from .implicit_cast import ImplicitCastPass
from .options import ImplicitCastOptions, PassOptionError

__all__ = ["PipelineError", "build_pass_manager", "split_pipeline", "run_pipeline"]


class PipelineError(ValueError):
    """A pass pipeline that cannot be parsed or built; the message says where and why."""


@dataclass(frozen=True)
class _Element:
    name: str
    options: str  # inside {...}, without braces
    nested: str | None  # inside (...), without parentheses
    text: str


def split_pipeline(text: str) -> list[str]:
    """Split a comma-separated pipeline at the top level (commas inside () and {} stay)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"unbalanced '{ch}' at position {i} of pipeline {text!r}")
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth != 0:
        raise PipelineError(f"unbalanced brackets in pipeline {text!r}")
    last = text[start:].strip()
    if last:
        parts.append(last)
    return [p for p in parts if p]


def _element(text: str) -> _Element:
    name_end = len(text)
    for i, ch in enumerate(text):
        if ch in "{(":
            name_end = i
            break
    name = text[:name_end].strip()
    rest = text[name_end:].strip()
    options, nested = "", None
    if rest.startswith("{"):
        close = _matching(rest, 0)
        options, rest = rest[1:close], rest[close + 1:].strip()
    if rest.startswith("("):
        close = _matching(rest, 0)
        nested, rest = rest[1:close], rest[close + 1:].strip()
    if rest:
        raise PipelineError(f"unexpected {rest!r} after pass {name!r}")
    return _Element(name, options, nested, text)


def _matching(text: str, start: int) -> int:
    pairs = {"{": "}", "(": ")"}
    depth = 0
    for i in range(start, len(text)):
        if text[i] in pairs:
            depth += 1
        elif text[i] in pairs.values():
            depth -= 1
            if depth == 0:
                return i
    raise PipelineError(f"unbalanced brackets in {text!r}")


def build_pass_manager(pipeline: str, context: ir.Context) -> tuple[passmanager.PassManager, list[ImplicitCastPass]]:
    """A PassManager for ``pipeline`` (``builtin.module(...)`` or a bare list of passes)."""
    text = pipeline.strip()
    top = split_pipeline(text)
    if len(top) == 1 and _element(top[0]).name == "builtin.module":
        inner = _element(top[0]).nested or ""
    else:
        inner = text
    with context:
        pm = passmanager.PassManager("builtin.module")
    ours: list[ImplicitCastPass] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            joined = ",".join(pending)
            try:
                with context:
                    pm.add(joined)
            except ValueError as e:
                raise PipelineError(str(e).strip()) from None
            pending.clear()

    for part in split_pipeline(inner):
        el = _element(part)
        if el.name == "implicit-cast":
            flush()
            try:
                p = ImplicitCastPass(ImplicitCastOptions.parse(el.options))
            except (PassOptionError, KeyError, ValueError) as e:
                raise PipelineError(f"implicit-cast{{{el.options}}}: {e}") from None
            p.add_to(pm)
            ours.append(p)
        else:
            if el.nested is not None and "implicit-cast" in el.nested:
                raise PipelineError(
                    f"implicit-cast runs on the whole module; move it out of {el.name}(...) to the top "
                    f"level, e.g. builtin.module(implicit-cast, {el.name}(...))")
            pending.append(part)
    flush()
    return pm, ours


def run_pipeline(module: "ir.Module | ir.Operation", pipeline: str, *, verify: bool = True) -> list[ImplicitCastPass]:
    """Run ``pipeline`` on ``module`` in place; raises ``ir.MLIRError`` with the diagnostics on failure."""
    op = module.operation if hasattr(module, "operation") else module
    pm, ours = build_pass_manager(pipeline, op.context)
    pm.enable_verifier(verify)
    pm.run(op)
    return ours
