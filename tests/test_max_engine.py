"""MAX's engine programs run under latticecast with only their import lines changed; and the engine's,
the driver's and ``Weight``'s behaviour and errors.

``tools/max_doc_programs.py`` holds programs from MAX 26.7's documentation that build a graph, load it
with ``InferenceSession(...).load(graph, weights_registry=...)`` and execute it (with ``Weight`` and
``ops.gather``). Here their import lines become latticecast's -- nothing else changes -- and their
outputs are compared with what MAX computed for the same arguments (``tests/data/max_doc_reference.npz``,
written by ``tools/run_max_doc_programs.py``).
"""

import types
from pathlib import Path

import numpy as np
import pytest

import latticecast.max as lc_max
from latticecast import LatticecastError
from latticecast.errors import GraphError, NoCurrentGraphError
from latticecast.max import DType, DeviceRef, Graph, TensorType, TensorValue, Weight, ops
from latticecast.max.driver import CPU, Accelerator, Buffer, Device, DriverError, Tensor, accelerator_count
from latticecast.max.engine import (InferenceSession, MissingWeightError, Model, TensorSpec, WeightMismatchError,
                                    WeightsRegistryError)
from latticecast.runtime import DeviceNotFoundError, InputCountError, InputDTypeError, InputShapeError

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tools" / "max_doc_programs.py"
REFERENCE = Path(__file__).parent / "data" / "max_doc_reference.npz"
IMPORTS = {  # MAX's import line -> latticecast's
    "from max.driver import CPU, Accelerator, Buffer, accelerator_count\n":
        "from latticecast.max.driver import CPU, Accelerator, Buffer, accelerator_count\n",
    "from max.dtype import DType\n": "from latticecast.max import DType\n",
    "from max.engine import InferenceSession\n": "from latticecast.max.engine import InferenceSession\n",
    "from max.graph import DeviceRef, Graph, TensorType, TensorValue, Weight, ops\n":
        "from latticecast.max import DeviceRef, Graph, TensorType, TensorValue, Weight, ops\n",
}
TOLERANCE = {"rtol": 2e-6, "atol": 2e-6}  # float32 kernels that sum in another order


def _latticecast_programs() -> types.ModuleType:
    """The programs' module with MAX's import lines replaced by latticecast's, and nothing else."""
    source = PROGRAMS.read_text()
    swapped = source
    for max_line, lc_line in IMPORTS.items():
        assert source.count(max_line) == 1, f"{PROGRAMS} no longer imports {max_line.strip()!r} once"
        swapped = swapped.replace(max_line, lc_line)
    changed = [(a, b) for a, b in zip(source.splitlines(), swapped.splitlines()) if a != b]
    assert changed == [(a.strip(), b.strip()) for a, b in IMPORTS.items()]
    assert "import max" not in swapped and "from max" not in swapped
    module = types.ModuleType("max_doc_programs_on_latticecast")
    module.__file__ = str(PROGRAMS)
    exec(compile(swapped, str(PROGRAMS), "exec"), module.__dict__)
    return module


PROGRAMS_ON_LATTICECAST = _latticecast_programs()
REFERENCE_ARRAYS = dict(np.load(REFERENCE))


def _io(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    _, specs = PROGRAMS_ON_LATTICECAST.PROGRAMS[name]
    ins = [REFERENCE_ARRAYS[f"{name}/in{i}"] for i in range(len(specs))]
    outs, j = [], 0
    while f"{name}/out{j}" in REFERENCE_ARRAYS:
        outs.append(REFERENCE_ARRAYS[f"{name}/out{j}"])
        j += 1
    return ins, outs


def test_the_reference_is_max_26_7():
    assert str(REFERENCE_ARRAYS["meta/max_version"]) == "26.7.0"
    assert {k.split("/")[0] for k in REFERENCE_ARRAYS} - {"meta"} == set(PROGRAMS_ON_LATTICECAST.PROGRAMS)
    assert "name: input0, shape: [None], dtype: DType.float32" in str(REFERENCE_ARRAYS["add_one/stdout"])


@pytest.mark.parametrize("name", list(PROGRAMS_ON_LATTICECAST.PROGRAMS))
def test_documented_programs_give_max_outputs(name, capsys):
    for op in PROGRAMS_ON_LATTICECAST.NEEDS.get(name, ()):
        if not hasattr(lc_max.ops, op):
            pytest.skip(f"latticecast.max.ops has no {op} yet")
    program, _ = PROGRAMS_ON_LATTICECAST.PROGRAMS[name]
    ins, want = _io(name)
    got = program(*ins)
    # what the program printed (the input metadata): MAX's text, but for str(DType.float32), which is
    # 'DType.float32' in MAX and 'float32' here
    assert capsys.readouterr().out == str(REFERENCE_ARRAYS[f"{name}/stdout"]).replace("dtype: DType.", "dtype: ")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, np.ndarray)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, **TOLERANCE)
        else:
            np.testing.assert_array_equal(g, w)


# -- Weight ------------------------------------------------------------------------------------


def _linear(name="w"):
    w = Weight(name, DType.float32, [2, 3], DeviceRef.CPU())
    with Graph("linear", input_types=[TensorType(DType.float32, ["batch", 2], DeviceRef.CPU())]) as g:
        g.output(g.inputs[0] @ w)
    return g, w


def test_a_weight_is_an_argument_after_the_inputs():
    g, w = _linear()
    assert g.weights == {"w": TensorType(DType.float32, [2, 3])}
    assert "@main(%arg0: tensor<?x2xf32>, %arg1: tensor<2x3xf32>) -> tensor<?x3xf32>" in g.mlir()
    assert g.input_types == (TensorType(DType.float32, ["batch", 2]),)  # a weight is not an input
    assert len(g.inputs) == 1
    x, wv = np.ones((2, 2), np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(g.compile()(x, wv)[0], x @ wv)


def test_a_weight_is_added_once_and_its_name_is_unique():
    w = Weight("w", DType.float32, [3])
    with Graph("g") as g:
        first = g.add_weight(w)
        assert g.add_weight(w) is first and (w + 1).graph is g
        with pytest.raises(GraphError, match="Weight 'w' already exists"):
            g.add_weight(Weight("w", DType.float32, [3]))
        g.output(w * 2, w.reshape([3, 1]), -w)
    assert list(g.weights) == ["w"]


def test_a_weight_takes_the_values_methods_and_operators():
    w = Weight("w", DType.float32, [2, 3])
    assert (w.name, w.dtype, w.shape, w.device, w.rank) == ("w", DType.float32, (2, 3), DeviceRef.CPU(), 2)
    assert repr(w) == "Weight(w, DType.float32, [2, 3], cpu:0)"
    assert isinstance(w, TensorValue)
    with Graph("g") as g:
        outs = [w.T, w[0], 1.0 - w, w @ np.ones((3, 1), np.float32), np.float32(2) * w, abs(w), w.transpose(0, 1)]
        assert [o.shape for o in outs] == [(3, 2), (3,), (2, 3), (2, 1), (2, 3), (2, 3), (3, 2)]
        g.output(*outs)
    wv = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    got = g.compile()(wv)
    np.testing.assert_array_equal(got[2], 1 - wv)
    np.testing.assert_array_equal(got[4], 2 * wv)


@pytest.mark.parametrize("build", [
    lambda w: ops.transpose(w, 0, 1), lambda w: ops.reshape(w, [3, 2]), lambda w: ops.concat([w, w]),
    lambda w: ops.relu(w), lambda w: ops.cast(w, DType.float16), lambda w: ops.mean(w), lambda w: ops.stack([w, w]),
    lambda w: ops.softmax(w), lambda w: ops.where(w > 0, w, 0.0), lambda w: ops.broadcast_to(w, [4, 2, 3]),
    lambda w: ops.matmul(w, ops.transpose(w, 0, 1)), lambda w: ops.max(w, w), lambda w: ops.permute(w, [1, 0]),
], ids=["transpose", "reshape", "concat", "relu", "cast", "mean", "stack", "softmax", "where", "broadcast_to",
        "matmul", "max", "permute"])
def test_ops_take_a_weight_where_they_take_a_value(build):
    w = Weight("w", DType.float32, [2, 3])
    with Graph("g") as g:
        out = build(w)
        g.output(out)
    assert list(g.weights) == ["w"]
    wv = np.arange(6, dtype=np.float32).reshape(2, 3)
    (got,) = g.compile()(wv)
    with Graph("same_on_a_constant") as h:
        h.output(build(ops.constant(wv)))
    np.testing.assert_array_equal(got, h.compile()()[0])


def test_a_weight_outside_a_graph_is_an_error():
    w = Weight("w", DType.float32, [2])
    with pytest.raises(NoCurrentGraphError):
        w + 1
    with pytest.raises(ValueError):  # MAX raises ValueError; NoCurrentGraphError is one
        w.T
    with pytest.raises(GraphError, match="no truth value"):
        bool(w)


@pytest.mark.parametrize("kwargs, message", [
    ({"quantization_encoding": "Q4_K"}, "quantization_encoding='Q4_K' must be a QuantizationEncoding"),
    ({"sharding_strategy": object()}, "sharding_strategy= is refused: .* ops.shard"),
    ({"align": 3}, "align=3 must be a positive power of two"),
    ({"shape": ["n", 2]}, "a weight's shape is static"),
    ({"name": ""}, "non-empty string"),
    ({"device": "gpu:0"}, None),
])
def test_bad_weights_are_refused(kwargs, message):
    args = {"name": "w", "dtype": DType.float32, "shape": [2, 2], "device": DeviceRef.CPU(), **kwargs}
    if message is None:  # as in MAX, a weight on another device than the graph's first: its values live there
        w = Weight(**args)
        with Graph("g") as g:
            assert (w + 1).device == DeviceRef.GPU(0) and g.devices == [DeviceRef.CPU(), DeviceRef.GPU(0)]
        return
    with pytest.raises(GraphError, match=message):
        Weight(**args)


def test_align_is_kept():
    assert Weight("w", DType.int8, [4], align=64).align == 64


# -- the engine --------------------------------------------------------------------------------


def test_load_binds_weights_and_execute_returns_buffers():
    g, _ = _linear()
    wv = np.arange(6, dtype=np.float32).reshape(2, 3)
    model = InferenceSession(devices=[CPU()]).load(g, weights_registry={"w": wv, "unused": np.zeros(1)})
    assert isinstance(model, Model)
    assert model.input_metadata == [TensorSpec("input0", [None, 2], DType.float32)]
    assert model.output_metadata == [TensorSpec("output0", [None, 3], DType.float32)]
    assert model.devices == [CPU()] and model.input_devices == [CPU()] and model.output_devices == [CPU()]
    x = np.array([[1, 0], [0, 1], [1, 1]], np.float32)
    (out,) = model.execute(x)
    assert isinstance(out, Buffer) and out.shape == (3, 3) and out.dtype == DType.float32
    np.testing.assert_array_equal(out.to_numpy(), x @ wv)
    np.testing.assert_array_equal(model(Buffer.from_numpy(x))[0].to_numpy(), x @ wv)
    np.testing.assert_array_equal(model(input0=x)[0].to_numpy(), x @ wv)
    wv[:] = 0  # the registry's values were bound at load time
    np.testing.assert_array_equal(model.execute(x)[0].to_numpy(), x @ np.arange(6, dtype=np.float32).reshape(2, 3))


def test_weights_may_be_buffers():
    g, _ = _linear()
    wv = np.ones((2, 3), np.float32)
    model = InferenceSession().load(g, weights_registry={"w": Buffer.from_numpy(wv)})
    np.testing.assert_array_equal(model.execute(np.ones((1, 2), np.float32))[0].to_numpy(), [[2, 2, 2]])


def test_a_missing_weight_names_it_and_the_fix():
    g, _ = _linear()
    with pytest.raises(MissingWeightError) as e:
        InferenceSession().load(g, weights_registry={"W": np.ones((2, 3), np.float32)})
    assert str(e.value) == ("graph 'linear' uses weight 'w' (float32[2, 3]) and weights_registry has no value for it; "
                            "add weights_registry['w'] = an array of dtype float32 and shape [2, 3]")
    assert isinstance(e.value, (ValueError, KeyError, LatticecastError))  # MAX raises ValueError
    assert e.value.name == "w"
    with pytest.raises(MissingWeightError):
        InferenceSession().load(g)


@pytest.mark.parametrize("value, got, fix", [
    (np.ones((3, 2), np.float32), r"float32\[3, 2\]", "pass the array the weight was declared for"),
    (np.ones((2, 3), np.float64), r"float64\[2, 3\]", r"convert it with .astype\(np.float32\)"),
    ([[1, 2, 3], [4, 5, 6]], r"int64\[2, 3\]", r"convert it with .astype\(np.float32\)"),
])
def test_a_weight_of_another_shape_or_dtype_is_refused(value, got, fix):
    """MAX 26.7 reinterprets such an array's bytes silently (measured: a float64 registry value of ones gives
    1.875); latticecast refuses it."""
    g, _ = _linear()
    with pytest.raises(WeightMismatchError, match=rf"weight 'w' is declared float32\[2, 3\] and "
                                                  rf"weights_registry\['w'\] is {got}; {fix}") as e:
        InferenceSession().load(g, weights_registry={"w": value})
    assert isinstance(e.value, WeightsRegistryError) and isinstance(e.value, ValueError)


def test_a_registry_value_that_is_no_array_is_refused():
    g, _ = _linear()
    with pytest.raises(WeightMismatchError, match="weight 'w' is declared float32"):
        InferenceSession().load(g, weights_registry={"w": object()})


def test_inputs_are_checked_and_never_cast():
    g, _ = _linear()
    model = InferenceSession().load(g, weights_registry={"w": np.ones((2, 3), np.float32)})
    with pytest.raises(InputCountError, match=r"takes 1 input\(s\) \(input0\) and got 2; its weights are bound"):
        model.execute(np.ones((1, 2), np.float32), np.ones((2, 3), np.float32))
    with pytest.raises(InputDTypeError):
        model.execute(np.ones((1, 2), np.float64))
    with pytest.raises(InputShapeError):
        model.execute(np.ones((1, 3), np.float32))
    with pytest.raises(InputCountError, match="no input named 'x'"):
        model(x=np.ones((1, 2), np.float32))
    with pytest.raises(InputCountError, match="by position and by name"):
        model(np.ones((1, 2), np.float32), input0=np.ones((1, 2), np.float32))


def test_load_refuses_what_only_max_can_load():
    with pytest.raises(GraphError, match=r"\.mef files"):
        InferenceSession().load("model.mef")
    with pytest.raises(GraphError, match="custom kernels"):
        InferenceSession(custom_extensions=["kernels.mojopkg"])
    g, _ = _linear()
    with pytest.raises(GraphError, match="custom kernels"):
        InferenceSession().load(g, custom_extensions=["kernels.mojopkg"])


def test_a_graph_on_a_device_the_session_lacks_is_refused():
    with Graph("g", input_types=[TensorType(DType.float32, [2], DeviceRef.GPU())]) as g:
        g.output(g.inputs[0] + 1)
    with pytest.raises(GraphError, match="runs on gpu:0, which this session was not given"):
        InferenceSession(devices=[CPU()]).load(g)


# -- the driver --------------------------------------------------------------------------------


def test_buffers():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    b = Tensor.from_numpy(a)
    assert Tensor is Buffer
    assert (b.shape, b.dtype, b.rank, b.num_elements, b.element_size) == ((2, 3), DType.int16, 2, 6, 2)
    assert b.device == CPU() and b.is_host and b.to(CPU()) is b
    np.testing.assert_array_equal(b.to_numpy(), a)
    np.testing.assert_array_equal(np.asarray(b), a)
    np.testing.assert_array_equal(Buffer.from_dlpack(a).to_numpy(), a)
    np.testing.assert_array_equal(np.from_dlpack(b), a)
    assert repr(b) == "latticecast.max.driver.Buffer(DType.int16, (2, 3), cpu[0])"
    z = Buffer(DType.float32, [2, 2], CPU())
    np.testing.assert_array_equal(z.to_numpy(), np.zeros((2, 2), np.float32))
    assert Buffer.zeros([3], DType.bool).to_numpy().dtype == np.bool_
    assert Buffer.from_numpy(np.array([7], np.int64)).item() == 7
    c = b.copy()
    assert c is not b and c.array is not b.array


def test_bad_buffers_are_refused():
    with pytest.raises(DriverError, match="from_numpy takes a NumPy array"):
        Buffer.from_numpy([1, 2])
    with pytest.raises(DriverError, match="PJRT has no buffers for"):
        Buffer(DType.index, [2])
    with pytest.raises(DriverError, match="a list of sizes"):
        Buffer(DType.float32, ["n"])
    with pytest.raises(DriverError, match="item\\(\\) reads a buffer of one element"):
        Buffer.zeros([2], DType.float32).item()
    with pytest.raises(DriverError, match="is not a device"):
        Buffer.zeros([2], DType.float32).to(3.5)


def test_devices():
    cpu = CPU()
    assert isinstance(cpu, Device) and (cpu.label, cpu.id, cpu.api, cpu.is_host) == ("cpu", 0, "cpu", True)
    assert repr(cpu) == "Device(type=cpu,id=0)" and cpu == CPU(0) and hash(cpu) == hash(CPU(-1))
    assert DeviceRef.from_device(cpu) == DeviceRef.CPU() == DeviceRef.parse(cpu)
    assert TensorType(DType.float32, [2], cpu).device == DeviceRef.CPU()
    with pytest.raises(GraphError, match="DeviceRef.parse"):
        DeviceRef.from_device("cpu")
    with Graph("g", input_types=[TensorType(DType.float32, [2], DeviceRef.from_device(cpu))]) as g:
        g.output(g.inputs[0].to(cpu))
    assert g.device == DeviceRef.CPU()


def test_accelerator_is_a_clear_error_without_a_gpu():
    if accelerator_count() > 0:
        assert Accelerator().label == "gpu"
        return
    with pytest.raises(DeviceNotFoundError, match="no GPU platform"):
        Accelerator()


# -- the reference -----------------------------------------------------------------------------


def test_the_reference_computes_what_the_programs_say():
    """MAX's outputs, against NumPy (run_max_doc_programs.py checked them too, before writing them)."""
    (x, w, b), (out,) = _io("linear_relu")
    np.testing.assert_allclose(out, np.maximum(x @ w + b, 0), rtol=1e-5, atol=1e-6)
    (x, w1, b1, w2, b2), (out,) = _io("mlp")
    np.testing.assert_allclose(out, np.maximum(x @ w1 + b1, 0) @ w2 + b2, rtol=1e-5, atol=1e-6)
    (ids, table, w), (embedded, projected) = _io("embedding")
    np.testing.assert_array_equal(embedded, table[ids])
    np.testing.assert_allclose(projected, table[ids].mean(axis=1) @ w, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(_io("gather_constants")[1][0], [[1, 2], [5, 6]])


@pytest.mark.slow
def test_max_itself_reproduces_the_reference(tmp_path):
    """With MAX installed (``pip install max==26.7.0``): the tool that wrote the reference writes it again."""
    pytest.importorskip("max.graph", reason="MAX is not installed")
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_max_doc_programs", ROOT / "tools" / "run_max_doc_programs.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    runner.main(str(tmp_path / "again.npz"))
    again = dict(np.load(tmp_path / "again.npz"))
    assert again.keys() == REFERENCE_ARRAYS.keys()
    for key, value in again.items():
        np.testing.assert_array_equal(value, REFERENCE_ARRAYS[key], err_msg=key)


def test_64_bit_buffers_and_weights_keep_their_dtype():
    a = np.array([2**40, -1], np.int64)
    assert Buffer.from_dlpack(a).dtype == DType.int64 and Buffer.from_numpy(a).to_numpy().dtype == np.int64
    assert Buffer.zeros([2], DType.float64).to_numpy().dtype == np.float64
    w = Weight("w", DType.int64, [2], device=DeviceRef.CPU())
    with Graph("g") as g:
        g.output(g.add_weight(w) + 1)
    (out,) = InferenceSession().load(g, weights_registry={"w": a}).execute()
    np.testing.assert_array_equal(out.to_numpy(), a + 1)
