"""MLIR plumbing shared by the graph builder, the pass and the runtime (imports jaxlib.mlir)."""
