"""``--version`` of both tools: latticecast's version and those of what it runs on (jaxlib, MLIR,
StableHLO), as ``mlir-opt --version`` names its LLVM. Computed only when asked for."""

from __future__ import annotations

import argparse
import sys

from .. import __version__

__all__ = ["version_text", "VersionAction"]


def version_text(prog: str) -> str:
    """``PROG 0.1.0``, then one indented line per component (:func:`.opt.registered.versions`)."""
    from .opt.registered import versions

    return "\n".join([f"{prog} {__version__}"] + [f"  {name} {version}" for name, version in versions()]) + "\n"


class VersionAction(argparse.Action):
    """``--version``: :func:`version_text` on standard output, then exit 0."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the versions of latticecast, jaxlib, MLIR and StableHLO, then exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        sys.stdout.write(version_text(parser.prog.split()[0]))
        parser.exit()
