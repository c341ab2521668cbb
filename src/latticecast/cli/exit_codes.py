"""How both command-line tools, ``latticecast`` and ``latticecast-opt``, end: the one table of exit codes.

Every error latticecast raises is a :class:`~latticecast.LatticecastError`, and its message is the
whole story, so each tool catches the root at its boundary and calls :func:`report`, which prints it
in one format on standard error and returns the exit code :data:`EXIT_TABLE` gives:

- an error in a file (MLIR that does not parse, a policy or table file): ``file:line:col: error:
  MESSAGE``, then the line of the file and a caret under the column (MLIR's source manager's
  format, through :meth:`Diagnostic.caret_lines <latticecast.dialect_utils.diagnostics.Diagnostic.caret_lines>`),
  then any ``hint:`` lines;
- any other error: ``PROG: error: MESSAGE`` on one line (LLVM tools' format for an error of the tool).

Anything that is not a ``LatticecastError`` is a bug and surfaces as a traceback.

====  ======================================================  ==================================================
code  ``latticecast``                                         ``latticecast-opt`` (as ``mlir-opt``)
====  ======================================================  ==================================================
0     success                                                 success
1     the property asked about does not hold: ``verify``      the input or the pipeline failed: a parse, pass or
      or ``audit`` of a table that is not a lattice; the      verifier error, unmatched ``expected-*`` comments,
      demo's program failed (a ``PassFailure``, a runtime     an unknown pass or option, a policy file or an
      error)                                                  input or output file that cannot be used
2     the command line or its input is wrong: an unknown      the command line is wrong (argparse's code): an
      option, policy or dtype, a table or policy file that    unknown option, a missing value, options that
      cannot be read, a promotion the policy refuses          contradict each other
====  ======================================================  ==================================================

The rows of :data:`EXIT_TABLE` are matched in order, so the most specific class comes first; the last
row, :class:`~latticecast.LatticecastError` itself, catches the rest. Codes 0 and 1 for a property are
what a subcommand returns, not errors: :data:`EXIT_OK`, :data:`EXIT_FAILURE`.
"""

from __future__ import annotations

import atexit
import os
import re
import sys
from dataclasses import dataclass
from typing import NoReturn, TextIO

from ..errors import LatticecastError

__all__ = ["EXIT_OK", "EXIT_FAILURE", "EXIT_USAGE", "UsageError", "ExitRule", "EXIT_TABLE", "exit_code",
           "one_line", "report", "located_lines", "leave", "LATTICECAST", "LATTICECAST_OPT"]

EXIT_OK = 0
EXIT_FAILURE = 1
"""A property that does not hold (``verify``, ``audit``), or an input or pipeline that failed."""
EXIT_USAGE = 2
"""The command line is wrong (argparse's own code); for ``latticecast``, its input too."""

LATTICECAST = "latticecast"
LATTICECAST_OPT = "latticecast-opt"


class UsageError(LatticecastError):
    """The command line itself is wrong (argparse's kind of error): exit code 2 in both tools. The
    message is followed by where to read the usage (``see 'latticecast-opt --help'``)."""


@dataclass(frozen=True)
class ExitRule:
    """One row of the table: errors of class ``error`` (a dotted name, resolved only once its module
    is imported, so that this table imports nothing of the IR or runtime layers) end ``latticecast``
    with ``latticecast`` and ``latticecast-opt`` with ``opt``."""

    error: str
    latticecast: int
    opt: int
    meaning: str

    def matches(self, e: BaseException) -> bool:
        module, _, name = self.error.rpartition(".")
        cls = getattr(sys.modules.get(module), name, None)  # not imported: nothing of it was raised
        return isinstance(cls, type) and isinstance(e, cls)


EXIT_TABLE: tuple[ExitRule, ...] = (
    ExitRule("latticecast.cli.exit_codes.UsageError", EXIT_USAGE, EXIT_USAGE,
             "the command line is wrong"),
    ExitRule("latticecast.errors.PassFailure", EXIT_FAILURE, EXIT_FAILURE,
             "implicit-cast rejected a program (the demo's, in latticecast)"),
    ExitRule("latticecast.runtime.runtime_errors.LatticecastRuntimeError", EXIT_FAILURE, EXIT_FAILURE,
             "XLA or PJRT could not compile or run a program (the demo's, in latticecast)"),
    ExitRule("latticecast.errors.LatticecastError", EXIT_USAGE, EXIT_FAILURE,
             "the input is wrong: a policy, dtype, table, policy file, pass option or file that "
             "cannot be used (latticecast's input errors are usage errors; mlir-opt's are failures)"),
)
"""Which exit code each error gives, per tool; the first matching row decides."""


def exit_code(e: LatticecastError, tool: str) -> int:
    """The exit code ``tool`` (:data:`LATTICECAST` or :data:`LATTICECAST_OPT`) ends with for ``e``."""
    for rule in EXIT_TABLE:
        if rule.matches(e):
            return rule.opt if tool == LATTICECAST_OPT else rule.latticecast
    raise AssertionError(f"{type(e).__name__} is not a LatticecastError")  # the last row matches every one


def one_line(e: BaseException, tool: str) -> str:
    """The message of ``e`` as one line, ``PROG: error: ...`` (a usage error says where the help is)."""
    text = " ".join(str(e).split())
    if isinstance(e, UsageError):
        text += f" (see '{tool} --help')"
    return f"{tool}: error: {text}"


_LOCATED = re.compile(r"(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?P<col>\d+): (?:error: )?(?P<message>.*)", re.S)


def located_lines(e: BaseException) -> list[str] | None:
    """``e`` as located diagnostics with their source lines and carets, or ``None`` when it names
    no place in a file. An error with ``diagnostics`` (:class:`MLIRParseError`) gives each of them;
    one whose message starts ``file:line:col:`` (a table or policy file's) gives that place."""
    diagnostics = getattr(e, "diagnostics", None)
    text = str(e)
    hints = [line for line in text.splitlines() if line.startswith("hint:")]
    if diagnostics and all(d.file and d.line for d in diagnostics):
        return [line for d in diagnostics for line in d.file_lines()] + hints
    found = _LOCATED.fullmatch(text.split("\nhint:")[0].strip())
    if found is None or diagnostics == ():
        return None
    from ..dialect_utils.diagnostics import Diagnostic

    d = Diagnostic("error", " ".join(found["message"].split()), found["file"], int(found["line"]), int(found["col"]))
    return d.file_lines() + hints


def report(e: LatticecastError, tool: str, stream: TextIO | None = None) -> int:
    """Print ``e`` on ``stream`` (default: standard error), located with its source line and a caret
    where it names a place in a file (:func:`located_lines`), else as :func:`one_line`; return its
    exit code."""
    lines = located_lines(e)
    print("\n".join(lines) if lines else one_line(e, tool), file=stream or sys.stderr)
    return exit_code(e, tool)


def leave(code: int) -> NoReturn:
    """End the process with ``code`` without tearing the interpreter down, as ``mypy`` does (its
    ``util.hard_exit``): the ``atexit`` handlers run and the standard streams are flushed, but the
    modules and their objects are not freed one by one. That teardown (a full garbage collection, then
    every module's dict, then jaxlib's MLIR context) took 70-100 ms of a ``latticecast-opt`` run on a
    small file, as long as the run itself (``benchmarks/bench_startup.py``). Only the console
    commands call this, after :func:`main` has returned; a caller of ``main`` keeps its process.

    Args:
        code: The exit code.

    Returns:
        Never.

    Example:
        >>> import subprocess, sys
        >>> code = "from latticecast.cli.exit_codes import leave\\nprint('written', end='')\\nleave(3)"
        >>> done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        >>> (done.returncode, done.stdout)
        (3, 'written')
    """
    atexit._run_exitfuncs()  # what sys.exit would run: logging's flush, the user's own handlers
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`), a closed stream: nothing more to write
            pass
    os._exit(code)
