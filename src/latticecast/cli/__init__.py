"""The ``latticecast`` command: promotion tables, lattice pictures, audits and explanations.

The command is a thin shell over the promotion layer: every answer it prints comes
from :mod:`latticecast.policies`, :mod:`latticecast.tables` and
:mod:`latticecast.audit`, so the library and the tool can never disagree.
``latticecast-opt`` (the MLIR pass driver) lives in :mod:`latticecast.cli.opt`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .main import main

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    """``main`` on first use: ``latticecast-opt`` lives in this package too, and its start-up
    must not pay for the ``latticecast`` command's subcommands (tables, pictures, audits)."""
    if name == "main":
        from .main import main as command

        globals()["main"] = command  # importing the submodule bound the name to it; the function wins
        return command
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
