"""MAX's ``max._mlir_context``: :func:`default_mlir_context`, the MLIR context graphs are built in.

Example:
    >>> from latticecast.max._mlir_context import default_mlir_context
    >>> default_mlir_context() is default_mlir_context()
    True
"""

from __future__ import annotations

import atexit

from jaxlib.mlir import ir

from ..dialect_utils.context import default_context

__all__ = ["default_mlir_context"]


def default_mlir_context() -> ir.Context:
    """The context latticecast builds graphs in (one per thread), made current, as MAX's is once MAX is imported.

    Returns:
        The context.

    Example:
        >>> from jaxlib.mlir import ir
        >>> default_mlir_context() is ir.Context.current
        True
    """
    context: ir.Context = default_context()
    try:
        current = ir.Context.current
    except ValueError:  # no context is current
        current = None
    if current is not context:
        context.__enter__()
        atexit.register(context.__exit__, None, None, None)  # left current, it would outlive the bindings at exit
    return context
