"""MAX 26.7's error types and wording, and the dtype rules MAX applies in existing ops.

The expected messages and exception types were measured with MAX 26.7 (``max.graph``) and are
written here as facts: each latticecast message contains MAX's wording, then latticecast's hint.
"""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

import latticecast as lc
import latticecast.max
from latticecast import DType, Graph, GraphError, TensorType, ops

from conftest import library_python


def _graph(*types: TensorType, policy: str = "max-python") -> Graph:
    return Graph("msgs", input_types=list(types), policy=policy)


def test_the_new_errors_keep_both_builtin_bases() -> None:
    assert issubclass(lc.GraphTypeError, GraphError) and issubclass(lc.GraphTypeError, TypeError)
    assert issubclass(lc.OperandDTypeError, lc.DomainError) and issubclass(lc.OperandDTypeError, ValueError)
    # MAX raises ValueError for the promotions it refuses ("Unsafe cast"); JAX and NumPy TypeError
    assert issubclass(lc.PromotionError, ValueError) and issubclass(lc.PromotionError, TypeError)


def test_scatter_dtypes_indices_and_axis_as_max() -> None:
    f32, f64, i64 = (TensorType(d, [3]) for d in (DType.float32, DType.float64, DType.int64))
    with _graph(f32, f64, i64, TensorType(DType.float32, [3, 3, 3])) as g:
        x, u, i, cube = g.inputs
        with pytest.raises(ValueError, match=r"The input dtype 'DType.float32' and updates dtype 'DType.float64' "
                                             r"must match\..*updates.cast\(DType.float32\)"):
            ops.scatter_max(x, u, i, axis=0)
        with pytest.raises(ValueError, match=r"The input dtype \(float32\) and updates dtype \(float64\) must match"):
            ops.scatter_nd(x, u, ops.reshape(i, [3, 1]))
        with pytest.raises(ValueError, match=r"Invalid indices dtype: 'DType.float32'. Indices must be of type "
                                             r"int32 or int64.*indices.cast\(DType.int64\)"):
            ops.scatter(x, x, x, axis=0)
        with pytest.raises(ValueError, match=r"Invalid axis value 100. Axis must be in range \[-3, 2\]"):
            ops.scatter(cube, cube, ops.cast(cube, DType.int64), axis=100)


def test_scatter_add_and_mul_of_bool_are_or_and_and() -> None:
    b = np.array([True, False, False])
    with _graph(TensorType(DType.bool, [3]), TensorType(DType.bool, [2])) as g:
        x, u = g.inputs
        idx = np.array([[0], [1]], np.int64)
        g.output(ops.scatter_nd_add(x, u, idx), ops.scatter_nd_mul(x, u, idx))
    added, multiplied = g.compile()(b, np.array([False, True]))
    assert added.tolist() == [True, True, False] and multiplied.tolist() == [False, False, False]


def test_shape_op_messages_carry_max_wording() -> None:
    with _graph(TensorType(DType.float32, [2, 3]), TensorType(DType.int32, [2, 3]),
                TensorType(DType.float32, [2]), TensorType(DType.float32, [15])) as g:
        x, xi, v, long = g.inputs
        cases = [
            (lambda: ops.stack([]), ValueError, "Expected at least one value to stack"),
            (lambda: ops.stack([x, v]), ValueError, "All inputs to stack must be the same rank"),
            (lambda: ops.stack([x, xi]), ValueError, "All inputs to stack must have the same dtype"),
            (lambda: ops.stack([x], axis=3), IndexError,
             r"Axis out of range \(expected to be in range of \[-3, 2\], but got 3\)"),
            (lambda: ops.transpose(x, 2, 0), IndexError,
             r"Axis axis_1 out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
            (lambda: ops.split(long, [10, 6], 0), ValueError,
             r"Split sizes must sum to dimension value; x.shape\[axis\]=Dim\(15\) != sum\(sizes=\[10, 6\]\)"),
            (lambda: ops.split(long, [15], 2), IndexError, r"Axis must be in range \[-1, 1\), got 2"),
            (lambda: ops.chunk(v, 3), ValueError, r"chunks=3 must statically divide x.shape\[axis\]=Dim\(2\)"),
            (lambda: ops.band_part(v), ValueError, r"x.shape=\[2\] must have at least 2 dimensions"),
            (lambda: ops.broadcast_to(v, [2, 7]), ValueError,
             r"\[broadcast_to\] input dimension at index 0 \(2\) must be either 1 or equal to corresponding output "
             r"dimension at index 1 \(7\)"),
            (lambda: ops.top_k(v, 3), ValueError, r"k \(3\) cannot be larger than dimension size along axis 0"),
            (lambda: ops.top_k(v, 1, axis=7), IndexError, r"axis \(7\) out of bounds"),
            (lambda: ops.argsort(x), ValueError, "argsort only implemented for input tensors of rank 1"),
            (lambda: ops.pad(v, [1, 1], mode="wrap"), ValueError, "unsupported padding mode 'wrap'"),
            (lambda: ops.reshape(x, [-1, 0, 2]), ValueError,
             r"reshape\(\): cannot infer -1 dimension when another dimension is 0"),
            (lambda: ops.nonzero(ops.constant(1.0, DType.float32), 1), ValueError, "Scalar inputs not supported"),
            (lambda: ops.where(x, x, x), ValueError,
             "Expected condition to be a boolean tensor, but got a tensor with dtype DType.float32"),
            (lambda: ops.where(ops.cast(x, DType.bool), v, v), ValueError,
             r"Input condition \(shape \[2, 3\]\) dimension at axis 1 \(value 3\) and input x \(shape \[2\]\) "
             "dimension at axis 0 \\(value 2\\) are neither equivalent nor broadcastable"),
            (lambda: ops.logical_and(xi, xi), ValueError, "Inputs must be bools"),
            (lambda: ops.layer_norm(x, np.ones(2, np.float32), np.zeros(3, np.float32), 1e-5), ValueError,
             "Gamma size 2 does not match dimension of reduction 3"),
            (lambda: ops.layer_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32), 0.0), ValueError,
             "epsilon must be positive"),
            (lambda: ops.fold(ops.reshape(long, [1, 1, 15]), (1, 1), (1, 1), padding=(1, 1)), ValueError,
             r"Last dimension of input tensor \(15\) must match the calculated number of blocks \(9\)"),
            (lambda: ops.hann_window(5.5), TypeError, "window_length must be an integer, got float"),
            (lambda: ops.shape_to_tensor(None), TypeError, "must be a sequence of dimensions"),
            (lambda: ops.range(ops.constant([0], DType.int32), 5, 1, out_dim=5, dtype=DType.int32), ValueError,
             "range expected scalar values as inputs!"),
            (lambda: ops.range(ops.constant(0, DType.int32), 5, 1, dtype=DType.int32), ValueError,
             "Dynamic ranges must provide an explicit out_dim"),
        ]
        for build, error, words in cases:
            with pytest.raises(error, match=words):
                build()


def test_transpose_of_a_scalar_takes_the_axes_of_a_rank_one_value() -> None:
    with _graph(TensorType(DType.float32, [])) as g:
        s = g.inputs[0]
        assert ops.transpose(s, 0, -1) is s
        with pytest.raises(IndexError, match=r"Axis axis_2 out of range \(expected to be in range of \[-1, 0\], "
                                             r"but got 1\)"):
            ops.transpose(s, 0, 1)


def test_symbolic_sizes_and_dimensions_are_type_errors() -> None:
    with pytest.raises(TypeError, match="Int conversions only supported for static dims"):
        int(lc.SymbolicDim("x"))
    with pytest.raises(TypeError, match="dimensions must be non-negative"):
        TensorType(DType.float32, [-1])
    with _graph(TensorType(DType.float32, ["batch", 4])) as g:
        x = g.inputs[0]
        with pytest.raises(TypeError, match=r"int\(Dim\('batch'\)\): Int conversions only supported"):
            ops.chunk(x, 2, axis=0)
        with pytest.raises(TypeError, match="Int conversions only supported for static dims"):
            ops.split(x, [lc.SymbolicDim("batch")], axis=1)
        with pytest.raises(TypeError, match="is not a container"):
            _ = 1 in x


def test_weights_in_max_wording() -> None:
    from latticecast.graph.weight import Weight

    w = Weight("w", dtype=DType.float32, shape=[])
    with pytest.raises(ValueError, match="Cannot operate on a `max.graph.Weight` when there is no parent graph"):
        ops.cast(w, DType.float64)
    with pytest.raises(ValueError, match="no parent graph"):
        _ = w * 5
    with _graph() as g:
        g.add_weight(w)
        with pytest.raises(ValueError, match="Weight 'w' already exists"):
            g.add_weight(Weight("w", dtype=DType.float32, shape=[]))


def test_max_and_min_over_an_empty_axis_build_and_give_the_finite_extremes() -> None:
    # MAX 26.7 on the CPU (measured): max of an empty float32 axis is float32's lowest finite value
    with _graph(TensorType(DType.float32, [0, 2]), TensorType(DType.int8, [0, 2])) as g:
        f, i = g.inputs
        out = ops.max(f, axis=0), ops.min(i, axis=0)
        assert [o.shape for o in out] == [(1, 2), (1, 2)]
        with pytest.raises(GraphError, match="has no value"):
            ops.reduce_max(f, axis=0)  # NumPy's meaning: no identity
        g.output(*out)
    big, small = g.compile()(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.int8))
    assert (big == np.finfo(np.float32).min).all() and small.tolist() == [[127, 127]]


def test_integer_means_wrap_as_max_s_and_bool_means_build() -> None:
    # MAX 26.7 on the CPU (measured): the int8 mean of 200 hundreds is 0 (sum and count wrap in int8)
    with _graph(TensorType(DType.int8, [200]), TensorType(DType.bool, [2, 3])) as g:
        i, b = g.inputs
        out = ops.mean(i, 0), ops.mean(b, -1)
        assert [o.dtype for o in out] == [DType.int8, DType.bool]  # MAX keeps the dtype (measured)
        g.output(*out)
    m, all_true = g.compile()(np.full(200, 100, np.int8), np.array([[True, True, True], [True, False, True]]))
    assert m.tolist() == [0] and all_true.tolist() == [[True], [False]]


def test_conv_numpy_filter_is_weak_and_strong_mismatch_is_max_refusal() -> None:
    with _graph(TensorType(DType.bfloat16, [1, 8, 8, 4]), TensorType(DType.int32, [1, 8, 8, 4]),
                TensorType(DType.float16, [3, 3, 4, 5])) as g:
        x, xi, w16 = g.inputs
        assert ops.conv2d(x, np.ones((3, 3, 4, 5), np.float32)).dtype == DType.bfloat16
        with pytest.raises(ValueError, match=r"Failed to resolve valid dtype: Unsafe cast from si32 to f32\. Insert an "
                                             "explicit cast op if this conversion is wanted"):
            ops.conv2d(xi, w16)


def test_range_bounds_fit_the_dtype_and_long_ranges_build_but_do_not_compile() -> None:
    with _graph() as g:
        with pytest.raises(ValueError, match="256 out of range for uint8"):
            ops.range(0, 256, 1, dtype=DType.uint8)
        assert ops.range(0, 2**63 - 1, 1, dtype=DType.int64).shape == (2**63 - 1,)
        g.output(ops.range(0, 3, 1, dtype=DType.int32))
    with pytest.raises(GraphError, match="does not compile"):
        g.compile()


def test_a_slice_that_runs_backwards_over_a_symbolic_axis_is_refused_in_max_words() -> None:
    with _graph(TensorType(DType.float32, ["dim0"])) as g:
        with pytest.raises(ValueError, match="start and stop should be increasing for positive step and decreasing "
                                             "for negative step, but got start 2, stop 1 for step 1"):
            g.inputs[0][2:1]


# -- bool arithmetic: MAX 26.7 builds it and its compiler refuses it ------------------------------------------------

BOOL_ARITHMETIC_PROGRAM = """
import re
import numpy as np
from max.dtype import DType
from max.graph import DeviceRef, Graph, TensorType, ops
from max.engine import InferenceSession
from max.driver import CPU
t = TensorType(DType.bool, [3], DeviceRef.CPU())
cases = {"x-y": lambda a, b: a - b, "x/y": lambda a, b: a / b, "x**y": lambda a, b: a ** b, "x//y": lambda a, b: a // b,
         "x%y": lambda a, b: a % b, "ops.floor_div": ops.floor_div, "ops.mod": ops.mod, "ops.sub": ops.sub,
         "ops.matmul": lambda a, b: ops.matmul(ops.reshape(a, [1, 3]), ops.reshape(b, [3, 1]))}
for name in OPS:
    with Graph("g" + re.sub(r"\\W", "_", name), input_types=[t, t]) as g:
        r = cases[name](g.inputs[0].tensor, g.inputs[1].tensor)
        g.output(r)
    try:
        InferenceSession(devices=[CPU()]).load(g)
        print(name, r.dtype.name, "compiles")
    except Exception as e:
        print(name, r.dtype.name, "refused:", str(e).splitlines()[0][-150:])
"""
"""Each op of ``OPS`` on two bool tensors, built and then compiled (``InferenceSession.load``); one line per op."""

BOOL_OPS = ["x-y", "x/y", "x**y", "x//y", "x%y", "ops.floor_div", "ops.mod", "ops.sub", "ops.matmul"]


def _max_face(program: str) -> str:
    """``program`` after the migration's sed line."""
    return re.sub(r"^from max import", "from latticecast.max import", re.sub(r"\bmax\.", "latticecast.max.", program),
                  flags=re.M)


def test_bool_arithmetic_builds_under_max_graph_and_compile_refuses_it_in_max_words(run_python) -> None:
    """latticecast.max's Graph builds - / ** // % @ of two bools as MAX 26.7 does, a bool value, and compiling the
    graph fails with MAX's words (its module is refused too: StableHLO has no such ops on bool)."""
    result = run_python(_max_face(BOOL_ARITHMETIC_PROGRAM.replace("OPS", repr(BOOL_OPS))))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"{op} bool refused: {lc.errors.MAX_COMPILE_FAILURE[-150:]}" for op in BOOL_OPS]
    b = TensorType(DType.bool, [3])
    with lc.max.Graph("g", input_types=[b, b]) as g:
        g.output(ops.floor_div(*g.inputs))
    with pytest.raises(GraphError, match=r"graph 'g' does not compile: // of bool operands: Failed to compile"):
        g.mlir()
    with Graph("plain", input_types=[b, b], policy="max-python") as g:  # latticecast's Graph refuses where written
        for op in (ops.floor_div, ops.mod):
            with pytest.raises(lc.DomainError, match="needs real numbers"):
                op(*g.inputs)


def test_max_26_7_builds_bool_arithmetic_and_refuses_to_compile_it(run_python) -> None:
    """Live, with MAX (``LATTICECAST_MAX_PYTHON``): the same program gives the same lines, for - and the floor
    divisions (each refused compile takes MAX about 30 s)."""
    python = library_python("max", "LATTICECAST_MAX_PYTHON")
    program = BOOL_ARITHMETIC_PROGRAM.replace("OPS", repr(["x-y", "x//y", "x%y", "ops.floor_div", "ops.mod"]))
    measured = subprocess.run([python, "-c", program], capture_output=True, text=True, timeout=900)
    assert measured.returncode == 0, measured.stderr
    ours = run_python(_max_face(program))
    assert measured.stdout.splitlines() == ours.stdout.splitlines() and len(ours.stdout.splitlines()) == 5
