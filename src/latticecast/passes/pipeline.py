"""Textual pass pipelines with latticecast's passes in them, parsed once into a :class:`Pipeline`.

MLIR's pipeline parser knows only passes registered in C++, so a pipeline such as
``builtin.module(implicit-cast{policy=max},canonicalize,cse)`` is parsed here: each
latticecast pass (:data:`PASSES`) is added to jaxlib's ``PassManager`` as a Python
pass with its options read into their dataclass, and each run of other elements is
handed to MLIR's own parser unchanged, so every upstream pass and option keeps
working and ordering is preserved. A pipeline string is parsed once; everything the
CLI and the library want to know about it (its first pass, whether it is empty) is
read off the parsed object.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Mapping, overload

from jaxlib.mlir import ir, passmanager

from ..dialect_utils.diagnostics import Diagnostic
from ..errors import LatticecastError, LatticecastWarning, PassFailure

from .base import LatticecastPass
from .implicit_cast import ImplicitCastPass
from .lift import LiftImplicitCastsPass
from .lower_dtypes import LowerDTypesPass
from .options import PassOptionError

__all__ = ["PipelineError", "Pipeline", "LatticecastPassManager", "PipelineElement", "PASSES", "run_pipeline", "build_pass_manager",
           "one_line_error"]

PASSES: Mapping[str, type[LatticecastPass]] = {p.argument: p for p in (ImplicitCastPass, LowerDTypesPass,
                                                                        LiftImplicitCastsPass)}
"""latticecast's passes, by the name a pipeline gives them."""

_ANCHOR = "builtin.module"
DEFAULT_PIPELINE = "builtin.module(implicit-cast)"
"""What :func:`run_pipeline` runs when given no pipeline."""


class LatticecastPassManager(passmanager.PassManager):
    """jaxlib's ``PassManager``, printed with latticecast's passes' options.

    MLIR prints a Python pass by its argument alone (``implicit-cast``), so ``print(pm)`` would
    lose ``policy=max`` and the printed pipeline would not reproduce the run. This one prints
    each latticecast pass as ``implicit-cast{policy=max diagnose-lossy=off lower-dtypes=true}``
    (every option, as MLIR prints upstream passes); :meth:`Pipeline.build` returns one.
    """

    latticecast_passes: "list[LatticecastPass]"

    def __str__(self) -> str:
        text = super().__str__()
        ours = iter(getattr(self, "latticecast_passes", ()))
        inner = text[len(_ANCHOR) + 1:-1] if text.startswith(_ANCHOR + "(") and text.endswith(")") else None
        if inner is None:
            return text
        elements = [repr(next(ours)) if part in PASSES else part for part in _split(inner, text)]
        return f"{_ANCHOR}({','.join(elements)})"


class PipelineError(LatticecastError, ValueError):
    """A pass pipeline that cannot be parsed or built; the message (one line) says where and why."""


@dataclass(frozen=True)
class PipelineElement:
    """One element of a pipeline: ``name{options}(nested)``, exactly as written."""

    name: str
    options: str
    nested: str | None
    text: str

    @property
    def is_ours(self) -> bool:
        return self.name in PASSES


@dataclass(frozen=True)
class Pipeline:
    """A parsed pipeline: the passes to run on a ``builtin.module``, in order."""

    elements: tuple[PipelineElement, ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> "Pipeline":
        """``builtin.module(a,b{x=1},c)`` or the bare list ``a,b{x=1},c``; raises :class:`PipelineError`."""
        if not isinstance(text, str):
            raise PipelineError(f"a pipeline is text such as 'builtin.module(implicit-cast)', not {text!r}")
        stripped = text.strip()
        top = [_element(p, text) for p in _split(stripped, text)]
        if len(top) == 1 and top[0].name == _ANCHOR:
            if top[0].options:
                raise PipelineError(f"{_ANCHOR} takes no options (in pipeline '{text}')")
            inner = top[0].nested or ""
            elements = tuple(_element(p, text) for p in _split(inner, text))
        elif any(e.name == _ANCHOR for e in top):
            raise PipelineError(f"'{_ANCHOR}(...)' must be the whole pipeline, not one element of it "
                                f"(in pipeline '{text}')")
        else:
            elements = tuple(top)
        for e in elements:
            if e.is_ours and e.nested is not None:
                raise PipelineError(f"{e.name} takes no nested pipeline ('{e.text}'); write the passes after it: "
                                    f"builtin.module({e.name}, {e.nested})")
            if not e.is_ours and e.nested is not None and any(n in e.nested for n in PASSES):
                raise PipelineError(
                    f"latticecast's passes run on the whole module; move them out of {e.name}(...) to the "
                    f"top level, e.g. builtin.module(implicit-cast, {e.name}(...))")
            if not e.name:
                raise PipelineError(f"empty pass name in pipeline '{text}'")
        return cls(elements, text)

    @classmethod
    def of(cls, text_or_pipeline: "str | Pipeline") -> "Pipeline":
        return text_or_pipeline if isinstance(text_or_pipeline, Pipeline) else cls.parse(text_or_pipeline)

    @property
    def is_empty(self) -> bool:
        return not self.elements

    @property
    def first_pass(self) -> str | None:
        return self.elements[0].name if self.elements else None

    @property
    def leaves_mixed_ir(self) -> bool:
        """Whether the pipeline's result may hold mixed-dtype ops: it has a pass that writes them
        (``lift-implicit-casts``) with no ``implicit-cast`` after it."""
        mixed = False
        for e in self.elements:
            kind = PASSES.get(e.name)
            if kind is not None and kind.writes_mixed_ir:
                mixed = True
            elif e.name == ImplicitCastPass.argument:
                mixed = False
        return mixed

    @property
    def writes_mixed_ir(self) -> bool:
        """Whether a pass of the pipeline writes mixed-dtype ops (``lift-implicit-casts``): then MLIR's
        verifier cannot run after every pass, only at the end, where ``implicit-cast`` ran last."""
        return any(e.is_ours and PASSES[e.name].writes_mixed_ir for e in self.elements)

    @property
    def pass_names(self) -> tuple[str, ...]:
        """The top-level elements' names, in order (``("implicit-cast", "canonicalize")``)."""
        return tuple(e.name for e in self.elements)

    def build(self, context: ir.Context) -> tuple[passmanager.PassManager, list[LatticecastPass]]:
        """A PassManager for this pipeline in ``context``, and latticecast's pass objects in it (whose
        ``diagnostics`` hold what they reported after a run)."""
        with context:
            pm = LatticecastPassManager(_ANCHOR)
        ours: list[LatticecastPass] = []
        pm.latticecast_passes = ours
        pending: list[str] = []

        def flush() -> None:
            if pending:
                joined = ",".join(pending)
                try:
                    with context:
                        pm.add(joined)
                except (ValueError, RuntimeError) as e:
                    raise PipelineError(one_line_error(str(e))) from None
                pending.clear()

        for e in self.elements:
            if not e.is_ours:
                pending.append(e.text)
                continue
            flush()
            kind = PASSES[e.name]
            try:
                p = kind(kind.Options.parse(e.options))
            except PassOptionError as err:
                raise PipelineError(f"{e.name}{{{e.options}}}: {err}") from None
            p.add_to(pm)
            ours.append(p)
        flush()
        return pm, ours

    def __str__(self) -> str:
        """The pipeline with each latticecast pass's options spelled out (``policy=jax`` included
        when it was left to its default), so that the text reproduces the run."""
        return f"{_ANCHOR}({','.join(_spelled_out(e) for e in self.elements)})"


def _spelled_out(element: PipelineElement) -> str:
    """A latticecast pass as ``name{every option}``; any other element as written."""
    if not element.is_ours:
        return element.text
    kind = PASSES[element.name]
    options = str(kind.Options.parse(element.options))
    return f"{element.name}{{{options}}}" if options else element.name


def build_pass_manager(pipeline: "str | Pipeline", context: ir.Context) -> tuple[passmanager.PassManager,
                                                                                 list[LatticecastPass]]:
    """``Pipeline.of(pipeline).build(context)``."""
    return Pipeline.of(pipeline).build(context)


@overload
def run_pipeline(module: "str | bytes", pipeline: "str | Pipeline" = ..., *, verify: bool = ...,
                 context: ir.Context | None = ..., source_name: str = ...) -> ir.Module: ...


@overload
def run_pipeline(module: "ir.Module | ir.Operation", pipeline: "str | Pipeline" = ..., *, verify: bool = ...,
                 context: ir.Context | None = ..., source_name: str = ...) -> list[LatticecastPass]: ...


def run_pipeline(module: "ir.Module | ir.Operation | str | bytes", pipeline: "str | Pipeline" = DEFAULT_PIPELINE, *,
                 verify: bool = True, context: ir.Context | None = None,
                 source_name: str = "-") -> "list[LatticecastPass] | ir.Module":
    """Run a pass pipeline on a module in place, in the module's own context (JAX's works too), or
    on MLIR text, which is parsed first (mixed-dtype ops in the generic form allowed).

    The passes' warnings are issued as Python warnings (:class:`~latticecast.LatticecastWarning`)
    as they run; all their diagnostics stay readable on the passes returned.

    Args:
        module: An ``ir.Module`` (or its operation): one of JAX's, or one parsed with ``jaxlib.mlir``;
            or MLIR text (``str``, or bytecode as ``bytes``), parsed with :func:`latticecast.parse`.
        pipeline: A :class:`Pipeline` or a textual pipeline such as
            ``"builtin.module(implicit-cast{policy=max},canonicalize)"`` (the outer
            ``builtin.module(...)`` may be left out); default ``implicit-cast`` with its defaults.
        verify: Run MLIR's verifier after each pass.
        context: For text only: the context to parse into (default: latticecast's lenient one).
        source_name: For text only: the file name its locations and errors give it.

    Returns:
        For a module: the latticecast passes of the pipeline, as run (with their diagnostics).
        For text: the resulting ``ir.Module``.

    Raises:
        PipelineError: The pipeline text does not parse, or names an unknown pass or option.
        MLIRParseError: The text does not parse.
        PassFailure: A pass, or the verifier after it, rejected the module; ``diagnostics`` has its
            errors (``file:line:col: error: ...``).

    Example:
        >>> import jax
        >>> import jax.numpy as jnp
        >>> import latticecast as lc
        >>> module = jax.jit(lambda x: x + 1).lower(jnp.ones(2, jnp.int8)).compiler_ir("stablehlo")
        >>> passes = lc.run_pipeline(module, "implicit-cast{policy=max},canonicalize")
        >>> len(passes)
        1
        >>> "stablehlo.add" in str(module)     # legal StableHLO: implicit-cast leaves it as it is
        True
        >>> text = '''func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = "stablehlo.multiply"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>
        ...   return %0 : tensor<2xf32>
        ... }'''
        >>> print(lc.run_pipeline(text, "implicit-cast{policy=jax}"))
        module {
          func.func @f(%arg0: tensor<2xi8>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
            %0 = stablehlo.convert %arg0 : (tensor<2xi8>) -> tensor<2xf32>
            %1 = stablehlo.multiply %0, %arg1 : tensor<2xf32>
            return %1 : tensor<2xf32>
          }
        }
        <BLANKLINE>
    """
    parsed = None
    if isinstance(module, (str, bytes, bytearray, memoryview)):
        from ..dialect_utils.parsing import parse

        parsed = parse(module if isinstance(module, str) else bytes(module), context=context, source_name=source_name)
        module = parsed
    if not hasattr(module, "operation"):  # duck-typed: another copy of the MLIR bindings works too
        raise PipelineError(f"run_pipeline takes an ir.Module, an ir.Operation or MLIR text, not "
                            f"{type(module).__name__}; parse text with latticecast.parse(text)")
    op = module.operation
    parsed_pipeline = Pipeline.of(pipeline)
    pm, ours = parsed_pipeline.build(op.context)
    pm.enable_verifier(verify and not parsed_pipeline.writes_mixed_ir)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LatticecastWarning)
        try:
            pm.run(op)
            if verify and parsed_pipeline.writes_mixed_ir and not parsed_pipeline.leaves_mixed_ir:
                op.verify()
        except ir.MLIRError as e:
            raise _failure(e, str(parsed_pipeline)) from None
    for w in caught:  # the passes' warnings, attributed to the caller of run_pipeline
        warnings.warn(w.message, w.category, stacklevel=2)
    return parsed if parsed is not None else ours


def _failure(e: ir.MLIRError, pipeline: str) -> PassFailure:
    """The :class:`PassFailure` for jaxlib's error: each diagnostic as ``file:line:col: error: ...``."""
    diags = [Diagnostic.from_mlir(d).format() for d in e.error_diagnostics] or [str(e)]
    return PassFailure(f"pipeline {pipeline!r} failed:\n  " + "\n  ".join(diags), diags)


# -- the parser -------------------------------------------------------------------------------

_PAIRS = {"(": ")", "{": "}", "[": "]", "<": ">"}


def _split(text: str, whole: str) -> list[str]:
    """Split at top-level commas (commas inside (), {}, [] and quotes stay)."""
    parts: list[str] = []
    stack: list[str] = []
    start = 0
    quoted = False
    for i, ch in enumerate(text):
        if quoted:
            if ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch in "({[":
            stack.append(_PAIRS[ch])
        elif ch in ")}]":
            if not stack or stack.pop() != ch:
                raise PipelineError(f"unbalanced '{ch}' at position {i} of pipeline '{whole}'")
        elif ch == "," and not stack:
            parts.append(text[start:i].strip())
            start = i + 1
    if stack or quoted:
        raise PipelineError(f"unbalanced brackets in pipeline '{whole}'")
    last = text[start:].strip()
    if last:
        parts.append(last)
    if any(not p for p in parts):
        raise PipelineError(f"empty element in pipeline '{whole}' (two commas in a row?)")
    return parts


def _element(text: str, whole: str) -> PipelineElement:
    name_end = len(text)
    for i, ch in enumerate(text):
        if ch in "{(":
            name_end = i
            break
    name = text[:name_end].strip()
    rest = text[name_end:].strip()
    options, nested = "", None
    if rest.startswith("{"):
        close = _matching(rest, whole)
        options, rest = rest[1:close], rest[close + 1:].strip()
    if rest.startswith("("):
        close = _matching(rest, whole)
        nested, rest = rest[1:close], rest[close + 1:].strip()
    if rest:
        raise PipelineError(f"unexpected '{rest}' after pass '{name}' in pipeline '{whole}'")
    if any(c.isspace() for c in name):
        raise PipelineError(f"'{name}' is not a pass name (in pipeline '{whole}')")
    return PipelineElement(name, options, nested, text)


def _matching(text: str, whole: str) -> int:
    """The index of the bracket closing ``text[0]``."""
    closing = _PAIRS[text[0]]
    depth = 0
    for i, ch in enumerate(text):
        if ch == text[0]:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return i
    raise PipelineError(f"unbalanced brackets in pipeline '{whole}'")


def one_line_error(message: "str | BaseException") -> str:
    """MLIR's pipeline parser answers with several lines (the message, an echo of the text, a
    caret); keep the message lines, joined with '; '."""
    import re

    message = str(message)
    prefix, options = re.compile(r"^.*?:\d+:\d+: error: "), re.compile(r"^<Pass-Options-Parser>: ")
    kept: list[str] = []
    for line in (ln.rstrip() for ln in message.splitlines() if ln.strip()):
        if set(line.strip()) <= {"^", "~"}:  # the caret line: drop it and the echo above it
            if kept:
                kept.pop()
            continue
        kept.append(options.sub("", prefix.sub("", line)))
    return "; ".join(kept) if kept else message.strip()
