"""``latticecast-opt``: ``mlir-opt`` for StableHLO with the ``implicit-cast`` pass.

    latticecast-opt in.mlir --pass-pipeline='builtin.module(implicit-cast{policy=max},canonicalize)'
    latticecast-opt in.mlir --implicit-cast --policy max --diagnose-lossy --canonicalize --cse
    latticecast-opt in.mlir                      # parse, verify and print (a round trip)
    latticecast-opt tests.mlir --split-input-file --verify-diagnostics --implicit-cast

Input may hold mixed-dtype binary ops in the generic form (see
:mod:`latticecast.dialect_utils.parsing`); the output is verified. Diagnostics go
to standard error as ``file:line:col: severity: message``, the pass's warnings and
remarks included (they are printed when the pipeline succeeds too).

Exit codes follow ``mlir-opt``: 0 success; 1 for a failure of the input or the
pipeline (a parse error, a pass error, a verifier error, a pipeline that does not
parse, an unknown pass or option, unmatched ``expected-*`` comments, an input or
output file that cannot be used, a ``--policy-file`` that cannot be read); 2 for a
command line argparse rejects (the table is :mod:`latticecast.cli.exit_codes`, shared with
``latticecast``). Errors of the tool are one line, ``latticecast-opt: error: ...``, never a
traceback.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn, Sequence

__all__ = ["main", "console"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``latticecast-opt`` with ``argv`` (default ``sys.argv[1:]``); returns the exit code.

    The command line is read first, by :mod:`.args`, which loads neither MLIR nor the promotion
    layer: ``--help`` and ``--version`` end there, and start as fast as Python does. The tool
    prints results, not XLA's INFO logs: the log level is set here, when the command runs and
    before jaxlib is loaded (the driver is imported only after the command line is read), never
    when the library is imported. The user's own setting wins.
    """
    from ..._versions import save_installed_answers
    from ...errors import LatticecastError
    from ..exit_codes import EXIT_OK, report
    from .args import PROG, parse_args

    save_installed_answers()  # the next start reads the version from the cache, not the metadata
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    try:
        config = parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else EXIT_OK
    except LatticecastError as e:  # a UsageError: exit 2 (the table in exit_codes)
        return report(e, PROG)
    from .driver import execute

    return execute(config)


def console() -> NoReturn:
    """The ``latticecast-opt`` command (and ``python -m latticecast.cli.opt``): :func:`main` on the
    process's command line, then :func:`~latticecast.cli.exit_codes.leave` with its exit code, which
    skips the interpreter's teardown (as long as a small run itself). Call :func:`main` to keep the
    process.

    Returns:
        Never: the process exits.

    Example:
        >>> import subprocess, sys
        >>> done = subprocess.run([sys.executable, "-m", "latticecast.cli.opt", "--version"],
        ...                       capture_output=True, text=True)
        >>> (done.returncode, done.stdout.startswith("latticecast-opt "))
        (0, True)
    """
    from ..exit_codes import leave

    leave(main())
