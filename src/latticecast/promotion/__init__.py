"""The promotion layer: dtypes, weak types, lattices, promotion tables and their audit, each op's
promotion rule, whether a value fits a dtype, and the graph's types (dimensions, tensor types,
device placements). It imports no MLIR and no JAX (``tools/import_graph.py --check``); the policies
(:mod:`latticecast.policies`) are built on it, and :mod:`latticecast.dialect_utils` converts its types
to MLIR (:mod:`latticecast.dialect_utils.graph_types`).
"""
