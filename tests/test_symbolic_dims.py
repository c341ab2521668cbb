"""Symbolic dimensions, as MAX has them: ``TensorType(dtype, ["batch", 10])`` builds dynamic-shape StableHLO
(``tensor<?x10xf32>``) that runs at any batch; names broadcast only against themselves and 1.

``g.compile()`` of such a graph gives the runtime's :class:`PolymorphicModel`, which refines the module to
each call's shapes (with JAX's shape refinement) and compiles once per shape.
"""

import numpy as np
import pytest

from latticecast import DType, Graph, GraphError, SymbolicDim, TensorType, ops
from latticecast.promotion.dims import Dim



def _batch(*shapes, dtype=DType.float32, name="sym"):
    return Graph(name, input_types=[TensorType(dtype, s) for s in shapes])


def test_a_symbolic_dimension_is_a_dynamic_dimension_of_main():
    with _batch(["batch", 10]) as g:
        (x,) = g.inputs
        assert x.shape == ("batch", 10) and x.shape[0] == SymbolicDim("batch") and x.type.mlir == "tensor<?x10xf32>"
        g.output(ops.softmax(x), x.argmax())
    text = g.mlir()
    assert "@main(%arg0: tensor<?x10xf32>) -> (tensor<?x10xf32>, tensor<?x1xi64>)" in text
    assert "dynamic_broadcast_in_dim" in text and "dynamic_iota" in text and "get_dimension_size" in text
    assert g.module.operation.verify()
    assert [str(t) for t in g.output_types] == ["float32[batch, 10]", "int64[batch, 1]"]


def test_inputs_that_share_a_name_are_asserted_equal_when_the_graph_runs():
    with _batch(["n", 3], ["n", 3], [2, "m"]) as g:
        x, y, z = g.inputs
        g.output(x + y, z)
    text = g.mlir()
    assert text.count("@shape_assertion") == 1  # n twice; m once needs nothing
    assert "args[1].shape[0] (= {0}) and args[0].shape[0] (= {1}) are both 'n'" in text


def test_broadcasting_follows_max():
    with _batch(["batch", 3], [2, 3], [1, 3], ["other", 3]) as g:
        x, two, one, other = g.inputs
        assert (x + one).shape == ("batch", 3) and (x + x[0]).shape == ("batch", 3)
        assert (x - x.max(axis=0)).shape == ("batch", 3)
        with pytest.raises(GraphError, match=r"dimensions batch and 2 are neither equal nor 1 .* x.rebind"):
            x + two
        with pytest.raises(GraphError, match="dimensions batch and other are neither equal nor 1"):
            x + other
        g.output(x + one)


def test_shape_ops_keep_names_and_give_algebraic_dimensions():
    with _batch(["batch", 10]) as g:
        (x,) = g.inputs
        assert x.reshape(["batch", 2, 5]).shape == ("batch", 2, 5)
        assert x.reshape([2, "batch", 5]).shape == (2, "batch", 5)
        assert x.reshape(["batch", -1, 2]).shape == ("batch", 5, 2)
        assert x.T.shape == (10, "batch") and (x @ x.T).shape == ("batch", "batch")
        assert ops.unsqueeze(x, 0).shape == (1, "batch", 10) and ops.concat([x, x], axis=1).shape == ("batch", 20)
        assert x.broadcast_to([3, "batch", 10]).shape == (3, "batch", 10)
        assert x[0].shape == (10,) and x[-1].shape == (10,) and x[:, 1:3].shape == ("batch", 2)
        batch = Dim("batch")
        # as MAX 26.7: the sizes are algebraic dimensions (measured with the oracle)
        assert x.reshape([-1]).shape == [batch * 10] and x.flatten().shape == [batch * 10]
        assert ops.concat([x, x]).shape == [batch * 2, 10] and x[1:].shape == [batch - 1, 10]
        assert x[::2].shape == [(batch + 1) // 2, 10] and str(x[::2].shape[0]) == "(batch + 1) // 2"
        for bad, message in [(lambda: x.reshape(["n", 10]), "number of elements must match"),
                             (lambda: x.broadcast_to(["m", "batch", 10]), "no input with the symbolic dimension 'm'"),
                             (lambda: int(SymbolicDim("batch") * 3), "only supported for static dims")]:
            with pytest.raises((GraphError, TypeError), match=message):
                bad()
        g.output(x)


def test_algebraic_sizes_are_computed_when_the_graph_runs():
    batch = Dim("batch")
    with _batch(["batch", 2], [3]) as g:
        x, three = g.inputs
        y = x.rebind([Dim("half") * 2, 2]).reshape([Dim("half"), 4])  # a new name solved from half * 2 == batch
        g.output(ops.concat([x, x[1:]]), x.reshape([-1]), x[::2], y, ops.tile(three, [batch]),
                 ops.repeat_interleave(x, 2, axis=0), ops.pad(x, [1, 0, 0, 0]))
    a = np.arange(8, dtype=np.float32).reshape(4, 2)
    c = np.array([1, 2, 3], np.float32)
    got = g.compile()(a, c)
    want = [np.concatenate([a, a[1:]]), a.reshape(-1), a[::2], a.reshape(2, 4), np.tile(c, 4),
            np.repeat(a, 2, axis=0), np.pad(a, [(1, 0), (0, 0)])]
    for r, w in zip(got, want):
        np.testing.assert_array_equal(r, w)


def test_rebind_asserts_sizes_and_names_new_dimensions():
    with _batch(["batch", 3]) as g:
        (x,) = g.inputs
        assert x.rebind([4, 3]).shape == (4, 3)
        q = x.rebind(["q", 3])
        assert q.shape == ("q", 3) and q.broadcast_to([2, "q", 3]).shape == (2, "q", 3)
        with pytest.raises(GraphError, match="axis 1 has size 3, not 4"):
            x.rebind(["batch", 4])
        with pytest.raises(GraphError, match="the ranks differ"):
            x.rebind([3])
        g.output(x.rebind([4, 3], message="the batch must be 4 here"))
    assert "the batch must be 4 here" in g.mlir()


def _numpy_program(a: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    e = np.exp(a - a.max(-1, keepdims=True))
    return [a.argmax(-1)[:, None], e / e.sum(-1, keepdims=True) + y, a.reshape(-1, 2, 5), a[-1],
            a.mean(0, keepdims=True), np.tril(a @ a.T), a[:, 1:3] * 2]


def _program() -> Graph:
    with _batch(["batch", 10], ["batch", 10], name="poly") as g:
        x, y = g.inputs
        g.output(x.argmax(), ops.softmax(x) + y, x.reshape(["batch", 2, 5]), x[-1], x.mean(axis=0),
                 ops.band_part(x @ x.T, None, 0), x[:, 1:3] * 2)
    return g


@pytest.mark.parametrize("batch", [5, 1, 3])
def test_one_graph_runs_at_every_batch(batch):
    a = np.random.default_rng(batch).standard_normal((batch, 10), dtype=np.float32)
    y = np.ones((batch, 10), np.float32)
    outs = _program().compile()(a, y)
    for got, want in zip(outs, _numpy_program(a, y), strict=True):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_a_size_that_contradicts_the_graph_is_refused_when_it_runs():
    # no op uses x and y: only the assertion knows that their batches must agree
    with _batch(["batch", 3], ["batch", 3]) as g:
        g.output(*g.inputs)
    with pytest.raises(Exception, match=r"args\[1\].shape\[0\] \(= 4\) and args\[0\].shape\[0\] \(= 5\) are both "
                                        "'batch', so they must be equal"):
        g.compile()(np.ones((5, 3), np.float32), np.ones((4, 3), np.float32))
    with _batch(["batch", 3]) as g:
        g.output(g.inputs[0].rebind([4, 3]) + 1)
    (out,) = g.compile()(np.zeros((4, 3), np.float32))
    np.testing.assert_array_equal(out, np.ones((4, 3), np.float32))


def test_compile_gives_a_model_for_every_batch():
    model = _program().compile()
    for batch in (5, 2):
        a = np.random.default_rng(batch).standard_normal((batch, 10), dtype=np.float32)
        y = np.zeros((batch, 10), np.float32)
        for got, want in zip(model(a, y), _numpy_program(a, y), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_compiled_model_refuses_inputs_whose_names_disagree():
    model = _program().compile()
    with pytest.raises(Exception, match="are both 'batch', so they must be equal"):
        model(np.ones((5, 10), np.float32), np.ones((4, 10), np.float32))
    with _batch(["batch", 3]) as g:
        g.output(g.inputs[0].rebind([4, 3]))
    with pytest.raises(Exception, match=r"rebind of \[batch, 3\] to \[4, 3\]: axis 0 has size 2, not 4"):
        g.compile()(np.ones((2, 3), np.float32))
