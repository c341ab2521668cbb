"""Entry point of the ``latticecast`` command: the parser, the dispatch, and the error boundary.

Exit codes (the table is :mod:`latticecast.cli.exit_codes`, shared with ``latticecast-opt``):
0 success; 1 when the question asked is "does this property hold?" and it does not
(``verify`` of a policy, ``audit`` of a table that is not a lattice); 2 for usage and
input errors (argparse's own, an unknown policy or dtype, a malformed table or policy
file). Errors are one line on standard error, ``latticecast: error: ...``, without a
traceback. Only :class:`~latticecast.LatticecastError` is caught: anything else is a bug
and is allowed to surface.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .._versions import save_installed_answers
from ..errors import LatticecastError
from .about import VersionAction
from .common import CliError
from .exit_codes import LATTICECAST, report
from .progress import add_verbosity_options, set_verbosity, verbosity_of

__all__ = ["main", "build_parser"]

PROG = LATTICECAST


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Implicit type promotion driven by a promotion lattice: print promotion tables, "
                    "draw lattices, audit tables for the lattice laws, explain a promotion, compare a program "
                    "under two policies and retarget it from one to another.",
        epilog="Policies: see 'latticecast policies'. Run 'latticecast COMMAND -h' for a command's options.",
    )
    parser.add_argument("--version", action=VersionAction)
    add_verbosity_options(parser)
    # The subcommands load here, not when the package does: latticecast-opt lives in this package too,
    # and its start-up must not pay for tables, pictures and audits.
    from . import audit_cmd, compare_cmd, info_cmd, lattice_cmd, retarget_cmd, table_cmd, verify_cmd

    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    table_cmd.add_parser(sub)
    lattice_cmd.add_parser(sub)
    audit_cmd.add_parser(sub)
    verify_cmd.add_parser(sub)
    info_cmd.add_parsers(sub)
    compare_cmd.add_parser(sub)
    retarget_cmd.add_parser(sub)
    for name, command in sub.choices.items():  # -q/-v after the command too (the demo reads its own)
        if name != "demo":
            add_verbosity_options(command, suppress_default=True)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; whatever follows ``demo`` is left for the demo's own parser."""
    args, extra = parser.parse_known_args(argv)
    if args.command == "demo":
        args.extra = extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


_GLOBAL_OPTIONS = ("-h", "--help", "--version", "-q", "--quiet", "-v", "--verbose")


def _check_options_before_command(argv: Sequence[str]) -> None:
    """argparse reports a missing COMMAND before an unknown option; name the option instead."""
    for token in argv:
        if not token.startswith("-"):
            return
        if token.split("=", 1)[0] not in _GLOBAL_OPTIONS:
            raise CliError(f"unrecognized option {token!r}; options go after the command "
                           f"(see '{PROG} --help' for the commands)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    # XLA's C++ logging prints INFO lines about PJRT devices; a command line prints results. Set
    # here, when the command runs (never when the library is imported); the user's setting wins.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    save_installed_answers()  # the next start reads the version from the cache, not the metadata
    parser = build_parser()
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        _check_options_before_command(argv)
        args = _parse(parser, argv)
        set_verbosity(verbosity_of(args))
        code: int = args.handler(args)
        return code
    except SystemExit as e:
        # argparse (ours or the demo's) has printed usage (exit 2) or help (exit 0);
        # return the code so that in-process callers get an int like every other outcome.
        return _exit_code(e)
    except LatticecastError as e:  # every one says what went wrong; the exit code is the table's
        return report(e, PROG)


def _exit_code(e: SystemExit) -> int:
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    print(e.code, file=sys.stderr)  # sys.exit("message"): the interpreter would print it
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
