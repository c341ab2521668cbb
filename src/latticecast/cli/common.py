"""What every subcommand shares: the usage-error type, policy and type lookup, output.

Errors a user can fix (a misspelt policy, a dtype the policy lacks, an unwritable
output file) become :class:`CliError`, which :func:`latticecast.cli.main.main`
prints as one line and turns into exit code 2 (:mod:`.exit_codes`). Nothing here catches
anything broader than the exceptions it names, so a bug still surfaces as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Hashable, cast

from ..errors import LatticecastError, PromotionError
from ..policies import policy as lookup_policy

if TYPE_CHECKING:  # both load the promotion layer (NumPy, the tables): not for every command line
    from ..policies import Policy
    from ..promotion.weak import PType
from .exit_codes import EXIT_FAILURE as EXIT_PROPERTY_FAILS, EXIT_OK, EXIT_USAGE

__all__ = ["CliError", "EXIT_OK", "EXIT_PROPERTY_FAILS", "EXIT_USAGE", "load_policy", "parse_types",
           "write_output", "yes_no", "namer", "add_policy_options", "chosen_policy", "read_input"]


class CliError(LatticecastError):
    """A mistake in the command line or its input; the message is the whole story (exit 2)."""


def load_policy(name: str) -> Policy:
    """The policy called ``name``.

    A registered policy whose module is missing from this installation (the
    registry names every built-in policy, imported on first use) is reported as
    such rather than as an ``ImportError`` traceback; any other import failure is
    a bug in that module and propagates.
    """
    try:
        return lookup_policy(name)
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("latticecast.policies."):
            raise CliError(f"policy {name!r} is registered but its module {e.name} is not available "
                           "in this installation") from None
        raise


def add_policy_options(p: argparse.ArgumentParser) -> None:
    """``--policy NAME`` (default: jax) and ``--policy-file CSV``, a user-defined promotion table."""
    p.add_argument("--policy", default=None, help="the policy (default: jax)")
    p.add_argument("--policy-file", metavar="CSV", dest="policy_file",
                   help="the policy a CSV promotion table defines: a header row of types, a first column of "
                        "types, each cell the promoted type or empty (the format of 'table --format csv')")


def chosen_policy(args: argparse.Namespace) -> Policy:
    """The policy of :func:`add_policy_options`' options; a policy file's mistakes are
    :class:`~latticecast.TableFormatError` with ``file:line:col`` (exit 2)."""
    if args.policy_file is not None:
        if args.policy is not None:
            raise CliError("give --policy or --policy-file, not both")
        from ..policies import Policy

        return Policy.from_table(args.policy_file)
    return load_policy(args.policy or "jax")


def namer(pol: Policy) -> Callable[[Hashable], str]:
    """The policy's spelling (:meth:`Policy.type_name`) as the namer that tables and audit
    reports take; their labels are the policy's types, except a result a measured table keeps
    as the library's own name (PyTorch's ``complex32``, which latticecast does not have)."""
    return lambda t: t if isinstance(t, str) else pol.type_name(cast("PType", t))


def parse_types(text: str, pol: Policy, *, notation: str = "bits") -> list[PType]:
    """The types of a ``--types`` list, in the policy's canonical form, duplicates dropped.

    Any spelling :func:`~latticecast.promotion.weak.parse_ptype` takes is accepted, and the short codes
    a text table shows (``bf``, ``e4m3fn``: :data:`~.table_view.FROM_CODE`); two spellings of one
    type (``i16,int16``, or ``i*`` and a weak ``i16?`` in JAX) show once, so the table stays square.
    """
    from ..promotion.weak import parse_ptype
    from .table_view import FROM_CODE

    names = [n.strip() for n in text.split(",")]
    if not any(names):
        raise CliError("--types needs a comma-separated list of types, e.g. --types i8,u8,f16")
    if not all(names):
        raise CliError(f"--types {text!r} has an empty entry; separate the types with single commas")
    out: list[PType] = []
    for n in names:
        try:
            t = pol.canonical(parse_ptype(FROM_CODE.get(n, n), notation=notation))
        except PromotionError as e:
            raise CliError(f"--types: {e}") from None
        if t not in out:
            out.append(t)
    return out


def read_input(path: str) -> "tuple[str | bytes, str]":
    """The contents of the input file ``path`` (``-``: standard input) and its name for messages: text
    as ``str``, MLIR bytecode as ``bytes``."""
    from ..dialect_utils.parsing import decode_source

    if path == "-":
        data, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        try:
            data, name = Path(path).read_bytes(), path
        except OSError as e:
            raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    return decode_source(data, name), name


def write_output(data: "str | bytes", path: "str | None") -> None:
    """Write to ``path``, or to standard output when there is none."""
    if path is None or path == "-":
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            sys.stdout.write(data)
        return
    try:
        write_file(data, path)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


def write_file(data: "str | bytes", path: str) -> None:
    """``data`` into the file ``path``: bytes as they are, text as UTF-8 (both tools' outputs)."""
    if isinstance(data, bytes):
        Path(path).write_bytes(data)
    else:
        Path(path).write_text(data, encoding="utf-8")


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"
