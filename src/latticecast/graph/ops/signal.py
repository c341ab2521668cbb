"""Signal processing as MAX names it: ``hann_window`` and ``irfft`` (by ``stablehlo.fft``).

``irfft`` is NumPy's ``np.fft.irfft`` with MAX's signature: the input holds the non-negative
frequencies along ``axis`` (float32 real parts, or ``input_is_complex`` interleaved real and
imaginary parts in a last axis of 2, or, beyond MAX, a ``complex64`` value), padded with zeros
or truncated to ``n // 2 + 1`` of them; the result is float32 with ``n`` samples along ``axis``.
MAX 26.7 runs ``irfft`` on a GPU only; StableHLO's FFT runs on every PJRT device.
"""

from __future__ import annotations

import math
from enum import Enum

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...promotion.device_ref import DeviceRefLike
from ...promotion.dtypes import DType, DTypeLike
from ...errors import GraphError, GraphTypeError
from ..current import current_graph
from ..value import TensorValueLike, Value
from .elementwise import cos, multiply
from .operands import Literal, constant_value, graph_of, operand
from .shape import concat, format_shape, normalize_axis, transpose

__all__ = ["Normalization", "hann_window", "irfft"]


class Normalization(Enum):
    """How :func:`irfft` scales its result (MAX's ``max.graph.ops.irfft.Normalization``): ``BACKWARD``
    divides by ``n`` (the default), ``ORTHO`` by ``sqrt(n)``, ``FORWARD`` not at all. A member equals
    its name as a string, as in MAX.

    Example:
        >>> from latticecast.graph.ops.signal import Normalization
        >>> Normalization.ORTHO == "ortho", Normalization("forward")
        (True, <Normalization.FORWARD: 'forward'>)
    """

    BACKWARD = "backward"
    ORTHO = "ortho"
    FORWARD = "forward"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Normalization):
            return self.value == other.value
        return isinstance(other, str) and self.value == other

    def __hash__(self) -> int:
        return hash(self.value)


def hann_window(window_length: int, device: DeviceRefLike = None, periodic: bool = True,
                dtype: DTypeLike = DType.float32) -> Value:
    """The Hann window ``0.5 - 0.5 cos(2 pi k / N)`` (MAX's ``ops.hann_window``, PyTorch's ``hann_window``).

    ``N`` is ``window_length`` for a periodic window and ``window_length - 1`` for a symmetric one.

    Args:
        window_length: The number of samples, a non-negative int.
        device: The device the window lives on (default: the graph's first device).
        periodic: A window for spectral analysis (its next sample would repeat the first); ``False``:
            a symmetric window.
        dtype: The window's float dtype.

    Returns:
        A 1-D value of ``window_length`` elements of ``dtype``.

    Raises:
        GraphError: ``window_length`` is not a non-negative int.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, ops
        >>> with Graph("hann", input_types=[]) as g:
        ...     g.output(ops.hann_window(4))
        >>> g.compile()()[0].tolist()
        [0.0, 0.5, 1.0, 0.5]
    """
    from . import _placed  # the package's check of a device argument

    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise GraphTypeError(f"window_length must be an integer, got {type(window_length).__name__}; give the "
                             "number of points as an int (int(length))")
    if window_length < 0:
        raise GraphError("window_length must be non-negative")
    g = current_graph()
    d = DType.parse(dtype)
    if window_length <= 1:
        return _placed(constant_value(g, np.ones(window_length, d.np_dtype), d), device)
    span = window_length if periodic else window_length - 1
    k = constant_value(g, np.arange(window_length, dtype=d.np_dtype), d)
    angle = multiply(k, constant_value(g, 2 * math.pi / span, d))
    return _placed(multiply(cos(angle), constant_value(g, -0.5, d)) + constant_value(g, 0.5, d), device)


_NORMALIZATIONS = ("backward", "ortho", "forward")


def _normalization(normalization: str | Enum) -> str:
    name = normalization.value if isinstance(normalization, Enum) else normalization
    if name not in _NORMALIZATIONS:
        raise GraphError(f"Invalid normalization: {name}; use one of {', '.join(_NORMALIZATIONS)} (or a "
                         "Normalization member)")
    return str(name)


def _complex(v: Value, input_is_complex: bool) -> Value:
    """The input as complex64: real parts (imaginary 0), or interleaved real and imaginary parts."""
    g = v.graph
    if v.storage is DType.complex64:
        return v
    if v.storage is not DType.float32:
        raise GraphError(f"Input tensor must be of type float32, got {v.storage.name}; cast it first "
                         "(x.cast(DType.float32))")
    if input_is_complex:
        if v.shape[-1] != 2:
            raise GraphError("Input tensor is marked as complex, but last dimension is not 2. Got input shape "
                             f"{format_shape(v.shape)}.")
        re, im = (v[..., i] for i in (0, 1))
    else:
        re, im = v, constant_value(g, np.zeros((), np.float32), DType.float32).broadcast_to(v.shape)
    op = g._add_op("stablehlo.complex", [g.tc.tensor(DType.complex64, re.shape)], [re.ir, im.ir])
    return Value(g, op.result, DType.complex64, re.shape)


def irfft(input_tensor: TensorValueLike, n: int | None = None, axis: int = -1,
          normalization: str | Enum = "backward", input_is_complex: bool = False, buffer_size_mb: int = 512) -> Value:
    """The inverse FFT of a real signal's spectrum along ``axis`` (MAX's ``ops.irfft``, ``np.fft.irfft``).

    Args:
        input_tensor: The spectrum: float32 real parts; with ``input_is_complex``, real and imaginary
            parts interleaved in a last axis of 2 (not counted by ``axis``); or a complex64 value.
        n: The number of output samples; default ``2 * (frequencies - 1)``. The spectrum is padded
            with zeros or truncated to ``n // 2 + 1`` frequencies.
        axis: The axis of the frequencies.
        normalization: ``"backward"`` (divide by ``n``, the default), ``"ortho"`` (by ``sqrt(n)``)
            or ``"forward"`` (no scaling), or MAX's ``Normalization`` member.
        input_is_complex: The last axis holds (real, imaginary) pairs.
        buffer_size_mb: MAX's GPU scratch buffer; StableHLO needs none, so it is not used.

    Returns:
        A float32 value of the input's shape (less the pair axis) with ``n`` along ``axis``.

    Raises:
        GraphError: The input is not float32 (or complex64), a pair axis is not 2, ``axis`` is out of
            range, the frequency axis is symbolic, ``n`` is not a positive int, or the
            normalization is unknown.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("irfft", input_types=[TensorType(DType.float32, [3])]) as g:
        ...     g.output(ops.irfft(g.inputs[0]))
        >>> g.compile()(np.array([4, 0, 0], np.float32))[0].tolist()
        [1.0, 1.0, 1.0, 1.0]
    """
    g = graph_of(input_tensor)
    found = operand(input_tensor, g)
    if isinstance(found, Literal):
        raise GraphError("irfft needs a tensor, not a Python scalar")
    scale = _normalization(normalization)
    x = _complex(found, input_is_complex)
    if x.rank == 0:
        raise GraphError("irfft needs a tensor of rank 1 or more")
    last = x.rank - 1
    axis = normalize_axis(axis, x.rank, "irfft")
    if axis != last:
        x = transpose(x, axis, last)
    size = x.shape[-1]
    if not isinstance(size, int):
        raise GraphError(f"Axis dimension must be static, got {size}; rebind the input to a static shape")
    if n is None:
        n = 2 * (size - 1)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise GraphError(f"irfft: n={n!r} must be a positive int (the number of output samples)")
    keep = n // 2 + 1
    if keep < size:
        x = x[..., :keep]
    elif keep > size:
        zeros = constant_value(g, np.zeros((*x.shape[:-1], keep - size), np.complex64), DType.complex64)
        x = concat([x, zeros], -1)
    shape = (*x.shape[:-1], n)
    with g.context:
        attrs: dict[str, ir.Attribute] = {"fft_type": stablehlo.FftTypeAttr.get("IRFFT"), "fft_length": ir.DenseI64ArrayAttr.get([n])}
    op = g._add_op("stablehlo.fft", [g.tc.tensor(DType.float32, shape)], [x.ir], attrs)
    out = Value(g, op.result, DType.float32, shape)
    if scale != "backward":  # StableHLO's IRFFT divides by n
        out = multiply(out, constant_value(g, float(math.sqrt(n) if scale == "ortho" else n), DType.float32))
    return transpose(out, axis, last) if axis != last else out
