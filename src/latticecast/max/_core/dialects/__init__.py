"""MAX's MLIR dialects under ``max._core.dialects``: ``builtin`` (MLIR's builtin attributes and types, from
jaxlib's bindings) and ``kgen`` (MAX's parameter expressions, in the attributes latticecast's
:meth:`Dim.to_mlir <latticecast.promotion.dims.Dim.to_mlir>` writes). MAX's own ``m``, ``mo``, ``mosh`` and ``rmo`` dialects
(its graph ops and types) have no counterpart: latticecast emits StableHLO, so each of their names raises an
``AttributeError`` that says so.

Example:
    >>> from latticecast.max._core.dialects import kgen
    >>> kgen.POC.add.value
    'add'
"""
