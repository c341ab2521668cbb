"""Four small programs written against MAX 26.7's ``max.graph`` API, in the
style of MAX's own documentation (``with Graph(name, input_types=[...]) as
graph:``, ``graph.inputs[i].tensor``, ``ops.*`` and TensorValue operators,
``graph.output(...)``).  They run unchanged on MAX (``tools/run_max_dropin.py``
wrote ``tests/data/max_dropin_reference.npz`` from them) and on latticecast with
only the two import lines replaced by ``from latticecast.max import ...``
(``tests/test_max_dropin.py`` makes exactly that replacement and compares).

Each ``build_<name>()`` returns the finished ``Graph``.  All tensors are
float32 and tiny (<= 16x16).  ``build_argmax`` uses a symbolic batch dimension
(``["batch", 10]``) the way the MAX docs do; the others are fully static.

Inputs (in order) are listed in ``INPUT_SHAPES`` so the runners can feed
seeded data; for the symbolic program it gives the concrete batch used.
"""

from __future__ import annotations

import math

from max.dtype import DType
from max.graph import DeviceRef, Graph, TensorType, ops

DEVICE = DeviceRef.CPU()

# name -> list of concrete input shapes (float32), in graph-input order
INPUT_SHAPES = {
    "mlp": [(4, 8), (8, 16), (16,), (16, 3), (3,)],
    "layernorm": [(4, 16), (16,), (16,)],
    "attention": [(8, 4), (8, 4), (8, 4)],
    "argmax": [(5, 10)],  # graph input is ["batch", 10]; batch = 5 here
}


def build_mlp() -> Graph:
    """(a) 2-layer MLP: relu(x @ W1 + b1) @ W2 + b2."""
    input_types = [
        TensorType(DType.float32, shape=[4, 8], device=DEVICE),   # x
        TensorType(DType.float32, shape=[8, 16], device=DEVICE),  # W1
        TensorType(DType.float32, shape=[16], device=DEVICE),     # b1
        TensorType(DType.float32, shape=[16, 3], device=DEVICE),  # W2
        TensorType(DType.float32, shape=[3], device=DEVICE),      # b2
    ]
    with Graph("mlp", input_types=input_types) as graph:
        x, w1, b1, w2, b2 = (value.tensor for value in graph.inputs)
        hidden = ops.relu(ops.matmul(x, w1) + b1)
        logits = hidden @ w2 + b2
        graph.output(logits)
    return graph


def build_layernorm() -> Graph:
    """(b) layer norm over the last axis: ops.layer_norm, plus the same thing
    written by hand with mean/variance (reductions keep the reduced axis)."""
    eps = 1e-5
    input_types = [
        TensorType(DType.float32, shape=[4, 16], device=DEVICE),  # x
        TensorType(DType.float32, shape=[16], device=DEVICE),     # gamma
        TensorType(DType.float32, shape=[16], device=DEVICE),     # beta
    ]
    with Graph("layernorm", input_types=input_types) as graph:
        x = graph.inputs[0].tensor
        gamma = graph.inputs[1].tensor
        beta = graph.inputs[2].tensor
        fused = ops.layer_norm(x, gamma=gamma, beta=beta, epsilon=eps)
        mean = x.mean(axis=-1)                      # shape [4, 1]
        centered = x - mean
        var = (centered * centered).mean(axis=-1)   # shape [4, 1]
        manual = centered * ops.rsqrt(var + eps) * gamma + beta
        graph.output(fused, manual)
    return graph


def build_attention() -> Graph:
    """(c) single-head causal self-attention on [T=8, d=4]."""
    seq_len, head_dim = 8, 4
    input_types = [
        TensorType(DType.float32, shape=[seq_len, head_dim], device=DEVICE)
        for _ in range(3)
    ]
    with Graph("attention", input_types=input_types) as graph:
        q, k, v = (value.tensor for value in graph.inputs)
        scores = q @ k.transpose(0, 1) * (1.0 / math.sqrt(head_dim))
        # lower-triangular (causal) mask from band_part on a matrix of ones
        ones = ops.constant(1.0, DType.float32, device=DEVICE).broadcast_to(
            [seq_len, seq_len]
        )
        causal = ops.band_part(ones, num_lower=None, num_upper=0) > 0.5
        masked = ops.where(causal, scores, float("-inf"))
        weights = ops.softmax(masked, axis=-1)
        out = ops.matmul(weights, v)
        graph.output(out, weights)
    return graph


def build_argmax() -> Graph:
    """(d) classification head: logits -> softmax probabilities and argmax."""
    input_types = [TensorType(DType.float32, shape=["batch", 10], device=DEVICE)]
    with Graph("argmax", input_types=input_types) as graph:
        logits = graph.inputs[0].tensor
        probs = ops.softmax(logits)
        labels = ops.argmax(logits, axis=-1)        # int64, shape [batch, 1]
        graph.output(labels, probs)
    return graph


BUILDERS = {
    "mlp": build_mlp,
    "layernorm": build_layernorm,
    "attention": build_attention,
    "argmax": build_argmax,
}
