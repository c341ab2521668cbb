"""The MLIR context latticecast builds, parses and runs passes in.

One context knows every dialect jaxlib ships (``func``, ``stablehlo``, ``chlo``,
the upstream ones) and the upstream passes (``canonicalize``, ``cse``, ...), and
allows unregistered dialects: ``!latticecast.address`` is an opaque type, and
lenient parsing reads mixed-dtype ops as unregistered ops first (see
:mod:`.lenient`). Contexts are cheap (about 20 ms) but not free, so graphs share
one per thread unless given their own.
"""

from __future__ import annotations

import os
import threading

# XLA's C++ logging (absl) prints INFO lines about PJRT devices when our MLIR bindings load
# before jax sets it up; users asked for results, not logs. An explicit setting still wins.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _chlo, _jax_mlir_ext, _stablehlo

__all__ = ["make_context", "default_context"]

_local = threading.local()


def make_context() -> ir.Context:
    """A new context with jaxlib's dialects and passes registered."""
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx = ir.Context()
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    _stablehlo.register_dialect(ctx)
    _chlo.register_dialect(ctx)
    ctx.allow_unregistered_dialects = True
    return ctx


def default_context() -> ir.Context:
    """This thread's shared context."""
    ctx = getattr(_local, "context", None)
    if ctx is None:
        ctx = _local.context = make_context()
    return ctx
