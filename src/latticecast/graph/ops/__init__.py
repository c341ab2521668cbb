"""The graph builder's ops (``latticecast.ops``), one module per family.

=================  =============================================================
``elementwise``    arithmetic, division, comparisons, bitwise and shifts, unary math, casts
``selection``      ``where``/``select``, ``clamp``
``shape``          ``reshape``, ``broadcast_to``, ``transpose``
``reduction``      ``sum``, ``max``, ``min``, ``mean``
``linalg``         ``matmul``
``sharding``       ``shard`` (a sharding constraint over the graph's mesh)
``promotion``      the adapter over ``op_rules`` that every promoting op goes through
=================  =============================================================
"""

from __future__ import annotations

from typing import Any

from ...dtypes import DTypeLike
from ..current import current_graph
from ..value import Value
from .elementwise import (abs, add, atan2, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, cast, ceil, cos,
                          divide, equal, exp, floor, floor_divide, greater, greater_equal, invert, left_shift, less,
                          less_equal, log, maximum, minimum, mod, multiply, negative, not_equal, power, remainder,
                          right_shift, round, rsqrt, sign, sin, sqrt, subtract, tanh, true_divide)
from .linalg import matmul
from .reduction import max, mean, min, sum
from .selection import clamp, select, where
from .shape import broadcast_to, reshape, transpose
from .sharding import shard

__all__ = [
    "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod", "remainder", "power",
    "matmul", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "bitwise_and",
    "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "invert", "bitwise_not", "negative", "abs",
    "exp", "log", "sqrt", "rsqrt", "tanh", "sin", "cos", "floor", "ceil", "round", "sign", "maximum",
    "minimum", "atan2", "where", "select", "clamp", "reshape", "broadcast_to", "transpose", "sum", "max",
    "min", "mean", "cast", "constant", "shard",
]


def constant(value: Any, dtype: DTypeLike | None = None) -> Value:
    """A constant of the current graph (``Graph.constant``)."""
    return current_graph().constant(value, dtype)
