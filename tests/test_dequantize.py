"""``ops.dequantize`` of GGUF's block formats against the ``gguf`` package's own dequantiser (``gguf.quants``).

Blocks are made by ``gguf.quants.quantize`` where the package quantises the format (Q4_0), and as random bytes
with finite float16 scales otherwise: every byte pattern is a valid block, so random blocks exercise every bit
of the unpacking.
"""

from __future__ import annotations

import gguf
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latticecast.max.dtype import DType
from latticecast.max.graph import DeviceRef, Graph, TensorType, ops
from latticecast.max.graph.quantization import QuantizationEncoding

GGML = {QuantizationEncoding.Q4_0: gguf.GGMLQuantizationType.Q4_0,
        QuantizationEncoding.Q4_K: gguf.GGMLQuantizationType.Q4_K,
        QuantizationEncoding.Q5_K: gguf.GGMLQuantizationType.Q5_K,
        QuantizationEncoding.Q6_K: gguf.GGMLQuantizationType.Q6_K}
SCALES = {QuantizationEncoding.Q4_0: [0], QuantizationEncoding.Q4_K: [0, 2], QuantizationEncoding.Q5_K: [0, 2],
          QuantizationEncoding.Q6_K: [208]}
"""Byte offsets of each block's float16 scales (kept finite in random blocks)."""


def random_blocks(encoding: QuantizationEncoding, rows: int, blocks: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, (rows, blocks, encoding.block_size), dtype=np.uint8)
    for offset in SCALES[encoding]:
        scale = rng.uniform(-2, 2, (rows, blocks)).astype(np.float16)
        data[..., offset:offset + 2] = scale.view(np.uint8).reshape(rows, blocks, 2)
    return data.reshape(rows, blocks * encoding.block_size)


def run(encoding: QuantizationEncoding, packed: np.ndarray) -> np.ndarray:
    with Graph("dq", input_types=[TensorType(DType.uint8, packed.shape, DeviceRef.CPU())]) as g:
        g.output(ops.dequantize(encoding, g.inputs[0].tensor))
    return g.compile()(packed)[0]


@pytest.mark.parametrize("encoding", list(GGML), ids=lambda e: e.value)
def test_random_blocks_unpack_as_ggufs_dequantiser_does(encoding):
    packed = random_blocks(encoding, rows=3, blocks=2, seed=7)
    expected = gguf.quants.dequantize(packed, GGML[encoding])
    got = run(encoding, packed)
    assert got.dtype == np.float32 and got.shape == expected.shape == (3, 2 * encoding.elements_per_block)
    np.testing.assert_array_equal(got, expected.astype(np.float32))


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(list(GGML)), st.integers(1, 3), st.integers(1, 2), st.integers(0, 2**31))
def test_any_blocks_unpack_as_ggufs_dequantiser_does(encoding, rows, blocks, seed):
    packed = random_blocks(encoding, rows, blocks, seed)
    np.testing.assert_array_equal(run(encoding, packed), gguf.quants.dequantize(packed, GGML[encoding]))


def test_blocks_gguf_quantised_come_back_close_to_the_floats():
    values = np.random.default_rng(0).normal(size=(4, 64)).astype(np.float32)
    packed = gguf.quants.quantize(values, gguf.GGMLQuantizationType.Q4_0)
    got = run(QuantizationEncoding.Q4_0, packed)
    np.testing.assert_array_equal(got, gguf.quants.dequantize(packed, gguf.GGMLQuantizationType.Q4_0))
    assert np.abs(got - values).max() < 0.5


def test_a_weight_of_a_gguf_file_dequantizes_in_a_graph(tmp_path):
    """A Q4_0 tensor written by gguf's writer, read by GGUFWeights, unpacked by the compiled graph."""
    from latticecast.max.driver import CPU
    from latticecast.max.engine import InferenceSession
    from latticecast.max.graph.weights import GGUFWeights
    values = np.random.default_rng(1).normal(size=(2, 64)).astype(np.float32)
    packed = gguf.quants.quantize(values, gguf.GGMLQuantizationType.Q4_0)
    path = tmp_path / "q.gguf"
    writer = gguf.GGUFWriter(str(path), "test")
    writer.add_tensor("w", packed, raw_dtype=gguf.GGMLQuantizationType.Q4_0)
    writer.write_header_to_file(); writer.write_kv_data_to_file(); writer.write_tensors_to_file(); writer.close()
    weights = GGUFWeights(path)
    with Graph("g") as g:
        w = weights.w.allocate(shape=[2, 64])
        assert w.quantization_encoding is QuantizationEncoding.Q4_0 and list(w.shape) == [2, 36]
        g.output(ops.dequantize(w.quantization_encoding, w))
    (out,) = InferenceSession(devices=[CPU()]).load(g, weights_registry=weights.allocated_weights).execute()
    np.testing.assert_array_equal(out.to_numpy(), gguf.quants.dequantize(packed, gguf.GGMLQuantizationType.Q4_0))


@pytest.mark.parametrize("call, message", [
    (lambda x: ops.dequantize(QuantizationEncoding.GPTQ, x), "unsupported quantization encoding"),
    (lambda x: ops.dequantize(QuantizationEncoding.Q4_0, x[:, :17]), r"not divisible by block size \(18\)"),
    (lambda x: ops.dequantize(QuantizationEncoding.Q4_0, x.cast(DType.int8)), "uint8"),
])
def test_maxs_refusals(call, message):
    with Graph("g", input_types=[TensorType(DType.uint8, [1, 36], DeviceRef.CPU())]) as g:
        with pytest.raises(ValueError, match=message):
            call(g.inputs[0].tensor)
