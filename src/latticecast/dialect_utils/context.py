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

from ..jax_internals import register_jax_dialects, register_shardy_dialects, register_upstream_dialects

__all__ = ["make_context", "default_context", "strict_context", "current_or_default", "load_shardy",
           "load_shardy_for", "SHARDY_DIALECTS"]

_local = threading.local()


def make_context(*, lenient: bool = False, shardy: bool = True) -> ir.Context:
    """A new context with the dialects and passes JAX registers (``lenient``: unregistered ops allowed;
    ``shardy=False``: Shardy's ``sdy`` and ``mpmd`` wait for :func:`load_shardy_for`)."""
    registry = ir.DialectRegistry()
    register_upstream_dialects(registry)
    ctx = ir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    register_jax_dialects(ctx, shardy=shardy)
    ctx.enable_multithreading(False)
    ctx.allow_unregistered_dialects = lenient
    return ctx


SHARDY_DIALECTS = ("sdy", "mpmd")
"""Shardy's dialects, which a context made with ``shardy=False`` leaves out: the prefix of each of their
ops, attributes, types and passes (``sdy.mesh``, ``sdy-close-shardings``)."""


def load_shardy(context: ir.Context) -> bool:
    """Register Shardy's dialects in ``context`` unless they are; returns whether it did now.

    Args:
        context: A context made with ``shardy=False``, or any other.

    Returns:
        ``True`` when they were registered now.

    Example:
        >>> ctx = make_context(shardy=False)
        >>> load_shardy(ctx), load_shardy(ctx)
        (True, False)
    """
    if context.is_registered_operation("sdy.mesh"):
        return False
    register_shardy_dialects(context)
    return True


def load_shardy_for(context: ir.Context, source: "str | bytes") -> bool:
    """Register Shardy's dialects in ``context`` (made with ``shardy=False``) if ``source``, MLIR text or
    bytecode, may hold any of theirs; returns whether it did. MLIR spells every op, attribute and type
    with its dialect's name (``sdy.sharding``, ``#sdy.mesh<...>``), and bytecode keeps the names of
    its dialects as strings: a source that never spells ``sdy`` or ``mpmd`` has nothing of theirs.
    ``latticecast-opt`` loads them so, per input, as MLIR loads a registered dialect when it first
    meets it (from jaxlib 0.11 on, their native libraries load their Python op classes too).

    Args:
        context: The context.
        source: The text or bytecode about to be parsed in it.

    Returns:
        Whether the dialects were registered now (``False`` also when they were already).

    Example:
        >>> ctx = make_context(lenient=True, shardy=False)
        >>> load_shardy_for(ctx, "func.func @f() { return }"), ctx.is_registered_operation("sdy.mesh")
        (False, False)
        >>> load_shardy_for(ctx, 'sdy.mesh @m = <["x"=2]>'), ctx.is_registered_operation("sdy.mesh")
        (True, True)
    """
    if isinstance(source, str):
        named = any(n in source for n in SHARDY_DIALECTS)
    else:
        named = any(n.encode() in source for n in SHARDY_DIALECTS)
    return named and load_shardy(context)


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
