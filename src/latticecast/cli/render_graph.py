"""Pictures of a :class:`~.drawing.Drawing`: SVG always, PNG through Graphviz.

SVG is Graphviz's where both the ``graphviz`` PyPI package and Graphviz's ``dot`` are installed
(its layout is the better one), and latticecast's own (:mod:`.svg_layout`) everywhere else, so
a picture never needs anything installed; ``engine`` chooses one explicitly. PNG needs
Graphviz; without it, the one-line error says what to install, and that SVG and ``--format dot``
work without it.
"""

from __future__ import annotations

import importlib
import shutil

from ..errors import LatticecastError
from .dot import to_dot
from .drawing import Drawing
from .svg_layout import to_svg

__all__ = ["RenderUnavailable", "missing_renderers", "render", "svg", "ENGINES"]

FORMATS = ("svg", "png")
ENGINES = ("auto", "graphviz", "latticecast")
"""Who lays out an SVG: Graphviz where installed (``auto``), Graphviz only, or latticecast itself."""


class RenderUnavailable(LatticecastError):
    """The Python package or the ``dot`` program needed for Graphviz's pictures is not installed."""


def missing_renderers() -> list[str]:
    """What Graphviz's pictures need that is missing, as install instructions (empty when they can work)."""
    missing = []
    try:
        importlib.import_module("graphviz")
    except ImportError:
        missing.append("the graphviz Python package (pip install graphviz, or pip install 'latticecast[render]')")
    if shutil.which("dot") is None:
        missing.append("Graphviz's dot program (the system package graphviz: apt-get install graphviz, "
                       "brew install graphviz, or conda install graphviz)")
    return missing


def _graphviz(drawing: Drawing, fmt: str) -> bytes:
    missing = missing_renderers()
    if missing:
        raise RenderUnavailable(f"--format {fmt} needs " + " and ".join(missing)
                                + ("; or use --format svg or --format dot, which need neither" if fmt == "png"
                                   else "; or use --format dot, which needs neither"))
    import graphviz

    try:
        image: bytes = graphviz.Source(to_dot(drawing), engine="dot").pipe(format=fmt)
        return image
    except graphviz.ExecutableNotFound:  # found by shutil.which but not runnable
        raise RenderUnavailable(f"--format {fmt}: Graphviz's dot program could not be run; reinstall "
                                "the system package graphviz, or use --format dot") from None


def svg(drawing: Drawing, engine: str = "auto") -> str:
    """The drawing as an SVG document that can be inlined in HTML (no XML prolog).

    Args:
        drawing: What to draw.
        engine: One of :data:`ENGINES`.

    Returns:
        The ``<svg>`` element, as text.

    Example:
        >>> from latticecast.cli.drawing import dag_drawing
        >>> svg(dag_drawing({"b": ["i8"]}, name="t", title="t"), engine="latticecast").startswith("<svg")
        True
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == "latticecast" or (engine == "auto" and missing_renderers()):
        return to_svg(drawing)
    text = _graphviz(drawing, "svg").decode("utf-8")
    return text[text.index("<svg"):]


def render(drawing: Drawing, fmt: str, engine: str = "auto") -> bytes:
    """The picture as bytes, in ``fmt`` (``svg`` or ``png``; PNG always through Graphviz)."""
    if fmt not in FORMATS:
        raise ValueError(f"cannot render {fmt!r}; choose one of {', '.join(FORMATS)}")
    if fmt == "svg":
        return svg(drawing, engine).encode("utf-8")
    return _graphviz(drawing, fmt)
