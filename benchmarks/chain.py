"""The mixed-dtype chain the benchmarks share: the same program for latticecast and for JAX.

``N`` binary ops over five inputs of different dtypes (int8, int16, float32, uint8,
float16), alternating ``+`` and ``*``; under the ``jax`` policy (x64) every op's
promotion is JAX's. Kept in one place so that every benchmark measures one program.
"""

from __future__ import annotations

import numpy as np

from latticecast import DType, Graph, TensorType

DTYPES = (DType.int8, DType.int16, DType.float32, DType.uint8, DType.float16)
SHAPE = (8,)


def chain_ops(xs, n: int):
    """The chain over any values with + and * (graph values or jax arrays)."""
    acc = xs[0]
    for i in range(n):
        acc = acc + xs[i % 5] if i % 3 else acc * xs[(i + 2) % 5]
    return acc


def build_graph(n: int, policy: str = "jax") -> Graph:
    g = Graph(f"chain{n}", input_types=[TensorType(d, SHAPE) for d in DTYPES], policy=policy)
    with g:
        g.output(chain_ops(g.inputs, n))
    return g


def jax_function():
    def f(*xs):
        return chain_ops(xs, f.n)
    return f


def inputs(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 3, SHAPE).astype(d.np_dtype) for d in DTYPES]
