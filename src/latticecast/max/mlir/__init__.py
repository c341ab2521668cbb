"""MAX's ``max.mlir``: the MLIR Python bindings a graph is built with. latticecast builds StableHLO with
jaxlib's bindings, so these are ``jaxlib.mlir.ir``'s names (``Context``, ``Location``, ``Module``, ...), and
``dialects`` holds jaxlib's dialects (MAX's own ``mo``/``rmo`` dialects have no counterpart: latticecast
emits StableHLO; see :mod:`latticecast.max._core.dialects`).

Example:
    >>> from latticecast.max import mlir
    >>> with mlir.Context(), mlir.Location.unknown():
    ...     str(mlir.Module.create().operation)
    'module {\\n}\\n'
"""

from jaxlib.mlir.ir import *  # noqa: F401,F403

from . import dialects
