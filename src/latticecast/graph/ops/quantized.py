"""MAX's ``ops.dequantize``: GGUF's block formats unpacked to ``float32`` in the graph.

A quantized weight is ``uint8`` whose last axis holds whole blocks (llama.cpp's ``block_q4_0``, ``block_q4_K``,
``block_q5_K``, ``block_q6_K``). The blocks are unpacked with StableHLO's integer ops (shifts, masks, a
``bitcast_convert`` of each block's float16 scales), in the same vectorised steps as the ``gguf`` package's
NumPy dequantiser (``gguf.quants``), against which ``tests/test_dequantize.py`` checks every format.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...promotion.dims import StaticDim
from ...promotion.dtypes import DType
from ...errors import GraphError, GraphTypeError
from ..quantization import QuantizationEncoding
from ..value import TensorValueLike, Value
from .elementwise import cast
from .operands import as_value, graph_of
from .shape import concat, reshape

__all__ = ["dequantize"]

_QK_K = 256


def _bitcast(v: Value, dtype: DType) -> Value:
    """``v``'s bits as ``dtype`` (same width): ``stablehlo.bitcast_convert``."""
    g = v.graph
    op = g._add_op("stablehlo.bitcast_convert", [g.tc.tensor(dtype, v.shape)], [v.ir])
    return Value(g, op.result, dtype, v.shape)


def _const(v: Value, values: npt.ArrayLike, dtype: npt.DTypeLike) -> Value:
    return as_value(np.asarray(values, dtype), v.graph)


def _f16(two_bytes: Value) -> Value:
    """``[n, 2]`` little-endian bytes as a ``[n, 1]`` float32 of their float16."""
    lo = cast(two_bytes[:, 0:1], DType.uint16)
    hi = cast(two_bytes[:, 1:2], DType.uint16)
    return cast(_bitcast(lo | (hi << _const(hi, 8, np.uint16)), DType.float16), DType.float32)


def _nibbles(q: Value, n: int, shifts: list[int], mask: int, width: int) -> Value:
    """``q`` as ``[n, -1, 1, width]`` shifted right by each of ``shifts`` and masked: ``[n, -1, width]``."""
    rows = reshape(q, [n, -1, 1, width])
    shifted = rows >> _const(rows, np.array(shifts, np.uint8).reshape(1, 1, len(shifts), 1), np.uint8)
    return reshape(shifted & _const(rows, mask, np.uint8), [n, -1, width])


def _scale_min(scales: Value, n: int) -> tuple[Value, Value]:
    """The 8 six-bit scales and mins of a K-quant block's 12 scale bytes (``gguf.quants.Q4_K.get_scale_min``)."""
    s = reshape(scales, [n, 3, 4])
    d, m, m_d = s[:, 0:1, :], s[:, 1:2, :], s[:, 2:3, :]
    x3f, x0f, x30 = (_const(s, c, np.uint8) for c in (0x3F, 0x0F, 0x30))
    two, four = _const(s, 2, np.uint8), _const(s, 4, np.uint8)
    sc = concat([d & x3f, (m_d & x0f) | ((d >> two) & x30)], axis=-1)
    mn = concat([m & x3f, (m_d >> four) | ((m >> two) & x30)], axis=-1)
    return reshape(sc, [n, 8]), reshape(mn, [n, 8])


def _q4_0(blocks: Value, n: int) -> Value:
    d = _f16(blocks[:, 0:2])
    qs = _nibbles(blocks[:, 2:], n, [0, 4], 0x0F, 16)
    q = cast(reshape(qs, [n, -1]), DType.float32) - _const(d, 8, np.float32)
    return d * q


def _k_scales(blocks: Value, n: int) -> tuple[Value, Value]:
    d, dmin = _f16(blocks[:, 0:2]), _f16(blocks[:, 2:4])
    sc, mn = _scale_min(blocks[:, 4:16], n)
    return (reshape(d * cast(sc, DType.float32), [n, -1, 1]), reshape(dmin * cast(mn, DType.float32), [n, -1, 1]))


def _q4_k(blocks: Value, n: int) -> Value:
    d, dm = _k_scales(blocks, n)
    q = cast(_nibbles(blocks[:, 16:], n, [0, 4], 0x0F, 32), DType.float32)
    return reshape(d * q - dm, [n, _QK_K])


def _q5_k(blocks: Value, n: int) -> Value:
    d, dm = _k_scales(blocks, n)
    qh = _nibbles(blocks[:, 16:16 + _QK_K // 8], n, list(range(8)), 0x01, 32)
    ql = _nibbles(blocks[:, 16 + _QK_K // 8:], n, [0, 4], 0x0F, 32)
    q = cast(ql | (qh << _const(qh, 4, np.uint8)), DType.float32)
    return reshape(d * q - dm, [n, _QK_K])


def _q6_k(blocks: Value, n: int) -> Value:
    ql_end, qh_end, sc_end = _QK_K // 2, _QK_K // 2 + _QK_K // 4, _QK_K // 2 + _QK_K // 4 + _QK_K // 16
    scales = cast(_bitcast(blocks[:, qh_end:sc_end], DType.int8), DType.float32)
    d = reshape(_f16(blocks[:, sc_end:sc_end + 2]) * scales, [n, _QK_K // 16, 1])
    ql = _nibbles(blocks[:, :ql_end], n, [0, 4], 0x0F, 64)
    ql = reshape(ql, [n, -1, 32])
    qh = _nibbles(blocks[:, ql_end:qh_end], n, [0, 2, 4, 6], 0x03, 32)
    q = cast(ql | (qh << _const(qh, 4, np.uint8)), DType.float32) - _const(d, 32, np.float32)
    return reshape(d * reshape(q, [n, _QK_K // 16, -1]), [n, _QK_K])


_UNPACK = {QuantizationEncoding.Q4_0: _q4_0, QuantizationEncoding.Q4_K: _q4_k, QuantizationEncoding.Q5_K: _q5_k,
           QuantizationEncoding.Q6_K: _q6_k}
"""Each GGUF block format's unpacking, from ``[blocks, block_size]`` bytes to ``[blocks, elements]``."""


def dequantize(encoding: QuantizationEncoding, quantized: TensorValueLike) -> Value:
    """The ``float32`` values of ``uint8`` GGUF blocks (MAX's ``ops.dequantize``).

    Args:
        encoding: The blocks' format: ``Q4_0``, ``Q4_K``, ``Q5_K`` or ``Q6_K``
            (:class:`~latticecast.graph.quantization.QuantizationEncoding`).
        quantized: ``uint8`` whose last axis is whole blocks (a static size, a multiple of the block size).

    Returns:
        ``float32`` of the same shape but the last axis: ``blocks * elements_per_block``.

    Raises:
        GraphError: An encoding that is not a GGUF block format (MAX's message), a dtype other than ``uint8``,
            or a last axis that is not whole blocks (MAX's message).
        GraphTypeError: A symbolic last axis (MAX's message).

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> from latticecast.graph.quantization import QuantizationEncoding
        >>> block = np.zeros(18, np.uint8); block[:2] = np.array([0.5], np.float16).view(np.uint8); block[2:] = 0x9A
        >>> with Graph("dq", input_types=[TensorType(DType.uint8, [1, 18])]) as g:
        ...     g.output(ops.dequantize(QuantizationEncoding.Q4_0, g.inputs[0]))
        >>> g.compile()(block[None])[0][0, [0, 16]].tolist()  # nibbles 0xA and 0x9, minus 8, times 0.5
        [1.0, 0.5]
    """
    unpack = _UNPACK.get(encoding) if isinstance(encoding, QuantizationEncoding) else None
    if unpack is None:
        raise GraphError(f"unsupported quantization encoding {encoding}; ops.dequantize reads GGUF's block formats "
                         "Q4_0, Q4_K, Q5_K and Q6_K")
    x = as_value(quantized, graph_of(quantized))
    if x.dtype != DType.uint8:
        raise GraphError(f"ops.dequantize takes the packed bytes (uint8), got {x.dtype.name}; allocate the weight "
                         "as GGUFWeights gives it")
    *dims, qdim = x.shape
    if not isinstance(qdim, StaticDim):
        raise GraphTypeError("dequantize only supported with static last dimension")
    size = encoding.block_size
    if int(qdim) % size:
        raise GraphError(f"last dimension ({qdim}) not divisible by block size ({size})")
    out = int(qdim) // size * encoding.elements_per_block
    rows = 1
    for dim in dims:
        if not isinstance(dim, StaticDim):
            raise GraphTypeError(f"ops.dequantize of {x.shape}: the leading axes must be static here (StableHLO "
                                 "sizes the unpacked blocks when the graph is built); rebind them to sizes first")
        rows *= int(dim)
    n = rows * (int(qdim) // size)
    values = unpack(reshape(x, [n, size]), n)
    return reshape(values, [*dims, out])
