"""The graph being built here: MAX's ``CURRENT_GRAPH``, a ``ContextVar``.

``with Graph(...) as g:`` enters ``g``; ops that receive only Python scalars find their
graph through it. The variable holds the graphs entered in this context, innermost
last, as an immutable tuple: a ``ContextVar`` (not a thread-local stack) keeps asyncio
tasks and threads isolated from each other, and leaving a graph removes that graph
wherever it stands, so ``with`` blocks left out of order never leave a graph current
that was already left.
"""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING

from ..errors import NoCurrentGraphError

if TYPE_CHECKING:
    from .graph import Graph

__all__ = ["CURRENT_GRAPH", "current_graph", "enter", "leave"]

CURRENT_GRAPH: "contextvars.ContextVar[tuple[Graph, ...]]" = contextvars.ContextVar("CURRENT_GRAPH", default=())


def enter(graph: "Graph") -> None:
    CURRENT_GRAPH.set(CURRENT_GRAPH.get() + (graph,))


def leave(graph: "Graph") -> None:
    stack = CURRENT_GRAPH.get()
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is graph:
            CURRENT_GRAPH.set(stack[:i] + stack[i + 1:])
            return


def current_graph() -> "Graph":
    """The graph of the innermost ``with Graph(...)`` block of this thread or task."""
    stack = CURRENT_GRAPH.get()
    g = stack[-1] if stack else None
    if g is None:
        raise NoCurrentGraphError("no graph is being built here: create values inside `with Graph(...) as g:` "
                         "or through a graph's methods (g.constant, g.scalar)")
    return g
