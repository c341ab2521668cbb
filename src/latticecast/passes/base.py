"""What a latticecast pass is: a Python pass for jaxlib's ``PassManager``, with typed options.

jaxlib's ``PassManager.add(callable, name=..., argument=...)`` runs a Python callable
as a real MLIR pass, so latticecast's passes compose with every upstream pass in one
pipeline. :class:`LatticecastPass` is that callable: it runs :meth:`run` on the op
the pass manager hands it, records every diagnostic (jaxlib's bindings can emit only
errors through MLIR, so remarks and warnings are kept here for callers to read), and
signals failure when an error was emitted. Its warnings are also issued as Python
warnings (:class:`~latticecast.errors.LatticecastWarning`), attributed to the line that
ran the PassManager, so they reach users whichever way the pass runs. A bug inside a
pass fails the pipeline with a located ``internal error`` instead of a Python traceback
through C++.
"""

from __future__ import annotations

import gc
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterator

from jaxlib.mlir import ir

from ..dialect_utils.diagnostics import Diagnostic
from .options import PassOptions

__all__ = ["LatticecastPass", "PassResult", "collector_paused"]


@dataclass
class PassResult:
    """What one run did: ``ok`` is False when it emitted errors; ``diagnostics`` are all of them."""

    ok: bool = True
    diagnostics: list[Diagnostic] = field(default_factory=list)
    converts: int = 0
    retyped_constants: int = 0
    promotions: dict[str, int] = field(default_factory=dict)
    """Inserted conversions and retyped weak literals by kind (:data:`~.implicit_cast.lossy.KINDS`)."""
    changed: bool = True
    """Whether the run may have changed the IR: ``False`` only when it certainly did not (the pass found
    the module legal and wrote nothing), as an MLIR pass marks all analyses preserved. A runner then
    skips the verifier after the pass where the module verified before it, as MLIR's pass manager does."""

    def error(self, op: ir.Operation, message: str) -> None:
        """Emit ``'op.name' op message`` at ``op`` through MLIR, and record it."""
        text = f"'{op.name}' op {message}"
        op.location.emit_error(text)
        self.ok = False
        self.diagnostics.append(Diagnostic.at(op.location, "error", text))


class LatticecastPass(ABC):
    """A pass with typed options (:attr:`Options`), runnable in jaxlib's ``PassManager``."""

    argument: ClassVar[str]
    description: ClassVar[str]
    Options: ClassVar[type[PassOptions]]

    def __init__(self, options: PassOptions | None = None, **kwargs: Any) -> None:
        if options is None:
            options = self.Options(**{k.replace("-", "_"): v for k, v in kwargs.items()})
        elif kwargs:
            raise TypeError("pass either options or keyword options, not both")
        self.options = options
        self.diagnostics: list[Diagnostic] = []
        self.results: list[PassResult] = []
        self.input_verified = False
        """Set by a runner for one run: the module verifies as the pass receives it (see
        :meth:`~latticecast.passes.runner.PipelineRunner.run`)."""
        self.input_unmarked = False
        """Set by a runner for one run, with :attr:`input_verified`: the module carries no latticecast marker."""

    @property
    def name(self) -> str:
        return type(self).__name__

    @abstractmethod
    def run(self, root: ir.Operation) -> PassResult:
        """Do the pass's work on ``root`` (errors are emitted through MLIR and recorded)."""

    def __call__(self, op: ir.Operation, pass_: Any) -> None:
        try:
            with collector_paused():
                result = self.run(op)
        except Exception as e:  # a bug in the pass: a located diagnostic, never a crash
            message = f"{self.argument}: internal error: {type(e).__name__}: {e}"
            op.location.emit_error(message)
            self.diagnostics.append(Diagnostic.at(op.location, "error", message))
            pass_.signal_pass_failure()
            return
        self.results.append(result)
        self.diagnostics.extend(result.diagnostics)
        for d in result.diagnostics:
            if d.severity == "warning":
                d.warn(stacklevel=3)  # Diagnostic.warn, this call, then (through C++) the caller of pm.run
        if not result.ok:
            pass_.signal_pass_failure()

    def add_to(self, pm: Any) -> None:
        """Append this pass to a jaxlib ``PassManager`` (any pipeline, any context)."""
        pm.add(self, name=self.name, argument=self.argument, description=self.description)

    def __repr__(self) -> str:
        """The pass as a pipeline element, every option spelled out (``lower-dtypes`` has none)."""
        options = str(self.options)
        return f"{self.argument}{{{options}}}" if options else self.argument


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a pass's walk, and restore it as it was.

    A pass makes no reference cycles, so reference counting frees everything it drops; but each
    object it keeps (a convert, its value, a plan) counts towards the collector's thresholds, and
    every collection of the older generations traverses every object the program holds: the graph's
    values and the module's Python objects. With 100,000 converted inputs that was 30% of the pass
    (``benchmarks/targets.py``'s inputs row: 4.6 s with the collector, 3.2 s without). A collector
    the caller paused stays paused.

    Example:
        >>> import gc
        >>> from latticecast.passes.base import collector_paused
        >>> with collector_paused():
        ...     gc.isenabled()
        False
        >>> gc.isenabled()
        True
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def top_level_functions(root: ir.Operation) -> list[ir.Operation]:
    """The ``func.func`` ops directly in ``root`` (a module), or ``root`` itself when it is one."""
    if root.name == "func.func":
        return [root]
    out: list[ir.Operation] = []
    for region in root.regions:
        for block in region.blocks:
            for view in block.operations:
                op = view.operation  # an OpView's .name may be its symbol (func.func's is)
                if op.name == "func.func":
                    out.append(op)
    return out
