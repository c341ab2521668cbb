"""The graph being built here: MAX's ``CURRENT_GRAPH``, a ``ContextVar``.

``with Graph(...) as g:`` sets it; ops that receive only Python scalars find their
graph through it. A ``ContextVar`` (not a thread-local stack) keeps asyncio tasks
and threads isolated from each other, and restores the previous graph on exit
even when ``with`` blocks are left out of order.
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING

from ..errors import GraphError

if TYPE_CHECKING:
    from .graph import Graph

__all__ = ["CURRENT_GRAPH", "current_graph"]

CURRENT_GRAPH: "contextvars.ContextVar[Graph | None]" = contextvars.ContextVar("CURRENT_GRAPH", default=None)


def current_graph() -> "Graph":
    """The graph of the innermost ``with Graph(...)`` block of this thread or task."""
    g = CURRENT_GRAPH.get()
    if g is None:
        raise GraphError("no graph is being built here: create values inside `with Graph(...) as g:` "
                         "or through a graph's methods (g.constant, g.scalar)")
    return g
