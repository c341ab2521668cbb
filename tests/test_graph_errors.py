"""Every build-time error of the graph builder names the problem and what to write instead."""

import numpy as np
import pytest

from latticecast import (DomainError, DType, Graph, GraphError, LiteralRangeError, PassFailure, PromotionError,
                         TensorType)
from latticecast import ops
from latticecast.graph.ops import operands as emit


def _g(*types, policy="jax", shape=(4,)):
    return Graph("e", input_types=[TensorType(d, shape) for d in types], policy=policy)


def test_tensor_type_and_input_names():
    with pytest.raises(GraphError, match="must be non-negative integers"):
        TensorType(DType.int8, [-1])
    with pytest.raises(GraphError, match="1 input names for 2 inputs"):
        Graph("e", input_types=[TensorType(DType.int8, [2]), TensorType(DType.int8, [2])], input_names=["x"])


def test_shape_op_errors():
    with _g(DType.int8, shape=(2, 3)) as g:
        (x,) = g.inputs
        with pytest.raises(GraphError, match="at most one dimension can be -1"):
            x.reshape([-1, -1])
        with pytest.raises(GraphError, match="repeats an axis; list every axis once"):
            ops.permute(x, [0, 0])
        with pytest.raises(GraphError, match="orders 1 axes, but the value has rank 2"):
            x.permute([0])
        with pytest.raises(GraphError, match="repeated axis"):
            ops.reduce_sum(x, axis=(1, 1))
        with pytest.raises(GraphError, match="sum reduces one axis .* use ops.reduce_sum"):
            ops.sum(x, axis=None)
        with pytest.raises(GraphError, match="cannot broadcast shape \\[2, 3\\] to \\[3\\]"):
            emit.broadcast(x, (3,))


def test_unary_and_selection_errors():
    with _g(DType.bool, DType.complex64, DType.int8) as g:
        b, c, i = g.inputs
        with pytest.raises(DomainError, match="where needs a bool condition, not int8; compare it first"):
            ops.where(i, i, i)
        with pytest.raises(DomainError, match="where needs a bool condition, not 2"):
            ops.where(2, i, i)
        with pytest.raises(DomainError, match="unary - is not defined for bool"):
            -b
        with pytest.raises(DomainError, match="abs is not defined for bool"):
            abs(b)
        with pytest.raises(DomainError, match="sign is not defined for bool"):
            ops.sign(b)
        with pytest.raises(DomainError, match="floor is not defined for complex"):
            ops.floor(c)
        with pytest.raises(DomainError, match="max is not defined for complex"):
            c.max()
        with pytest.raises(TypeError, match="cannot use dict .* as a tensor value"):
            i + {}


def test_matmul_errors():
    with Graph("m", input_types=[TensorType(DType.float32, [2, 3, 4]), TensorType(DType.float32, [5, 4, 2]),
                     TensorType(DType.float32, [3])]) as g:
        a, b, v = g.inputs
        with pytest.raises(GraphError, match="the batch dimensions of \\[2, 3, 4\\] and \\[5, 4, 2\\] cannot be broadcast"):
            a @ b
        with pytest.raises(GraphError, match="matmul needs two tensors, not a Python scalar"):
            v @ 2
        with pytest.raises(GraphError, match="needs tensors of rank 1 or more"):
            v @ g.constant(np.float32(1))


def test_policy_specific_errors():
    with _g(DType.int16, policy="jax-lax") as g:
        with pytest.raises(DomainError, match="mean needs floats under policy 'jax-lax'"):
            g.inputs[0].mean()
    with _g(DType.float32, policy="max") as g:
        with pytest.raises(PromotionError, match="policy 'max' has no complex dtypes for the literal 1j"):
            g.inputs[0] + 1j
    with _g(DType.float32) as g:
        with pytest.raises(LiteralRangeError, match="complex value 1j does not fit float32"):
            g.constant(np.array([1j]), DType.float32)


def test_a_rejected_graph_keeps_failing_and_keeps_its_ir():
    g = Graph("lossy", input_types=[TensorType(DType.int64, [4]), TensorType(DType.float16, [4])], diagnose_lossy="error")
    with g:
        x, h = g.inputs
        g.output(x + h)
    with pytest.raises(PassFailure) as first:
        g.mlir()
    assert "implicit-cast rejected graph 'lossy'" in str(first.value)
    assert "implicit promotion of i64 to f16 can lose magnitude" in first.value.diagnostics[0]
    with pytest.raises(PassFailure) as second:
        _ = g.module
    assert second.value is first.value
    assert '"stablehlo.add"(%arg0, %arg1)' in g.mlir(before_passes=True)


def test_lossy_warnings_reach_python(recwarn):
    from latticecast.passes import LossyPromotionWarning
    g = Graph("lossy", input_types=[TensorType(DType.int64, [4]), TensorType(DType.float16, [4])], diagnose_lossy="warning")
    with g:
        g.output(g.inputs[0] + g.inputs[1])
    with pytest.warns(LossyPromotionWarning, match="i64 to f16 can lose magnitude"):
        g.mlir()
    assert len(g.diagnostics) == 1
