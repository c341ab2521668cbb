"""MAX's ``constant_external``, ``assert_same_device`` and ``as_interleaved_complex``."""

from __future__ import annotations

import numpy as np
import pytest

from latticecast import DType, Graph, GraphError, TensorType, ops
from latticecast.max.driver import CPU
from latticecast.max.engine import InferenceSession


def test_constant_external_is_a_weight_supplied_at_load_time_and_one_name_is_one_weight() -> None:
    with Graph("w", input_types=[TensorType(DType.float32, [3])]) as g:
        a = ops.constant_external("s", TensorType(DType.float32, [3]))
        b = ops.constant_external("s", TensorType(DType.float32, [3]))
        g.output(g.inputs[0] * a + b)
    assert list(g.weights) == ["s"]
    model = InferenceSession(devices=[CPU()]).load(g, weights_registry={"s": np.array([1, 2, 3], np.float32)})
    np.testing.assert_array_equal(model.execute(np.ones(3, np.float32))[0].to_numpy(), [2, 4, 6])


def test_constant_external_refuses_a_second_type_and_placeholders() -> None:
    with Graph("w") as g:
        ops.constant_external("s", TensorType(DType.float32, [3]))
        with pytest.raises(GraphError, match="cannot share its name"):
            ops.constant_external("s", TensorType(DType.float16, [3]))
        with pytest.raises(GraphError, match="no subgraph calls"):
            ops.constant_external("t", TensorType(DType.float32, [3]), is_placeholder=True)


def test_assert_same_device_passes_on_one_graphs_values() -> None:
    with Graph("d", input_types=[TensorType(DType.float32, [2])] * 2) as g:
        ops.assert_same_device(*g.inputs, named=g.inputs[0])
        g.output(g.inputs[0])


def test_as_interleaved_complex_pairs_the_last_axis() -> None:
    with Graph("c", input_types=[TensorType(DType.float32, [3, 8])]) as g:
        g.output(ops.as_interleaved_complex(g.inputs[0]))
    x = np.arange(24, dtype=np.float32).reshape(3, 8)
    (out,) = g.compile()(x)
    np.testing.assert_array_equal(out, x.reshape(3, 4, 2))
    with Graph("odd", input_types=[TensorType(DType.float32, [3, 5])]) as g2:
        with pytest.raises(GraphError, match="divisible by 2"):
            ops.as_interleaved_complex(g2.inputs[0])
