"""MAX's ``max.graph.ops.irfft``: :class:`Normalization` and :func:`irfft` (their home:
:mod:`latticecast.graph.ops.signal`).

Example:
    >>> from latticecast.max.graph.ops.irfft import Normalization
    >>> [n.value for n in Normalization]
    ['backward', 'ortho', 'forward']
"""

from ....promotion.device_ref import DeviceKind
from ....promotion.dims import Dim, StaticDim
from ....graph.ops import concat, constant, custom, pad, sqrt, transpose, unsqueeze
from ....graph.ops.signal import Normalization, irfft
from ....graph.value import StrongTensorValueLike
from ....promotion.tensor_type import TensorType
from ...dtype import DType
from ..value import TensorValue

__all__ = ["DType", "DeviceKind", "Dim", "Normalization", "StaticDim", "StrongTensorValueLike", "TensorType", "TensorValue", "concat",
           "constant", "custom", "irfft", "pad", "sqrt", "transpose", "unsqueeze"]
