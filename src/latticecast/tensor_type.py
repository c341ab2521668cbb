"""``TensorType``: a tensor's dtype and static shape, as MAX's ``max.graph.TensorType`` spells it.

It sits below the graph builder and the runtime: a graph declares its inputs with it,
and a compiled model reports its inputs and outputs with it, so the two compare equal
and neither layer imports the other. It imports nothing from MLIR; :attr:`TensorType.mlir`
is the type's spelling as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from .dtypes import DType, DTypeLike
from .errors import GraphError

__all__ = ["TensorType", "MAX_DIM"]

MAX_DIM = (1 << 62) - 1
"""The largest dimension accepted: MLIR stores dimensions as int64, and products of dimensions
must not overflow while shapes are checked."""


@dataclass(frozen=True)
class TensorType:
    """A tensor of ``dtype`` and a static ``shape``: ``TensorType(DType.int16, [4])``.

    ``sharding`` (keyword only) is a ``jax.sharding.PartitionSpec`` saying how a graph input is
    split over the graph's mesh (``Graph(..., mesh=...)``; checked there). It is a layout, not part
    of the type: it takes no part in equality, so a graph's declared types and those of the model
    compiled from it compare equal (the model reports layouts as ``Model.input_shardings``).
    """

    dtype: DType
    shape: tuple[int, ...] = ()
    sharding: Any = field(default=None, compare=False, repr=False)

    def __init__(self, dtype: DTypeLike, shape: Iterable[int] = (), *, sharding: Any = None) -> None:
        object.__setattr__(self, "dtype", DType.parse(dtype))
        object.__setattr__(self, "shape", check_shape(shape, "TensorType shape"))
        object.__setattr__(self, "sharding", sharding)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def np_dtype(self) -> np.dtype:
        """The NumPy dtype that holds values of this type on the host."""
        return self.dtype.np_dtype

    @property
    def mlir(self) -> str:
        """The MLIR spelling, ``tensor<4xi16>``."""
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.dtype.mlir_name + ">"

    def __str__(self) -> str:
        return f"{self.dtype.name}[{', '.join(map(str, self.shape))}]"


def check_shape(shape: Any, what: str) -> tuple[int, ...]:
    """``shape`` as a tuple of ints in ``[0, MAX_DIM]``, or a :class:`GraphError` naming the problem."""
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
        raise GraphError(f"{what} must be a sequence of non-negative integers such as [2, 3], not {shape!r}")
    dims = tuple(shape)
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)) or not 0 <= int(d) <= MAX_DIM:
            raise GraphError(f"{what} {list(dims)} must be non-negative integers (at most {MAX_DIM}; "
                             "latticecast graphs have static shapes)")
    return tuple(int(d) for d in dims)
