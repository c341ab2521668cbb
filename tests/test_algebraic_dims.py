"""Algebraic dimensions, MAX's list-like ``Shape`` and the MLIR round trip of dims and tensor types.

The expected simplifications, printed forms and error messages were measured with MAX 26.7
(``max.graph.Dim``)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from latticecast import DType, Graph, TensorType, ops
from latticecast.promotion.device_ref import DeviceRef
from latticecast.promotion.dims import AlgebraicDim, Dim, Shape, StaticDim, SymbolicDim, solve_for

x, y = Dim("x"), Dim("y")


@pytest.mark.parametrize("expr, text, kind", [
    (x + 1, "x + 1", AlgebraicDim), (1 + x, "x + 1", AlgebraicDim), (3 * x, "x * 3", AlgebraicDim),
    (y + x, "x + y", AlgebraicDim), (x - x, "0", StaticDim), (x * 1, "x", SymbolicDim), (x // 1, "x", SymbolicDim),
    (-x, "x * -1", AlgebraicDim), (-x - 4, "(x * -1) + -4", AlgebraicDim), ((x + 1) * 4, "(x * 4) + 4", AlgebraicDim),
    (4 * x // 5, "(x * 4) // 5", AlgebraicDim), (x // 4 * 4, "(x // 4) * 4", AlgebraicDim), (x * 4 // 4, "x", SymbolicDim),
    (x * 8 // 4, "x * 2", AlgebraicDim), ((x + y - 4) // 5, "(x + y + -4) // 5", AlgebraicDim),
    ((x + 1) * (y + 1), "(x * y) + x + y + 1", AlgebraicDim), (x - x // 2, "((x // 2) * -1) + x", AlgebraicDim),
    (y * 2 + x, "(y * 2) + x", AlgebraicDim), (x * 2 // -2, "x // -1", AlgebraicDim), ((x * y) // y, "x", SymbolicDim),
    ((x * 2 + 3) // 2, "((x * 2) + 3) // 2", AlgebraicDim), ((x * 4 + 8) // 4, "x + 2", AlgebraicDim),
    (Dim(5) + Dim(10), "15", StaticDim), (Dim(4) // 5 * "x", "0", StaticDim), (x * (y // 2), "(y // 2) * x", AlgebraicDim),
])
def test_dimension_arithmetic_simplifies_and_prints_as_max(expr, text, kind):
    assert str(expr) == text and type(expr) is kind


def test_algebraic_dims_compare_repr_and_pickle_as_max():
    assert 4 * x + 4 == (x + 1) * 4 and 4 * x // 5 != Dim(4) // 5 * "x" and -x - 4 == -(x + 4)
    assert repr((x + "y" - 4) // 5) == "(Dim('x') + Dim('y') + Dim(-4)) // Dim(5)"
    assert hash(x * 2 + 1) == hash(1 + 2 * x) and (x + 1) != "x"
    d = (x + 1) // y
    assert pickle.loads(pickle.dumps(d)) == d and d.parameters == [x, y]
    assert (x * 2 + 1).substitute({"x": 3}) == 7 and solve_for(x * 4 + y, "x") == (4, y)


def test_dimension_constructors_follow_max():
    s, n, a = StaticDim(5), SymbolicDim("n"), x + 1
    assert StaticDim(s) is s and SymbolicDim(n) is n and AlgebraicDim(a) is a and Dim(a) is a
    for make, value, got in [(StaticDim, "5", "str"), (StaticDim, n, "SymbolicDim"), (SymbolicDim, 5, "int"),
                             (SymbolicDim, s, "StaticDim"), (AlgebraicDim, s, "StaticDim"), (AlgebraicDim, 5, "int")]:
        with pytest.raises(TypeError, match=rf"{make.__name__}.__init__ only accepts .*, got {got}"):
            make(value)
    with pytest.raises(TypeError, match="Int conversions only supported for static dims"):
        int(n)
    with pytest.raises(ZeroDivisionError):
        Dim(10) // 0
    with pytest.raises(ValueError, match="Invalid name for symbolic dimension"):
        SymbolicDim("1a")


def test_dims_and_tensor_types_round_trip_through_mlir():
    for d in (Dim(3), Dim("batch"), (x + 1) * y // 2):
        assert Dim.from_mlir(d.to_mlir()) == d and type(Dim.from_mlir(d.to_mlir())) is type(d)
    assert str((x + 1).to_mlir()) == '["add", @x, 1]'
    # a symbolic dimension is MAX's kgen.ParamDeclRefAttr (a FlatSymbolRefAttr here): MAX's name in the message
    with pytest.raises(TypeError, match="StaticDim.from_mlir only accepts builtin.IntegerAttr, got ParamDeclRefAttr"):
        StaticDim.from_mlir(x.to_mlir())
    for t in (TensorType(DType.float32, [3, "x"]), TensorType(DType.int8, [x * 2, 4], DeviceRef.GPU(2))):
        assert TensorType.from_mlir(t.to_mlir()) == t
    assert TensorType(DType.float32, [7, 2]).to_mlir() == TensorType(DType.float32, [7, 2]).to_mlir()
    assert Shape.from_mlir(Shape([2, "n", x + 1]).to_mlir()) == [2, "n", x + 1]


def test_a_shape_is_a_list_of_dims():
    s = Shape([2, "batch", 3])
    s[0] = Dim(4)
    assert s.pop() == 3 and s == [4, "batch"] and isinstance(s[0], StaticDim) and s[0].dim == 4
    assert s + [x + 1] == [4, "batch", x + 1] and s.parameters == [Dim("batch")]
    t = TensorType(DType.float32, [2, 3])
    t.shape[1] = 6  # changes the type, as MAX's
    assert t.shape == [2, 6]
    with pytest.raises(TypeError, match="dimensions must be non-negative"):
        TensorType(DType.float32, [-1])
    with Graph("list", input_types=[t]) as g:
        shape = g.inputs[0].shape
        shape[0] = 5  # a fresh copy: the value keeps its shape
        assert g.inputs[0].shape == [2, 6]


def test_dims_as_operands_are_their_sizes_when_the_graph_runs():
    with Graph("operand", input_types=[TensorType(DType.int64, ["n"])]) as g:
        (v,) = g.inputs
        total = Dim("n") * 2 + v  # MAX: a dim operand is an int64[1] of its size
        assert total.dtype == DType.int64 and total.shape == ["n"]
        g.output(total, Dim(5) + v)
    a = np.array([1, 2, 3], np.int64)
    got = g.compile()(a)
    assert got[0].tolist() == [7, 8, 9] and got[1].tolist() == [6, 7, 8]


def test_value_indexes_sort_and_scan_symbolic_axes():
    a = np.array([[3, 1, 2], [0, 5, 4]], np.float32)
    with Graph("sym", input_types=[TensorType(DType.float32, ["n", "m"])]) as g:
        (v,) = g.inputs
        i, j = ops.constant(-1, DType.int64), ops.constant(1, DType.int64)
        g.output(v[i], v[:, j], v[1:, j], ops.argsort(v[0]), ops.cumsum(v, axis=1),
                 ops.cumsum(v, axis=0, exclusive=True, reverse=True), ops.pad(v, [0, 0, 2, 1], mode="reflect"))
    got = g.compile()(a)
    want = [a[-1], a[:, 1], a[1:, 1], np.argsort(a[0], kind="stable"), np.cumsum(a, axis=1),
            np.array([[0, 5, 4], [0, 0, 0]], np.float32), np.pad(a, [(0, 0), (2, 1)], "reflect")]
    for r, w in zip(got, want):
        np.testing.assert_array_equal(r, w)


def test_every_dtype_round_trips_through_mlir():
    for d in DType:
        if not d.stablehlo_gap:
            t = TensorType(d, [2, "n"])
            assert TensorType.from_mlir(t.to_mlir()) == t
