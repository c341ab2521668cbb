"""MAX's ``max.mlir``: the MLIR Python bindings a graph is built with. latticecast builds StableHLO with
jaxlib's bindings, so these are ``jaxlib.mlir.ir``'s names (``Context``, ``Location``, ``Module``, ...), and
``dialects`` is ``jaxlib.mlir.dialects`` (MAX's own ``mo``/``rmo`` dialects have no counterpart: latticecast
emits StableHLO).

Example:
    >>> from latticecast.max import mlir
    >>> with mlir.Context(), mlir.Location.unknown():
    ...     str(mlir.Module.create().operation)
    'module {\\n}\\n'
"""

from jaxlib.mlir import dialects
from jaxlib.mlir.ir import *  # noqa: F401,F403
