"""The ``latticecast`` command: promotion tables, lattice pictures, audits and explanations.

The command is a thin shell over the promotion layer: every answer it prints comes
from :mod:`latticecast.policies`, :mod:`latticecast.promotion.tables` and
:mod:`latticecast.promotion.audit`, so the library and the tool can never disagree.
``latticecast-opt`` (the MLIR pass driver) lives in :mod:`latticecast.cli.opt`.
"""

from __future__ import annotations

from .main import main  # light: the subcommands load when the command line is parsed (main.build_parser)

__all__ = ["main"]
