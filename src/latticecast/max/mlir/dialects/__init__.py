"""MAX's ``max.mlir.dialects``: the dialects of the IR latticecast builds (jaxlib's ``stablehlo``, ``func``,
``arith``, ``sdy``) and MAX's own ``mo`` and ``rmo`` (refused: see :mod:`latticecast.max._core.dialects`).

Example:
    >>> from latticecast.max.mlir.dialects import stablehlo
    >>> stablehlo.AddOp.OPERATION_NAME
    'stablehlo.add'
"""

from jaxlib.mlir.dialects import arith, func, sdy, stablehlo

from ..._core.dialects import mo, rmo

__all__ = ["arith", "func", "mo", "rmo", "sdy", "stablehlo"]
