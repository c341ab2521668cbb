"""MLIR plumbing shared by the passes, the runtime and the graph builder: contexts, types, parsing,
diagnostics and constants (the layer that imports ``jaxlib.mlir``; it imports no layer above it).

jaxlib is loaded through :mod:`latticecast.jax_internals`, which loads it the way ``import jax``
does (see there: XLA's logging level is decided when jaxlib loads)."""

from .. import jax_internals as _jax_internals  # noqa: F401  (first: it loads jaxlib)
