"""The MLIR contexts latticecast builds, parses and runs passes in: the dialects JAX registers, and no more.

A context here knows what JAX's own context knows (``jax._src.interpreters.mlir.make_ir_context``),
through jaxlib's dialect libraries (:func:`~latticecast.jax_internals.register_jax_dialects`):
the upstream dialects jaxlib ships (``func``, ``arith``, ...), ``stablehlo`` (and ``vhlo``, which it loads), ``chlo``, Shardy's ``sdy``
and ``mpmd``, and ``mhlo``. So a module JAX wrote (with ``sdy.mesh``, ``sdy.sharding``,
``mhlo.frontend_attributes``) parses, passes and prints here exactly as it does in JAX.

Two kinds of context:

* :func:`make_context` (strict): unregistered dialects are errors. The runtime parses
  in one, so an op PJRT cannot compile is refused at parse time.
* ``make_context(lenient=True)``: unregistered dialects are allowed. The graph
  builder and ``latticecast-opt`` need it for MAX's ``!latticecast.address`` type
  and for the placeholders of mixed-dtype ops (see :mod:`.parsing`).

Multithreading is off in every context latticecast makes: the work is Python-driven,
and MLIR's threaded parser deadlocks on some malformed input (an unregistered op next
to nested ``func.func`` ops). Contexts are cheap (about 20 ms) but not free, so each
thread shares one of each kind unless a caller makes its own.
"""

from __future__ import annotations

import threading

from jaxlib.mlir import ir

from ..jax_internals import register_jax_dialects, register_upstream_dialects

__all__ = ["make_context", "default_context", "strict_context", "current_or_default"]

_local = threading.local()


def make_context(*, lenient: bool = False) -> ir.Context:
    """A new context with the dialects and passes JAX registers (``lenient``: unregistered ops allowed)."""
    registry = ir.DialectRegistry()
    register_upstream_dialects(registry)
    ctx = ir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    register_jax_dialects(ctx)
    ctx.enable_multithreading(False)
    ctx.allow_unregistered_dialects = lenient
    return ctx


def default_context() -> ir.Context:
    """This thread's shared lenient context (graphs, ``latticecast-opt``)."""
    ctx = getattr(_local, "lenient", None)
    if ctx is None:
        ctx = _local.lenient = make_context(lenient=True)
    return ctx


def strict_context() -> ir.Context:
    """This thread's shared strict context (the runtime's parser)."""
    ctx = getattr(_local, "strict", None)
    if ctx is None:
        ctx = _local.strict = make_context(lenient=False)
    return ctx


def current_or_default() -> ir.Context:
    """The current context (a graph's, while it builds), or this thread's default one (:func:`default_context`)."""
    try:
        found = ir.Context.current
    except ValueError:
        found = None
    return default_context() if found is None else found
