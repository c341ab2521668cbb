"""The one way latticecast runs a :class:`~.pipeline.Pipeline`: :class:`PipelineRunner`.

The graph (``Graph.module``), :func:`run_pipeline` and ``latticecast-opt`` all run their passes
here. A runner builds the pipeline once into jaxlib's ``PassManager`` (latticecast's passes as
Python passes with their options objects, each run of MLIR's own passes through MLIR's parser) and
runs it on one module after another. A run returns the diagnostics the passes reported; a failure
(a pass, or the verifier after it) raises :class:`~latticecast.errors.PassFailure`, with every error
located, so no ``MLIRError`` leaves this module.

The verifier follows ``mlir-opt``'s invariant: every pass but ``implicit-cast`` sees IR that verifies.
A pipeline with ``lift-implicit-casts`` (which writes mixed-dtype ops) is verified at its end instead,
where an ``implicit-cast`` after the lift has made the IR legal again. As MLIR's pass manager skips the
verifier after a pass that preserved all analyses, a runner told that the module verified as parsed
(``latticecast-opt``, :func:`run_pipeline` on text) verifies it after a pipeline of one latticecast
pass only when the pass changed it (:attr:`~.base.PassResult.changed`): a legal module is verified
once, by the parser.
"""

from __future__ import annotations

import importlib
import re
import warnings
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Sequence

from jaxlib.mlir import ir, passmanager

from ..dialect_utils.diagnostics import Diagnostic
from ..errors import LatticecastWarning, PassFailure
from .base import LatticecastPass
from .options import PassOptions
from .pipeline import ANCHOR, DEFAULT_PIPELINE, MLIRPass, Pipeline, PipelineError, element_text

__all__ = ["PASSES", "PipelineRunner", "PipelineResult", "run_pipeline", "build_pass_manager", "one_line_error",
           "merge_diagnostics"]

class _PassClasses(Mapping[str, "type[LatticecastPass]"]):
    """latticecast's pass classes by name, each module imported when its pass is first looked up: a
    pipeline of ``implicit-cast`` alone does not load the lift (``latticecast-opt``'s start-up)."""

    _WHERE = {"implicit-cast": (".implicit_cast", "ImplicitCastPass"),
              "lower-dtypes": (".lower_dtypes", "LowerDTypesPass"),
              "lift-implicit-casts": (".lift", "LiftImplicitCastsPass")}

    def __getitem__(self, name: str) -> type[LatticecastPass]:
        module, cls = self._WHERE[name]
        found: type[LatticecastPass] = getattr(importlib.import_module(module, __package__), cls)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._WHERE)

    def __len__(self) -> int:
        return len(self._WHERE)


PASSES: Mapping[str, type[LatticecastPass]] = _PassClasses()
"""latticecast's passes, by the name a pipeline gives them (each class's ``argument``)."""


def build_pass_manager(pipeline: Pipeline, context: ir.Context) -> tuple[passmanager.PassManager,
                                                                         list[LatticecastPass]]:
    """A PassManager for ``pipeline`` in ``context``, and latticecast's pass objects in it.

    Args:
        pipeline: The pipeline.
        context: The context the modules it runs on live in.

    Returns:
        The PassManager, and the latticecast passes in it (whose ``diagnostics`` hold what they
        reported after a run).

    Raises:
        PipelineError: MLIR does not know one of the pipeline's other passes, or an option of it.

    Example:
        >>> from latticecast.dialect_utils.context import make_context
        >>> pm, ours = build_pass_manager(Pipeline.parse("implicit-cast,cse"), make_context())
        >>> [p.argument for p in ours]
        ['implicit-cast']
    """
    with context:
        pm = passmanager.PassManager(ANCHOR)
    ours: list[LatticecastPass] = []
    for run in _runs(pipeline):
        if isinstance(run, PassOptions):
            p = PASSES[run.pass_name](run)
            p.add_to(pm)
            ours.append(p)
            continue
        try:
            with context:
                pm.add(",".join(str(e) for e in run))
        except (ValueError, RuntimeError) as e:
            raise PipelineError(one_line_error(str(e))) from None
    return pm, ours


def _runs(pipeline: Pipeline) -> "Iterable[PassOptions | list[MLIRPass]]":
    """The pipeline's latticecast passes one by one, and its MLIR passes in runs (MLIR parses a run at once)."""
    pending: list[MLIRPass] = []
    for e in pipeline.elements:
        if isinstance(e, MLIRPass):
            pending.append(e)
            continue
        if pending:
            yield pending
            pending = []
        yield e
    if pending:
        yield pending


class PipelineRunner:
    """A pipeline built once into a PassManager, run on one module after another.

    Args:
        pipeline: What to run.
        context: The context of the modules it will run on.
        verify_each: Run MLIR's verifier after each pass (``mlir-opt --verify-each``).
        verify_input: Verify the module before the pipeline, unless its first pass is ``implicit-cast``
            (whose job is to make mixed-dtype IR legal), so that every other pass sees IR that verifies.

    Example:
        >>> import latticecast as lc
        >>> from latticecast.passes import Pipeline, PipelineRunner
        >>> module = lc.parse('''func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>
        ...   return %0 : tensor<2xf32>
        ... }''')
        >>> runner = PipelineRunner(Pipeline.parse("implicit-cast{policy=jax}"), module.context)
        >>> runner.run(module.operation)
        []
        >>> "stablehlo.convert" in str(module)
        True
    """

    def __init__(self, pipeline: Pipeline, context: ir.Context, *, verify_each: bool = True,
                 verify_input: bool = False) -> None:
        self.pipeline = pipeline
        self.pm, self.passes = build_pass_manager(pipeline, context)
        self.context = context
        mixed = pipeline.writes_mixed_ir
        self.verify_each = verify_each and not mixed
        self.pm.enable_verifier(self.verify_each)
        self.verify_at_end = verify_each and mixed and not pipeline.leaves_mixed_ir
        first = pipeline.elements[0] if pipeline.elements else None
        self.verify_input = verify_input and not (isinstance(first, PassOptions) and first.makes_ir_legal)

    @property
    def verified(self) -> bool:
        """Whether what a run leaves has been verified (by the verifier after each pass, or at the end)."""
        return self.verify_each or self.verify_at_end or (self.pipeline.is_empty and self.verify_input)

    def run(self, op: ir.Operation, *, source_name: str | None = None, verified: bool = False,
            unmarked: bool = False) -> list[Diagnostic]:
        """Run the pipeline on ``op`` (a ``builtin.module``) in place.

        Args:
            op: The module's operation.
            source_name: The file name errors give a module parsed from ``"-"`` (standard input).
            verified: ``op`` verifies as it is now (MLIR's parser verified it, and nothing changed it
                since). Then the verifier after a pipeline of one latticecast pass runs only when the
                pass changed the IR (:attr:`~.base.PassResult.changed`), as MLIR's pass manager skips it
                after a pass that preserved all analyses: a legal module is verified once, not twice.
            unmarked: With ``verified``: no op or function of ``op`` carries a latticecast marker
                (:attr:`~latticecast.dialect_utils.parsing.Parsed.unmarked`). ``implicit-cast`` then has
                nothing to do, and does not walk the module.

        Returns:
            What latticecast's passes reported (warnings, remarks), in order.

        Raises:
            PassFailure: The input did not verify, or a pass or the verifier after it rejected the module;
                its ``located`` has every error, the passes' own first.
        """
        for p in self.passes:
            p.diagnostics.clear()
            p.results.clear()
        skip = verified and self.verify_each and len(self.passes) == 1 and len(self.pipeline.elements) == 1
        try:
            if self.verify_input and not verified:
                op.verify()
            if skip:  # the verifier after the one pass: only if it changed the module
                self.pm.enable_verifier(False)
                self.passes[0].input_verified = True
                self.passes[0].input_unmarked = unmarked
                try:
                    self.pm.run(op)
                finally:
                    self.pm.enable_verifier(True)
                    self.passes[0].input_verified = self.passes[0].input_unmarked = False
                if any(r.changed for r in self.passes[0].results) or not self.passes[0].results:
                    op.verify()
            elif not self.pipeline.is_empty:
                self.pm.run(op)
            if self.verify_at_end:
                op.verify()
        except ir.MLIRError as e:
            errors = [Diagnostic.from_mlir(d, source_name) for d in e.error_diagnostics]
            located = merge_diagnostics(self._reported(), errors)
            shown = [d.format() for d in errors] or [" ".join(str(e).split())]
            raise PassFailure(f"pipeline '{self}' failed:\n  " + "\n  ".join(shown), shown, located) from None
        return self._reported()

    def _reported(self) -> list[Diagnostic]:
        return [d for p in self.passes for d in p.diagnostics]

    def close(self) -> None:
        """Release the PassManager, which prints its timing report (``--mlir-timing``) as it goes."""
        del self.pm

    def __str__(self) -> str:
        """The pipeline as built: latticecast's passes from their options' fields, MLIR's passes as MLIR
        prints them (every option with its value), as ``mlir-opt --dump-pass-pipeline`` shows it."""
        parts = []
        for run in _runs(self.pipeline):
            if isinstance(run, PassOptions):
                parts.append(element_text(run))
                continue
            with self.context:
                built = passmanager.PassManager(ANCHOR)
                built.add(",".join(str(e) for e in run))
            printed = str(built)
            parts.append(printed[len(ANCHOR) + 1:-1])  # MLIR prints the run inside its anchor
        return f"{ANCHOR}({','.join(parts)})"


@dataclass
class PipelineResult:
    """What :func:`run_pipeline` did.

    Attributes:
        module: The module the pipeline ran on: the one given (changed in place), or the one parsed
            from the text given.
        passes: latticecast's passes in the pipeline, as they ran.
        diagnostics: What they reported (warnings, remarks), in order.
    """

    module: "ir.Module | ir.Operation"
    passes: list[LatticecastPass]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        """The module as text."""
        return str(self.module)


def run_pipeline(module: "ir.Module | ir.Operation | str | bytes", pipeline: "str | Pipeline" = DEFAULT_PIPELINE, *,
                 verify: bool = True, context: ir.Context | None = None,
                 source_name: str = "-") -> PipelineResult:
    """Run a pass pipeline on a module in place, in the module's own context (JAX's works too), or
    on MLIR text, which is parsed first (mixed-dtype ops in the generic form allowed).

    The passes' warnings are issued as Python warnings (:class:`~latticecast.LatticecastWarning`)
    as they run; all their diagnostics are on the result.

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
        The module, latticecast's passes as they ran, and their diagnostics.

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
        >>> result = lc.run_pipeline(module, "implicit-cast{policy=max},canonicalize")
        >>> [p.argument for p in result.passes]
        ['implicit-cast']
        >>> "stablehlo.add" in str(module)     # legal StableHLO: implicit-cast leaves it as it is
        True
        >>> text = '''func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = "stablehlo.multiply"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>
        ...   return %0 : tensor<2xf32>
        ... }'''
        >>> print(lc.run_pipeline(text, "implicit-cast{policy=jax}").module)
        module {
          func.func @f(%arg0: tensor<2xi8>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
            %0 = stablehlo.convert %arg0 : (tensor<2xi8>) -> tensor<2xf32>
            %1 = stablehlo.multiply %0, %arg1 : tensor<2xf32>
            return %1 : tensor<2xf32>
          }
        }
        <BLANKLINE>
    """
    target: "ir.Module | ir.Operation"
    verified = unmarked = False  # a module handed in may have been changed since anything verified it
    if isinstance(module, (str, bytes, bytearray, memoryview)):
        from ..dialect_utils.parsing import parse_checked, read_source

        data, name = read_source(module if isinstance(module, str) else bytes(module), source_name)
        target, verified, unmarked = parse_checked(data, context, lenient=True, source_name=name or "-")
    elif hasattr(module, "operation"):  # duck-typed: another copy of the MLIR bindings works too
        target = module
    else:
        raise PipelineError(f"run_pipeline takes an ir.Module, an ir.Operation or MLIR text, not "
                            f"{type(module).__name__}; parse text with latticecast.parse(text)")
    op = target.operation
    runner = PipelineRunner(Pipeline.of(pipeline), op.context, verify_each=verify)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LatticecastWarning)
        diagnostics = runner.run(op, verified=verified, unmarked=unmarked)
    for w in caught:  # the passes' warnings, attributed to the caller of run_pipeline
        warnings.warn(w.message, w.category, stacklevel=2)
    return PipelineResult(target, runner.passes, diagnostics)


def merge_diagnostics(pass_diags: Iterable[Diagnostic], mlir_errors: Sequence[Diagnostic],
                      caught: Sequence[Diagnostic] = ()) -> list[Diagnostic]:
    """Every diagnostic of one run, each once, in the order they were emitted where known.

    A latticecast pass's error is in both lists; the MLIR copy is kept (it has the notes) at
    the pass's position. Errors that are not the passes' (the verifier's) follow, then what
    a context handler caught from upstream passes.

    Args:
        pass_diags: What latticecast's passes recorded.
        mlir_errors: The errors of MLIR's ``MLIRError``.
        caught: What a diagnostic handler caught (warnings and remarks of MLIR's passes).

    Returns:
        The merged list.

    Example:
        >>> e = Diagnostic("error", "bad", "m.mlir", 1, 1)
        >>> merge_diagnostics([e], [e]) == [e]
        True
    """
    pending = list(mlir_errors)
    out: list[Diagnostic] = []
    for d in pass_diags:
        if d.severity == "error":
            twin = next((i for i, e in enumerate(pending) if e.message == d.message and e.where == d.where), None)
            if twin is not None:
                out.append(pending.pop(twin))
                continue
        out.append(d)
    return out + pending + list(caught)


def one_line_error(message: "str | BaseException") -> str:
    """MLIR's pipeline parser answers with several lines (the message, an echo of the text, a
    caret); keep the message lines, joined with '; '.

    Args:
        message: The error, or its text.

    Returns:
        One line.

    Example:
        >>> one_line_error("<Pass-Options-Parser>: no such option x")
        'no such option x'
    """
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
