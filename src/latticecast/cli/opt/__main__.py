"""``python -m latticecast.cli.opt``: the same as the ``latticecast-opt`` command."""

from . import console

console()
