"""Models whose weights torch wrote to ``.safetensors`` files, run through ``latticecast.max`` as a MAX program
runs them (``SafetensorWeights`` -> ``Graph`` -> ``InferenceSession``), against torch's own outputs.

The files and torch's outputs are in ``tests/data/torch_models``, written by ``tools/make_torch_reference.py``
with torch 2.13.0 (``safetensors.torch.save_file``). The programs below are MAX programs: only
``latticecast.max`` is imported, and ``max.`` in place of ``latticecast.max.`` runs them under MAX.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from latticecast.max.driver import CPU
from latticecast.max.dtype import DType
from latticecast.max.engine import InferenceSession
from latticecast.max.graph import DeviceRef, Graph, TensorType, ops
from latticecast.max.graph.weights import SafetensorWeights

DATA = Path(__file__).resolve().parent / "data" / "torch_models"
REFERENCE = np.load(DATA / "reference.npz")


def linear(x, weights):  # torch.nn.Linear: x @ W^T + b
    return x @ weights.weight.allocate().T + weights.bias.allocate()


def test_the_files_are_torchs():
    assert str(REFERENCE["torch_version"]).startswith("2.13.0")
    names = [name for name, _ in SafetensorWeights([DATA / "mlp.safetensors"]).items()]
    assert names == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]


def test_a_two_layer_mlp_gives_torchs_outputs():
    weights = SafetensorWeights([DATA / "mlp.safetensors"])
    x = REFERENCE["mlp_x"]
    with Graph("mlp", input_types=[TensorType(DType.float32, x.shape, DeviceRef.CPU())]) as graph:
        hidden = ops.gelu(linear(graph.inputs[0].tensor, weights.fc1), approximate="tanh")
        graph.output(linear(hidden, weights.fc2))
    model = InferenceSession(devices=[CPU()]).load(graph, weights_registry=weights.allocated_weights)
    (y,) = model.execute(x)
    np.testing.assert_allclose(y.to_numpy(), REFERENCE["mlp_y"], rtol=1e-5, atol=1e-6)


def test_an_attention_block_gives_torchs_outputs():
    weights = SafetensorWeights([DATA / "attention.safetensors"])
    x = REFERENCE["attention_x"]
    batch, seq, dim = x.shape
    heads = 2
    head_dim = dim // heads
    with Graph("attention", input_types=[TensorType(DType.float32, x.shape, DeviceRef.CPU())]) as graph:
        h0 = graph.inputs[0].tensor
        h = ops.layer_norm(h0, weights.norm.weight.allocate(), weights.norm.bias.allocate(), epsilon=1e-5)

        def split_heads(t):
            return ops.permute(ops.reshape(t, [batch, seq, heads, head_dim]), [0, 2, 1, 3])

        q = split_heads(linear(h, weights.q_proj))
        k = split_heads(linear(h, weights.k_proj))
        v = split_heads(linear(h, weights.v_proj))
        scores = (q @ ops.transpose(k, -1, -2)) / float(np.sqrt(head_dim))
        causal = ops.constant(np.tril(np.ones((seq, seq), dtype=bool)), DType.bool, DeviceRef.CPU())
        scores = ops.where(causal, scores, ops.constant(-np.inf, DType.float32, DeviceRef.CPU()))
        attended = ops.permute(ops.softmax(scores) @ v, [0, 2, 1, 3])
        graph.output(h0 + linear(ops.reshape(attended, [batch, seq, dim]), weights.out_proj))
    model = InferenceSession(devices=[CPU()]).load(graph, weights_registry=weights.allocated_weights)
    (y,) = model.execute(x)
    np.testing.assert_allclose(y.to_numpy(), REFERENCE["attention_y"], rtol=1e-5, atol=1e-5)


def test_a_weight_of_another_shape_than_declared_is_maxs_error():
    weights = SafetensorWeights([DATA / "mlp.safetensors"])
    with pytest.raises(ValueError, match=r"Value provided to weight 'fc1.weight' had different shape"):
        weights.fc1.weight.allocate(shape=[8, 16])


def test_a_cut_short_file_names_the_file_and_tensor(tmp_path):
    from latticecast.errors import WeightsFileError
    cut = tmp_path / "mlp.safetensors"
    whole = (DATA / "mlp.safetensors").read_bytes()
    cut.write_bytes(whole[:-8])
    with pytest.raises(WeightsFileError, match=r"mlp\.safetensors"):
        weights = SafetensorWeights([cut])
        for _, w in weights.items():
            w.allocate()
