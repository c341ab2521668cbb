"""Graph.add_subgraph and ops.call (MAX's): subgraphs as private functions of the module, called with func.call;
MAX's errors (wording measured with MAX 26.7)."""

from __future__ import annotations

import numpy as np
import pytest

from latticecast.max import DType, Graph, TensorType, ops


def test_nested_subgraphs_are_functions_called_by_func_call() -> None:
    t = TensorType(DType.float32, [3], "cpu")
    with Graph("outer", input_types=[t, t]) as g:
        with g.add_subgraph("middle", input_types=[t, t]) as middle:
            with middle.add_subgraph("inner", input_types=[t]) as inner:
                inner.output(inner.inputs[0] * 2, inner.inputs[0] + 1)
            doubled, plus = ops.call(inner, middle.inputs[0])
            middle.output(doubled + plus * middle.inputs[1])
        (first,) = ops.call(middle, *g.inputs)
        (second,) = ops.call(middle, first, g.inputs[1])
        assert second.type == t
        g.output(second)
    text = g.mlir()
    assert "func.func private @inner" in text and text.count("call @middle") == 2
    (out,) = g.compile()(np.array([1, 2, 3], np.float32), np.array([1, 0, 2], np.float32))
    step = lambda x, y: 2 * x + (x + 1) * y  # noqa: E731
    np.testing.assert_allclose(out, step(step(np.array([1, 2, 3.0]), np.array([1, 0, 2.0])), np.array([1, 0, 2.0])))


def test_call_checks_the_arguments_as_max_does() -> None:
    f = TensorType(DType.float32, [10], "cpu")
    i = TensorType(DType.int32, [10], "cpu")
    with Graph("main", input_types=[i, i]) as g:
        with g.add_subgraph("sub", input_types=[f]) as sub:
            sub.output(sub.inputs[0])
        with pytest.raises(ValueError, match=r"Expected 1 args to call to sub, got 2"):
            ops.call(sub, *g.inputs)
        with pytest.raises(ValueError, match="Subgraph sub has wrong type for argument 0"):
            ops.call(sub, g.inputs[0])
        with pytest.raises(ValueError, match="already has a function of that name"):
            g.add_subgraph("sub", input_types=[f])
        unfinished = g.add_subgraph("unfinished", input_types=[f])
        g.output(g.inputs[0])
    with pytest.raises(ValueError, match="subgraph 'unfinished' of graph 'main' has no output"):
        g.mlir()
    del unfinished


def test_a_subgraphs_text_is_its_modules() -> None:
    t = TensorType(DType.float32, [2], "cpu")
    with Graph("main", input_types=[t]) as g:
        with g.add_subgraph("twice", input_types=[t]) as sub:
            sub.output(sub.inputs[0] * 2)
        assert 'sym_name = "twice"' in str(sub)  # while the root is open: the module as built (generic form)
        g.output(*ops.call(sub, g.inputs[0]))
    assert sub.mlir() == g.mlir() and "func.func private @twice" in sub.mlir()
    with pytest.raises(ValueError, match="compile that graph"):
        sub.compile()
