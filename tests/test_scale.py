"""Scale: long chains build, pass and print without recursion and in linear time (no timing asserts).

The 100,000-op chain runs in every test run; the million-op chain is marked ``slow``
(``python3 dev.py test -m slow`` runs it).
"""

import sys

import pytest

from latticecast import DType, Graph, TensorType


def _chain(n: int) -> Graph:
    types = [DType.int8, DType.int16, DType.float32, DType.uint8, DType.float16]
    g = Graph(f"chain{n}", input_types=[TensorType(d, [8]) for d in types], policy="jax")
    xs = g.inputs
    acc = xs[0]
    with g:
        for i in range(n):
            acc = acc + xs[i % 5] if i % 3 else acc * xs[(i + 2) % 5]
        acc = acc + 1  # and a weak literal at the end
        g.output(acc)
    return g


def _check(n: int) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(150)  # nothing on the build/pass/print path may recurse per op
    try:
        g = _chain(n)
        text = g.mlir()
    finally:
        sys.setrecursionlimit(limit)
    assert text.count("stablehlo.convert") == 4  # one per input that must become f32
    assert text.count("stablehlo.add") + text.count("stablehlo.multiply") == n + 1
    assert g.module.operation.verify()


def test_hundred_thousand_op_chain():
    _check(100_000)


@pytest.mark.slow
def test_million_op_chain():
    _check(1_000_000)
