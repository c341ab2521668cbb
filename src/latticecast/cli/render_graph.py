"""SVG and PNG from DOT text, through the ``graphviz`` PyPI package and Graphviz's ``dot``.

Layout is Graphviz's job; we do not ship a layout engine of our own. Both pieces
are optional (the ``render`` extra installs the Python package; ``dot`` comes from
the system's ``graphviz`` package), so before rendering we check for both and,
when either is missing, say in one line what to install and that ``--format dot``
works without them.
"""

from __future__ import annotations

import importlib
import shutil

from ..errors import LatticecastError

__all__ = ["RenderUnavailable", "missing_renderers", "render"]

FORMATS = ("svg", "png")


class RenderUnavailable(LatticecastError):
    """The Python package or the ``dot`` program needed for SVG/PNG is not installed."""


def missing_renderers() -> list[str]:
    """What is missing, as install instructions (empty when rendering can work)."""
    missing = []
    try:
        importlib.import_module("graphviz")
    except ImportError:
        missing.append("the graphviz Python package (pip install graphviz, or pip install 'latticecast[render]')")
    if shutil.which("dot") is None:
        missing.append("Graphviz's dot program (the system package graphviz: apt-get install graphviz, "
                       "brew install graphviz, or conda install graphviz)")
    return missing


def render(dot_text: str, fmt: str) -> bytes:
    """The picture as bytes, in ``fmt`` (``svg`` or ``png``)."""
    if fmt not in FORMATS:
        raise ValueError(f"cannot render {fmt!r}; choose one of {', '.join(FORMATS)}")
    missing = missing_renderers()
    if missing:
        raise RenderUnavailable(f"--format {fmt} needs " + " and ".join(missing)
                                + "; or use --format dot, which needs neither")
    import graphviz

    try:
        image: bytes = graphviz.Source(dot_text, engine="dot").pipe(format=fmt)
        return image
    except graphviz.ExecutableNotFound:  # found by shutil.which but not runnable
        raise RenderUnavailable(f"--format {fmt}: Graphviz's dot program could not be run; reinstall "
                                "the system package graphviz, or use --format dot") from None
