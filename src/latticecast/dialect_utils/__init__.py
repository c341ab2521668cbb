"""MLIR plumbing shared by the passes, the runtime and the graph builder: contexts, types, parsing,
diagnostics and constants (the layer that imports ``jaxlib.mlir``; it imports no layer above it)."""
