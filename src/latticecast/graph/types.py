"""``TensorType``: a graph input's dtype and static shape (MAX's ``TensorType``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..dtypes import DType

__all__ = ["TensorType", "GraphError"]


class GraphError(ValueError):
    """A graph used the wrong way (no output, a value from another graph, a closed graph, a bad shape)."""


@dataclass(frozen=True)
class TensorType:
    """A tensor of ``dtype`` and a static ``shape`` (``TensorType(DType.int16, [4])``)."""

    dtype: DType
    shape: tuple[int, ...] = ()

    def __init__(self, dtype: "DType | str", shape: Iterable[int] = ()) -> None:
        object.__setattr__(self, "dtype", DType.parse(dtype))
        dims = tuple(shape)
        for d in dims:
            if not isinstance(d, int) or isinstance(d, bool) or d < 0:
                raise GraphError(f"TensorType shape {list(dims)} must be non-negative integers "
                                 "(latticecast graphs have static shapes)")
        object.__setattr__(self, "shape", dims)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def np_dtype(self):  # -> np.dtype
        """The NumPy dtype that holds values of this type on the host."""
        return self.dtype.np_dtype

    @property
    def mlir(self) -> str:
        """The MLIR spelling, ``tensor<4xi16>``."""
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.dtype.mlir_name + ">"

    def __str__(self) -> str:
        return f"{self.dtype.name}[{', '.join(map(str, self.shape))}]"
