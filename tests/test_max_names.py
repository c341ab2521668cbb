"""Where MAX 26.7's ``max.graph`` has a name, latticecast's means the same: signature, semantics, result shape.

Shapes and refusals are MAX's as measured (research/max/max_api_measured.md); values are compared with
MAX's own outputs for the expressions in ``tools/max_semantics.py``
(``tests/data/max_semantics_reference.npz``).
"""

import enum
import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest

import latticecast as lc
from latticecast import (DeviceRef, DomainError, DType, Graph, GraphError, NoCurrentGraphError,
                         TensorType, ops)

ROOT = Path(__file__).resolve().parents[1]
CPU = DeviceRef.CPU()


def _load_semantics():
    spec = importlib.util.spec_from_file_location("max_semantics", ROOT / "tools" / "max_semantics.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _x(*shape, dtype=DType.float32, policy="jax"):
    return Graph("t", input_types=[TensorType(dtype, list(shape), CPU)], policy=policy)


# -- Graph -------------------------------------------------------------------------------------------


def test_graph_takes_max_arguments_in_max_order():
    g = Graph("f", lambda x, y, k, scale=1: (x * scale + y, x * k), [TensorType(DType.float32, [2], CPU)] * 2,
              None, 3, scale=2)
    assert [t.shape for t in g.output_types] == [(2,), (2,)]
    assert Graph("none", lambda: None).output_types == ()
    assert Graph("one", lambda x: x, [TensorType(DType.int8, [2])]).output_types == (TensorType(DType.int8, [2]),)
    params = list(inspect.signature(Graph).parameters)
    assert params[:4] == ["name", "forward", "input_types", "path"]


@pytest.mark.parametrize("make, message", [
    (lambda: Graph("g", [TensorType(DType.int8, [2])]), "second positional argument is forward"),
    (lambda: Graph("g", None, [], "jax"), "loads a graph MAX saved"),
    (lambda: Graph("g", custom_extensions=["k.mojo"]), "custom_extensions= loads Mojo kernels"),
    (lambda: Graph("g", kernel_library=object()), "kernel_library="),
    (lambda: Graph("g", is_device_graph=True), "is_device_graph="),
    (lambda: Graph("g", polcy="max"), r"unexpected argument\(s\) polcy=\.\.\."),
    (lambda: Graph("g", input_types=[object()]), "is not a tensor type"),
])
def test_graph_refuses_what_latticecast_cannot_honour(make, message):
    with pytest.raises(GraphError, match=message):
        make()


def test_graph_current_is_a_class_property_and_its_absence_a_lookup_error():
    with _x(2) as g:
        assert Graph.current is g and g.current is g
        g.output(g.inputs[0])
    with pytest.raises(LookupError, match="no graph is being built"):
        Graph.current
    with pytest.raises(NoCurrentGraphError):
        ops.constant(1.0, DType.float32, CPU)
    assert Graph("s", strict_device_placement="warn").name == "s"


# -- types, devices, dtypes ----------------------------------------------------------------------------


def test_tensor_type_is_max_tensor_type():
    t = TensorType(DType.float32, ["batch", 4], DeviceRef.CPU())
    assert t.shape == ("batch", 4) and t.device == CPU and t.rank == 2 and not t.is_static
    assert t == TensorType(DType.float32, ("batch", 4)) and str(t) == "float32[batch, 4]"
    assert t.cast(DType.int8) == TensorType(DType.int8, ["batch", 4])
    assert TensorType(DType.float32, [2, 3]).num_elements() == 6
    with pytest.raises(GraphError, match="symbolic dimensions"):
        t.num_elements()
    gpu = TensorType(DType.float32, [2], DeviceRef.GPU(1))
    assert gpu != TensorType(DType.float32, [2]) and str(gpu) == "float32[2] on gpu:1"


def test_device_ref_is_max_device_ref():
    assert str(DeviceRef.CPU()) == "cpu:0" and str(DeviceRef.GPU(1)) == "gpu:1" and repr(DeviceRef.GPU()) == "gpu:0"
    assert DeviceRef("gpu", 1) == DeviceRef.GPU(1) and DeviceRef.GPU(1) != DeviceRef.CPU(1)
    assert DeviceRef.CPU().is_cpu() and DeviceRef.GPU().is_gpu() and DeviceRef.CPU(-3) == DeviceRef.CPU(0)
    assert len({DeviceRef.CPU(), DeviceRef("cpu", 0)}) == 1
    assert DeviceRef.parse("gpu:2") == DeviceRef.GPU(2) and DeviceRef.parse("cpu") == CPU
    with pytest.raises(GraphError, match="'tpu' is not a device kind"):
        DeviceRef("tpu")

    class Kind(str, enum.Enum):  # MAX's DeviceKind, MAX's DeviceRef and MAX's driver devices, duck-typed
        GPU = "gpu"

    class MaxRef:
        device_type, id = Kind.GPU, 3

    class Driver:
        label, id = "cpu", 0

    assert DeviceRef.parse(MaxRef()) == DeviceRef.GPU(3) and DeviceRef.parse(Driver()) == CPU
    assert TensorType(DType.int8, [1], MaxRef()).device == DeviceRef.GPU(3)


def test_dtype_enums_with_dtype_names_are_dtypes():
    FakeMaxDType = enum.Enum("DType", ["bool", "int8", "float32", "bfloat16"])
    assert [DType.parse(d) for d in FakeMaxDType] == [DType.bool, DType.int8, DType.float32, DType.bfloat16]
    assert TensorType(FakeMaxDType.float32, [2]).dtype is DType.float32


@pytest.mark.slow
def test_real_max_objects_are_accepted():
    max_dtype = pytest.importorskip("max.dtype", reason="MAX is not installed")
    max_graph = pytest.importorskip("max.graph")
    known = [d for d in max_dtype.DType if d.name in DType.__members__]
    assert len(known) >= 13 and all(DType.parse(d).name == d.name for d in known)
    t = max_graph.TensorType(max_dtype.DType.float32, ["batch", 3], max_graph.DeviceRef.GPU(1))
    with Graph("m", input_types=[t]) as g:
        assert g.inputs[0].type == TensorType(DType.float32, ["batch", 3], DeviceRef.GPU(1))
        g.output(g.inputs[0])


def test_the_graph_device_places_the_compiled_model():
    with _x(2) as g:
        (x,) = g.inputs
        assert x.device == CPU and x.to(DeviceRef.CPU()) is x and x.type.device == CPU
        g.output(x + 1)
    assert g.compile().device.platform == "cpu"
    assert g.compile(DeviceRef.CPU()).device.platform == "cpu"
    with Graph("gpu", input_types=[TensorType(DType.float32, [2], DeviceRef.GPU())]) as h:
        (y,) = h.inputs
        h.output(y * 2)
    if any(d.startswith(("cuda", "rocm")) for d in lc.available_devices()):
        pytest.skip("a GPU is present: the absent-GPU error cannot be observed here")
    with pytest.raises(lc.DeviceNotFoundError, match="device 'gpu:0' is not available"):
        h.compile()
    with Graph("both", input_types=[TensorType(DType.float32, [2], DeviceRef.GPU())]) as m:  # as in MAX
        (y,) = m.inputs
        on_cpu = y.to(DeviceRef.CPU())
        c = ops.constant(1.0, DType.float32, DeviceRef.CPU())
        assert on_cpu.device == c.device == (on_cpu + c).device == CPU and m.devices == [DeviceRef.GPU(), CPU]
        m.output(on_cpu + c)
    with pytest.raises(lc.DeviceNotFoundError, match="places values on gpu:0, cpu:0, and gpu:0 is not present"):
        m.compile()


# -- values: MAX's methods --------------------------------------------------------------------------------


def test_transpose_swaps_two_axes_and_permute_permutes():
    with _x(2, 3, 4) as g:
        (x,) = g.inputs
        assert x.transpose(0, 2).shape == (4, 3, 2) and x.transpose(-1, -2).shape == (2, 4, 3)
        assert x.transpose(1, 1) is x and x.T.shape == (2, 4, 3)
        assert x.permute([2, 0, 1]).shape == (4, 2, 3) and ops.permute(x, [-1, 0, 1]).shape == (4, 2, 3)
        assert ops.transpose(x[0], 0, 1).shape == (4, 3)
        with pytest.raises(GraphError, match="axis 3 is out of range for a value of rank 3"):
            x.transpose(0, 3)
        with pytest.raises(GraphError, match="axis -2 is out of range for a value of rank 1"):
            x[0, 0].T
        g.output(x.transpose(0, 2))
    (out,) = g.compile()(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    np.testing.assert_array_equal(out, np.arange(24, dtype=np.float32).reshape(2, 3, 4).swapaxes(0, 2))


def test_reductions_take_one_axis_default_last_and_keep_it():
    with _x(2, 3) as g:
        (x,) = g.inputs
        for reduce in (x.max, x.min, x.mean, x.var, x.stdev, x.sum, lambda axis=-1: ops.sum(x, axis),
                       lambda axis=-1: ops.prod(x, axis), lambda axis=-1: ops.max(x, axis=axis)):
            assert reduce().shape == (2, 1) and reduce(axis=0).shape == (1, 3)
        assert x.argmax().dtype is DType.int64 and x.argmax(axis=0).shape == (1, 3)
        assert ops.argmin(x, 0).shape == (1, 3) and ops.max(x, x).shape == (2, 3)
        with pytest.raises(GraphError, match="max reduces one axis .* use ops.reduce_max"):
            ops.max(x, axis=(0, 1))
        with pytest.raises(GraphError, match="axis is not allowed"):
            ops.max(x, x, axis=0)
        with pytest.raises(GraphError, match="axis 5 is out of range"):
            x.max(axis=5)
        with pytest.raises(GraphError, match="rank 0"):
            x[0, 0].max()
        with pytest.raises(DomainError, match="var is not defined for bool"):
            (x > 0).var()
        g.output(x.max())


def test_indexing_is_max_indexing():
    with _x(2, 3) as g:
        (x,) = g.inputs
        cases = [((0,), (3,)), ((-1,), (3,)), ((0, 1), ()), ((slice(None), 1), (2,)),
                 ((slice(None), slice(1, 3)), (2, 2)), ((slice(None), slice(None, None, 2)), (2, 2)),
                 ((Ellipsis, 0), (2,)), ((None,), (1, 2, 3)), ((slice(None), None, slice(None)), (2, 1, 3)),
                 ((slice(1, None),), (1, 3)), ((slice(None), slice(3, None)), (2, 0))]
        for index, shape in cases:
            assert x[index].shape == shape, index
        assert x[[0, 1]].shape == () and ops.slice_tensor(x, [slice(0, 1), 1]).shape == (1,)
        for index, message in [(slice(None, None, -1), "expected a positive integer step but got -1"),
                               (5, "index 5 is out of range for axis 0 of size 2"),
                               (-3, "index -3 is out of range"),
                               ((slice(None), slice(1, 10)), "out of range .* does not clamp"),
                               ((slice(None), slice(2, 1)), "start and stop should be increasing"),
                               ((0, 0, 0), "has 3 entries for a value of rank 2"),
                               ((Ellipsis, Ellipsis), "more than one"),
                               (1.0, "is not an index"),
                               (((slice(None, None, -1), 2), slice(None)), r"\(slice, out_dim\) form is not supported")]:
            with pytest.raises(GraphError, match=message):
                x[index]
        i = ops.constant(np.int32(-1))
        g.output(x[0], x[:, 1:3], x[..., None][1, ::2], x[i], x[1, i])
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    outs = g.compile()(a)
    for got, want in zip(outs, [a[0], a[:, 1:3], a[..., None][1, ::2], a[-1], a[1, -1]]):
        np.testing.assert_array_equal(got, want)


def test_tensor_value_wraps_and_recognises_values():
    from latticecast.max import TensorValue

    with _x(3) as g:
        (x,) = g.inputs
        assert TensorValue(x) is x and isinstance(x, TensorValue) and issubclass(lc.Value, TensorValue)
        c = TensorValue(np.ones(3, np.float32))
        assert isinstance(c, lc.Value) and c.dtype is DType.float32 and not isinstance(1.0, TensorValue)
        with pytest.raises(GraphError, match="is a Python scalar, not a graph value"):
            TensorValue(1.0)
        g.output(x + c)


def test_values_are_not_iterable_and_have_no_truth_value():
    with _x(3) as g:
        (x,) = g.inputs
        with pytest.raises(TypeError, match="not iterable"):
            list(x)
        with pytest.raises(TypeError, match="no truth value"):
            bool(x)
        assert x.tensor is x and round(x).shape == (3,)
        g.output(x)


# -- ops: MAX's names -----------------------------------------------------------------------------------


def test_max_op_names_are_the_numpy_ops():
    pairs = {"sub": "subtract", "mul": "multiply", "div": "divide", "floor_div": "floor_divide", "pow": "power",
             "negate": "negative"}
    for max_name, numpy_name in pairs.items():
        assert getattr(ops, max_name) is getattr(ops, numpy_name)


def test_shape_ops_as_max_measured():
    with _x(2, 3) as g:
        (x,) = g.inputs
        assert x.flatten().shape == (6,) and ops.flatten(x, 0, 0).shape == (2, 3) and x[0, 0].flatten().shape == (1,)
        assert ops.unsqueeze(x, -1).shape == (2, 3, 1) and ops.squeeze(ops.unsqueeze(x, 0), 0).shape == (2, 3)
        assert ops.concat([x, x]).shape == (4, 3) and ops.concat([x, x], axis=1).shape == (2, 6)
        assert ops.stack([x, x]).shape == (2, 2, 3) and ops.stack([x, x], axis=-1).shape == (2, 3, 2)
        assert x.reshape([-1]).shape == (6,) and ops.broadcast_to(x, [2, 2, 3]).shape == (2, 2, 3)
        assert ops.range(0, 5, 1, dtype=DType.int32).shape == (5,)
        assert ops.range(0.0, 1.0, 0.25, dtype=DType.float32, device=CPU).shape == (4,)
        for bad, message in [(lambda: ops.squeeze(x, 0), "axis 0 has size 2, not 1"),
                             (lambda: ops.unsqueeze(x, 3), "axis 3 is out of range"),
                             (lambda: x.flatten(1, 0), "start_dim 1 comes after end_dim 0"),
                             (lambda: ops.concat([x, x.cast(DType.int32)]), "does not promote"),
                             (lambda: ops.concat([x, x[0]]), "one rank"),
                             (lambda: ops.concat([]), "at least one value"),
                             (lambda: x.reshape(6), "needs a sequence of dimensions"),
                             (lambda: x.reshape([0, -1]), "cannot reshape"),
                             (lambda: x.broadcast_to([4, 3]), r"\[broadcast_to\] input dimension at index 0 \(2\) must be "
                                                                  r"either 1 .*cannot broadcast shape \[2, 3\] to \[4, 3\]"),
                             (lambda: ops.range(0, 4, out_dim=5, dtype=DType.int32), r"has 4 elements .*not out_dim=5"),
                             (lambda: ops.range(4, 0, out_dim=5, dtype=DType.int32), r"has 0 elements .*not out_dim=5")]:
            with pytest.raises(GraphError, match=message):
                bad()
        g.output(x)


def test_matmul_follows_numpy_and_broadcasts_batches():
    with Graph("m", input_types=[TensorType(DType.float32, [2, 3, 4]), TensorType(DType.float32, [4, 5]),
                                 TensorType(DType.float32, [1, 4, 5]), TensorType(DType.float32, [4])]) as g:
        a, w, bw, v = g.inputs
        shapes = [(a @ w).shape, (a @ bw).shape, (v @ bw).shape, (a @ v).shape, (v @ v).shape]
        assert shapes == [(2, 3, 5), (2, 3, 5), (1, 5), (2, 3), ()]
        g.output(a @ w, a @ bw, v @ bw, a @ v, v @ v)
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s, dtype=np.float32) for s in ([2, 3, 4], [4, 5], [1, 4, 5], [4])]
    a, w, bw, v = arrays
    for got, want in zip(g.compile()(*arrays), [a @ w, a @ bw, v @ bw, a @ v, v @ v]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_nn_ops_check_their_arguments():
    with _x(2, 4) as g:
        (x,) = g.inputs
        ones = ops.constant(np.ones(4, np.float32))
        assert ops.layer_norm(x, ones, 0.0, 1e-5).shape == (2, 4)
        assert ops.layer_norm(x, ones.cast(DType.float16), ones, 1e-5).dtype is DType.float32
        for bad, message in [(lambda: ops.layer_norm(x, ops.constant(np.ones(3, np.float32)), ones, 1e-5),
                              r"Gamma size 3 does not match dimension of reduction 4: gamma of shape \[3\]"),
                             (lambda: ops.layer_norm(x, ones, ones, 0.0), "epsilon must be positive: a number above 0"),
                             (lambda: ops.gelu(x, "bogus"), "invalid approximation method 'bogus'"),
                             (lambda: ops.band_part(x[0], None, 0), "rank 2 or more"),
                             (lambda: ops.band_part(x, 2, 0), "num_lower=2 is out of bounds for an axis of size 2"),
                             (lambda: ops.band_part(x, -2, 0), "num_lower=-2 must be non-negative")]:
            with pytest.raises(GraphError, match=message):
                bad()
        with pytest.raises(DomainError, match="logical_and needs bool operands, not float32"):
            ops.logical_and(x > 0, x)
        g.output(ops.logical_not(x > 0), ops.logical_xor(x > 0, True), ops.is_inf(x))


SEMANTICS = _load_semantics()
MAX_VALUES = dict(np.load(ROOT / "tests" / "data" / "max_semantics_reference.npz"))
# Where latticecast deliberately differs from MAX, both measured: MAX's exp kernel returns +inf for NaN (so its
# softmax of a NaN-containing slice has 0 and -inf beside the NaN), and MAX's < and <= are not(>=) and not(>),
# true for NaN. latticecast computes these as IEEE arithmetic does (and NumPy, JAX).
# name -> (the entries, MAX's value there or None for mixed values, latticecast's value there)
NAN_DIFFERENCES = {
    "exp(m)": ((1, [0, 2]), np.inf, np.nan),
    "logsoftmax(m)": ((1, slice(None)), None, np.nan),
    "softmax(m, axis=0)": ((slice(None), [0, 2]), None, np.nan),
    "m < 2.0": ((1, [0, 2]), True, False),
    "m <= 2.0": ((1, [0, 2]), True, False),
}


@pytest.mark.parametrize("policy", ["max-python", "max", "jax"])
def test_values_match_max(policy):
    assert set(NAN_DIFFERENCES) <= set(SEMANTICS.EXPRESSIONS)
    types = [TensorType(DType.parse(a.dtype), a.shape) for a in SEMANTICS.INPUTS.values()]
    with Graph("semantics", input_types=types, policy=policy) as g:
        f, i, m = g.inputs
        g.output(*(expression(ops, f, i, m) for expression in SEMANTICS.EXPRESSIONS.values()))
    outs = g.compile()(*SEMANTICS.INPUTS.values())
    for name, got in zip(SEMANTICS.EXPRESSIONS, outs):
        want = MAX_VALUES[f"out/{name}"]
        assert got.dtype == want.dtype and got.shape == want.shape, name
        if name in NAN_DIFFERENCES:
            where, theirs, ours = NAN_DIFFERENCES[name]
            np.testing.assert_array_equal(got[where], np.full_like(got[where], ours), err_msg=name)
            if theirs is not None:
                np.testing.assert_array_equal(want[where], np.full_like(want[where], theirs), err_msg=name)
            keep = np.ones(want.shape, bool)
            keep[where] = False
            got, want = got[keep], want[keep]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, equal_nan=True, err_msg=name)


def test_nan_loses_in_max_names_and_wins_in_numpy_names():
    with _x(2, dtype=DType.float32) as g:
        (x,) = g.inputs
        g.output(ops.max(x, 1.0), ops.maximum(x, 1.0), ops.min(x), ops.reduce_min(x), x.argmax())
    got = g.compile()(np.array([np.nan, 0.5], np.float32))
    np.testing.assert_array_equal(got[0], [1.0, 1.0])
    assert np.isnan(got[1][0]) and got[1][1] == 1.0
    np.testing.assert_array_equal(got[2], [0.5])
    assert np.isnan(got[3])
    np.testing.assert_array_equal(got[4], [1])


@pytest.mark.slow
def test_max_itself_reproduces_the_semantics_reference(tmp_path):
    """With MAX installed: the tool that measured MAX's values measures them again (a cold MAX compile takes
    minutes)."""
    pytest.importorskip("max.graph", reason="MAX is not installed")
    SEMANTICS.main(str(tmp_path / "again.npz"))
    again = dict(np.load(tmp_path / "again.npz"))
    assert again.keys() == MAX_VALUES.keys()
    for key, value in again.items():
        np.testing.assert_array_equal(value, MAX_VALUES[key], err_msg=key)
