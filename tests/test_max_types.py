"""MAX's value types as MAX 26.7 has them (each expectation measured with max==26.7.0):
Dim/StaticDim/SymbolicDim/AlgebraicDim as types, Shape, DType's methods, (lhs, rhs), IndexError for a bad
axis, a mutable TensorType."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import latticecast as lc
from latticecast.max import AlgebraicDim, DType, Dim, Graph, Shape, StaticDim, SymbolicDim, TensorType, ops


def test_dims_are_types_as_hypothesis_needs():
    for cls in (Dim, StaticDim, SymbolicDim, AlgebraicDim):
        assert isinstance(cls, type)
    assert issubclass(StaticDim, Dim) and issubclass(SymbolicDim, Dim) and issubclass(AlgebraicDim, Dim)


def test_dim_of_a_size_is_a_static_dim_equal_to_it():
    d = Dim(3)
    assert type(d) is StaticDim and d == 3 and hash(d) == hash(3) and int(d) == 3 and d.dim == 3
    assert repr(d) == "Dim(3)" and str(d) == "3" and d + 1 == 4
    assert Dim(np.int64(5)) == 5 and StaticDim(2**63 - 1) == 2**63 - 1
    assert Dim(d) is d


def test_dim_of_a_name_is_a_symbolic_dim():
    d = Dim("batch")
    assert type(d) is SymbolicDim and d == "batch" and repr(d) == "Dim('batch')"


def test_every_dimension_a_shape_holds_is_a_dim():
    assert isinstance(3, Dim) and isinstance(3, StaticDim) and isinstance(SymbolicDim("n"), Dim)
    assert not isinstance(SymbolicDim("n"), StaticDim) and not isinstance(True, Dim)
    assert not isinstance(3, SymbolicDim) and not isinstance(3, AlgebraicDim)


def test_dims_refuse_what_is_not_one():
    with pytest.raises(TypeError, match="1.5"):
        Dim(1.5)
    with pytest.raises(TypeError):
        StaticDim("n")
    with pytest.raises(lc.GraphError, match="int64"):
        StaticDim(2**63)
    with pytest.raises(TypeError, match="AlgebraicDim.__init__ only accepts .* got int"):
        AlgebraicDim(5)  # MAX's message: an algebraic dimension comes from arithmetic on dimensions


def test_a_shape_is_equal_to_a_list_of_its_dims():
    s = Shape([2, "batch", StaticDim(3)])
    assert s == [2, "batch", 3] and s == (2, "batch", 3) and s != [2, "batch"] and s != [2, "batch", 4]
    assert s.rank == 3 and s.static_dims == [2, 3]
    assert isinstance(s[0], StaticDim) and isinstance(s[1], SymbolicDim) and hash(s) == hash((2, "batch", 3))


def test_shapes_of_types_and_values_compare_with_lists():
    t = TensorType(DType.float32, ["batch", 3])
    assert t.shape == ["batch", 3] and isinstance(t.shape, Shape)
    with Graph("shape", input_types=[t]) as g:
        x = g.inputs[0]
        assert x.shape == ["batch", 3] and x.shape.rank == 2 and x.shape.static_dims == [3]
        assert ops.reshape(x, ["batch", 3, 1]).shape == ["batch", 3, 1]


def test_dtype_predicates_are_methods_as_in_max():
    assert DType.float32.is_float() and not DType.int8.is_float() and not DType.complex64.is_float()
    assert DType.uint8.is_integral() and not DType.bool.is_integral()
    assert DType.int8.is_signed_integral() and not DType.uint8.is_signed_integral()
    assert DType.uint8.is_unsigned_integral() and not DType.int8.is_unsigned_integral()
    assert DType.float8_e4m3fn.is_float8() and not DType.float16.is_float8()
    assert DType.bfloat16.is_half() and DType.float16.is_half() and not DType.float32.is_half()


@pytest.mark.parametrize("dtype, bits, nbytes", [
    (DType.float32, 32, 4), (DType.bool, 8, 1), (DType.float4_e2m1fn, 4, 1), (DType.int64, 64, 8),
    (DType.bfloat16, 16, 2),
])
def test_dtype_sizes_as_max_counts_them(dtype, bits, nbytes):
    assert (dtype.size_in_bits, dtype.size_in_bytes, dtype.align) == (bits, nbytes, nbytes)


def test_dtype_numpy_round_trip():
    assert DType.float32.to_numpy() == np.float32 and DType.from_numpy(np.dtype("int8")) is DType.int8
    assert DType.from_numpy(np.float16) is DType.float16
    with pytest.raises(lc.UnknownDTypeError):
        DType.from_numpy("not a dtype")


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "pow", "mod", "equal", "not_equal", "greater",
                                  "greater_equal", "logical_and", "logical_or", "logical_xor", "matmul"])
def test_binary_ops_take_lhs_and_rhs(name):
    assert list(inspect.signature(getattr(ops, name)).parameters) == ["lhs", "rhs"]


def test_binary_ops_called_by_keyword():
    with Graph("kw", input_types=[TensorType(DType.float32, [2])] * 2) as g:
        x, y = g.inputs
        assert ops.sub(lhs=x, rhs=y).shape == [2] and ops.matmul(lhs=x, rhs=y).shape == []


@pytest.mark.parametrize("build", [
    lambda x: ops.squeeze(x, 7), lambda x: ops.concat([x, x], axis=4), lambda x: ops.transpose(x, 0, 5),
    lambda x: ops.sum(x, axis=5),
])
def test_a_bad_axis_is_an_index_error_and_a_graph_error(build):
    with Graph("axis", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        with pytest.raises(IndexError, match="out of range") as info:
            build(g.inputs[0])
    assert isinstance(info.value, lc.GraphError) and isinstance(info.value, ValueError)


def test_a_tensor_type_can_be_changed_and_is_checked():
    t = TensorType(DType.float32, [2, 3])
    t.dtype = DType.int32
    t.shape = [4, "n"]
    assert t == TensorType(DType.int32, [4, "n"]) and isinstance(t.shape, Shape)
    assert hash(t) == hash(TensorType(DType.int32, [4, "n"]))
    with pytest.raises(lc.GraphError, match="out of range"):
        t.shape = [-1]
    with pytest.raises(lc.UnknownDTypeError):
        t.dtype = "float33"


def test_a_shape_plus_a_list_is_a_shape_and_plus_a_tuple_a_tuple():
    s = Shape([2, "n"])
    assert type(s + [3]) is Shape and s + [3] == [2, "n", 3] and [1] + s == [1, 2, "n"]
    assert type(s + (3,)) is Shape and type((1,) + s) is Shape  # a list, as MAX's: + a tuple is a Shape too


def test_dtype_enumerates_max_26_7s_members():
    names = [d.name for d in DType]
    assert len(DType) == len(names) == 21 and names[:3] == ["bool", "int8", "int16"]
    assert "index" not in names and DType.index not in DType and DType.float32 in DType
    assert DType.float32 is lc.DType.float32 and isinstance(DType.index, DType) and DType["int8"] is lc.DType.int8
    assert DType("float32") is lc.DType.float32 and DType.parse("f32") is lc.DType.float32


def test_static_dims_up_to_the_largest_int64():
    assert TensorType(DType.int8, [2**63 - 1]).shape == [2**63 - 1]
    with pytest.raises(lc.GraphError, match="out of range"):
        TensorType(DType.int8, [2**63])


def test_an_empty_kernel_library_is_accepted_and_paths_are_refused():
    from latticecast.max import KernelLibrary
    g = Graph("kl", input_types=[TensorType(DType.float32, [2])], kernel_library=KernelLibrary())
    assert g.name == "kl"
    with pytest.raises(lc.GraphError, match="Mojo"):
        KernelLibrary(["kernels.mojopkg"])
    with pytest.raises(lc.GraphError, match="kernel_library"):
        Graph("kl2", input_types=[TensorType(DType.float32, [2])], kernel_library=object())
