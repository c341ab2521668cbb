"""``mlir-opt``'s pass instrumentation flags, through jaxlib's ``PassManager``.

``--mlir-print-ir-before-all``/``-after-all``/``-after-change``/``-after-failure``,
``--mlir-print-ir-module-scope`` and ``--mlir-timing`` are the PassManager's own
(``enable_ir_printing``, ``enable_timing``), so their output is MLIR's, on standard
error, exactly as ``mlir-opt`` prints it. ``--mlir-print-ir-before=PASS`` and
``--mlir-print-ir-after=PASS`` have no switch in jaxlib's bindings: the PassManager
prints every pass's dump into a temporary file standing in for standard error, and
only the dumps of the named passes are copied to the real one (every other line
passes through unchanged).
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from typing import Iterator

from jaxlib.mlir import passmanager

from .args import IRPrinting

__all__ = ["instrument", "captured_dumps", "keep_dumps"]

_DUMP_HEADER = re.compile(r"^// -----// IR Dump (?P<when>Before|After) (?P<name>\S+?)(?P<failed> Failed)?: "
                          r"(?P<argument>[\w.-]+)")
"""A dump's first line as jaxlib's MLIR writes it: ``// -----// IR Dump After CSEPass: cse //----- //``, and
``// -----// IR Dump After ImplicitCastPass Failed: implicit-cast //----- //`` for a pass that failed."""


def instrument(pm: passmanager.PassManager, printing: IRPrinting | None, timing: bool) -> None:
    """Switch on what ``printing`` and ``timing`` ask for in ``pm``."""
    if printing is not None:
        # As mlir-opt's PassManagerOptions: --mlir-print-ir-after-failure selects every pass for printing
        # after it, and MLIR then prints only after the one that failed.
        after_all = printing.after_all or printing.after_change or bool(printing.after) or printing.after_failure
        pm.enable_ir_printing(print_before_all=printing.before_all or bool(printing.before),
                              print_after_all=after_all, print_module_scope=printing.module_scope,
                              print_after_change=printing.after_change,
                              print_after_failure=printing.after_failure)
    if timing:
        pm.enable_timing()


def keep_dumps(text: str, printing: IRPrinting) -> str:
    """``text`` (what the PassManager wrote to standard error) with only the dumps ``printing``
    asks for: a dump runs from its ``// -----// IR Dump ...`` header to the next header."""
    out: list[str] = []
    keep = True
    for line in text.splitlines(keepends=True):
        m = _DUMP_HEADER.match(line)
        if m is not None:
            argument = m["argument"]
            if m["when"] == "Before":
                keep = printing.before_all or argument in printing.before
            elif printing.after_failure:  # MLIR prints after a pass only when it failed
                keep = m["failed"] is not None
            else:
                keep = printing.after_all or printing.after_change or argument in printing.after
        if keep:
            out.append(line)
    return "".join(out)


@contextmanager
def captured_dumps(printing: IRPrinting | None) -> Iterator[None]:
    """While the pipeline runs, route standard error (the file descriptor MLIR writes to) through
    :func:`keep_dumps` when ``printing`` selects passes; otherwise do nothing."""
    if printing is None or not printing.selective:
        sys.stderr.flush()
        yield
        return
    import tempfile  # only with --mlir-print-ir-*: it loads shutil and random (start-up)

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as spool:
        os.dup2(spool.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            spool.seek(0)
            text = spool.read().decode("utf-8", "replace")
            sys.stderr.write(keep_dumps(text, printing))
            sys.stderr.flush()
