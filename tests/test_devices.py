"""Multi-device graphs as MAX builds them: values carry their device, ops check their operands' devices,
collectives with signal buffers, and compiling a graph whose devices are (or are not) present.

MAX 26.7's messages and result types, measured with the oracle, are the expected values. The tests
that run a graph on several CPU devices run this module again in a process with
``XLA_FLAGS=--xla_force_host_platform_device_count=4`` (the pattern of ``tests/test_collectives.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import latticecast as lc
from latticecast import DType, DeviceRef, Graph, TensorType, ops
from latticecast.errors import AxisError, GraphError
from latticecast.max.nn import Signals
from latticecast.promotion.tensor_type import BufferType, Type, as_tensor_type

DEVICES = 4
ON_DEVICES = os.environ.get("LATTICECAST_TEST_DEVICES") == str(DEVICES)
CPU, GPU0, GPU1 = DeviceRef.CPU(), DeviceRef.GPU(0), DeviceRef.GPU(1)


def _f32(shape: list[Any], device: DeviceRef = CPU) -> TensorType:
    return TensorType(DType.float32, shape, device)


# -- where values live ------------------------------------------------------------------------------


def test_values_carry_their_device():
    with Graph("g", input_types=[_f32([2]), _f32([2], GPU1)]) as g:
        x, y = g.inputs
        assert (x.device, y.device, (y * 2).device, (1 - y).device) == (CPU, GPU1, GPU1, GPU1)
        assert y.type == _f32([2], GPU1) and g.devices == [CPU, GPU1]
        moved = ops.transfer_to(x, GPU1)
        assert moved.device == GPU1 and (moved + y).device == GPU1 and x.device == CPU
        assert x.to(CPU) is x
        c = ops.constant(np.ones(2, np.float32), DType.float32, GPU0)
        assert c.device == GPU0 and g.devices == [CPU, GPU1, GPU0]
        g.output(moved + y, c)
    assert [t.device for t in g.output_types] == [GPU1, GPU0]


def test_a_one_device_graph_is_unchanged():
    with Graph("g", input_types=[_f32([2], GPU0)]) as g:
        (x,) = g.inputs
        assert (x + 1).device == GPU0 and g.devices == [GPU0] and not g.multi_device
        g.output(x + 1)


def test_device_arguments_place_values():
    with Graph("g") as g:
        r = ops.range(0, 3, dtype=DType.int32, device=GPU1)
        w = ops.hann_window(4, device=GPU0)
        assert (r.device, w.device, r.shape) == (GPU1, GPU0, (3,))
        with pytest.raises(GraphError, match="Range input values must be on CPU"):
            ops.range(ops.constant(0, DType.int32, device=GPU0), 5, out_dim=5, dtype=DType.int32, device=GPU0)


# -- MAX's device checks (its message, measured) ----------------------------------------------------

SAME = re.escape("Input values must be on the same device\n"
                 "    lhs: TensorType(dtype=float32, shape=[Dim(2)], device=cpu:0)\n"
                 "    rhs: TensorType(dtype=float32, shape=[Dim(2)], device=gpu:0)")


@pytest.mark.parametrize("op", [lambda a, b: a + b, ops.sub, ops.matmul, ops.outer, ops.maximum])
def test_binary_ops_need_one_device(op):
    with Graph("g", input_types=[_f32([2]), _f32([2], GPU0)]) as g:
        with pytest.raises(ValueError, match=SAME):
            op(*g.inputs)


def test_multi_operand_ops_name_their_operands():
    with Graph("g", input_types=[TensorType(DType.bool, [2]), _f32([2]), _f32([2], GPU0)]) as g:
        c, x, y = g.inputs
        with pytest.raises(GraphError, match=re.escape(
                "Input values must be on the same device\n"
                "    condition: TensorType(dtype=bool, shape=[Dim(2)], device=cpu:0)\n"
                "    x: TensorType(dtype=float32, shape=[Dim(2)], device=cpu:0)\n"
                "    y: TensorType(dtype=float32, shape=[Dim(2)], device=gpu:0)")):
            ops.where(c, x, y)
        for op in (lambda: ops.concat([x, y]), lambda: ops.stack([x, y])):
            with pytest.raises(GraphError, match=r"same device\n    0: .*cpu:0\)\n    1: .*gpu:0\)"):
                op()
        with pytest.raises(GraphError, match="    indices: "):
            ops.gather(x, ops.constant(np.array([0]), DType.int64, GPU0), 0)
        with pytest.raises(GraphError, match="    updates: "):
            ops.scatter(x, y, ops.constant(np.array([0, 1]), DType.int64, CPU))


def test_a_literal_goes_with_the_tensor():
    with Graph("g", input_types=[_f32([2]), _f32([2], GPU0)]) as g:
        x, y = g.inputs
        one = ops.constant(1.0, DType.float32)  # made before the other device's values are used
        assert (y + 1.5).device == GPU0 and ops.where(y > 0, y, 0.0).device == GPU0
        assert (x + one).device == CPU
        assert ops.transfer_to(2, GPU1).device == GPU1 and (x + 2).device == CPU  # a shared literal is copied


# -- signal buffers, buffer types ---------------------------------------------------------------------


def test_signals_and_buffer_inputs():
    signals = Signals([GPU0, GPU1])
    types: list[Type[Any]] = [_f32([2], GPU0), *signals.input_types()]
    assert all(isinstance(t, BufferType) and t.dtype == DType.uint8 and t.shape == (Signals.NUM_BYTES,)
               for t in types[1:])
    assert Signals.NUM_BYTES == 294387728 and signals.buffers() == []  # MAX 26.7's size
    with Graph("g", input_types=types) as g:
        b = g.inputs[1].buffer
        assert b.device == GPU0 and g.devices == [GPU0, GPU1] and len(g.input_types) == 1
        with pytest.raises(TypeError, match="is a buffer"):
            g.inputs[1].tensor
        g.output(g.inputs[0])
    assert len(list(g.module.body.operations[0].regions[0].blocks[0].arguments)) == 1  # no @main argument
    with pytest.raises(GraphError, match="is a buffer type"):
        as_tensor_type(BufferType(DType.uint8, [1]))


# -- collectives without a mesh: MAX's result types and errors -----------------------------------


def _collective_graph(shapes: list[list[int]], devices: list[DeviceRef], build: Any, buffers: int | None = None) -> Any:
    signals = Signals(devices[:buffers] if buffers is not None else devices)
    types = [_f32(s, d) for s, d in zip(shapes, devices)] + signals.input_types()
    with Graph("c", input_types=types) as g:
        n = len(shapes)
        return build([v.tensor for v in g.inputs[:n]], [v.buffer for v in g.inputs[n:]])


GPUS = [DeviceRef.GPU(i) for i in range(4)]


def test_allgather_and_allreduce_results():
    outs = _collective_graph([[6, 5]] * 4, GPUS, lambda xs, bs: ops.allgather(xs, bs))
    assert [(o.shape, o.device) for o in outs] == [((24, 5), d) for d in GPUS]
    outs = _collective_graph([[6, 5], [6, 5], [6, 4], [6, 4]], GPUS, lambda xs, bs: ops.allgather(xs, bs, axis=1))
    assert {o.shape for o in outs} == {(6, 18)}
    outs = _collective_graph([[6, 5]] * 4, GPUS, lambda xs, bs: ops.allreduce.sum(xs, bs))
    assert [(o.shape, o.device) for o in outs] == [((6, 5), d) for d in GPUS]
    outs = _collective_graph([[6, 5]] * 4, GPUS, lambda xs, bs: ops.allgather(xs, bs, group_size=2))
    assert {o.shape for o in outs} == {(12, 5)}


def test_reducescatter_splits_like_max():
    outs = _collective_graph([[9, 16]] * 4, GPUS, lambda xs, bs: ops.reducescatter.sum(xs, bs))
    assert [(o.shape, o.device) for o in outs] == [((3, 16), GPUS[0]), ((2, 16), GPUS[1]), ((2, 16), GPUS[2]),
                                                   ((2, 16), GPUS[3])]
    outs = _collective_graph([[6, 10]] * 2, GPUS[:2], lambda xs, bs: ops.reducescatter.sum(xs, bs, axis=1))
    assert {o.shape for o in outs} == {(6, 5)}


@pytest.mark.parametrize("shapes, devices, build, buffers, error, message", [
    ([[6, 5]] * 4, [GPU0, GPU0, GPUS[2], GPUS[3]], lambda xs, bs: ops.allreduce.sum(xs, bs), None, ValueError,
     r"allreduce.sum operation must have unique devices across its input tensors\."),
    ([[6, 5], [6, 2], [6, 5], [6, 5]], GPUS, lambda xs, bs: ops.allreduce.sum(xs, bs), None, ValueError,
     r"allreduce.sum operation must have the same shape across all input tensors"),
    ([[6, 5], [6, 2], [6, 5], [6, 5]], GPUS, lambda xs, bs: ops.allgather(xs, bs), None, ValueError,
     "allgather operation inputs must have the same shape in all dimensions except the concatenation dimension"),
    ([[6, 5]] * 4, GPUS, lambda xs, bs: ops.allgather(xs, bs, axis=-3), None, IndexError, "Dimension out of range"),
    ([[6, 5]] * 4, GPUS, lambda xs, bs: ops.allgather(xs, bs), 3, ValueError,
     r"expected number of inputs \(4\) and number of signal buffers \(3\) to match"),
    ([[6, 10]] * 2, GPUS[:2], lambda xs, bs: ops.reducescatter.sum(xs, bs, axis=5), None, ValueError,
     r"axis 5 is out of bounds for tensor with rank 2"),
    ([[6, 5]] * 4, GPUS, lambda xs, bs: ops.allreduce.sum(xs, bs, group_size=3), None, ValueError,
     "requires group_size to evenly divide"),
])
def test_collective_errors(shapes, devices, build, buffers, error, message):
    with pytest.raises(error, match=message):
        _collective_graph(shapes, devices, build, buffers)


def test_broadcast_and_distributed_scatter():
    signals = Signals(GPUS)
    with Graph("b", input_types=[_f32([6, 5], GPUS[2]), _f32([6, 5], GPU0), *signals.input_types()]) as g:
        bufs = [v.buffer for v in g.inputs[2:]]
        outs = ops.distributed_broadcast(g.inputs[0], bufs)
        assert [(o.shape, o.device) for o in outs] == [((6, 5), d) for d in GPUS]
        with pytest.raises(GraphError, match="distributed_broadcast requires at least 1 signal buffer"):
            ops.distributed_broadcast(g.inputs[0], [])
        with pytest.raises(GraphError, match=r"input tensor device gpu:2 not found in signal buffer devices"):
            ops.distributed_broadcast(g.inputs[0], bufs[:2])
        outs = ops.distributed_scatter([g.inputs[1], g.inputs[1] * 2], bufs)
        assert [o.device for o in outs] == GPUS
        with pytest.raises(GraphError, match="All input chunks must be on the same device. Chunk 0 is on gpu:2, "
                                             "but chunk 1 is on gpu:0"):
            ops.distributed_scatter(g.inputs[:2], bufs)
        with pytest.raises(GraphError, match="distributed_scatter requires at least 1 input chunk"):
            ops.distributed_scatter([], bufs)


def test_shard_and_stack():
    with Graph("s", input_types=[_f32([10, 4]), _f32([10, 4]), _f32([8, 4]), _f32([10, 4], GPU0)]) as g:
        a, b, c, on_gpu = g.inputs
        outs = ops.shard_and_stack([a, b], [GPU0, GPU1], axis=0)
        assert [(o.shape, o.device) for o in outs] == [((2, 5, 4), GPU0), ((2, 5, 4), GPU1)]
        assert ops.shard_and_stack([a], [CPU, GPU0], axis=-1)[0].shape == (1, 10, 2)
        for args, error, message in [
                (([], [GPU0]), ValueError, "Must provide at least one input tensor."),
                (([a], []), ValueError, "Must provide at least one device."),
                (([a, c], [GPU0]), ValueError, re.escape("All input tensors must have the same shape. Input 0 has "
                                                         "shape [Dim(10), Dim(4)], but input 1 has shape "
                                                         "[Dim(8), Dim(4)]")),
                (([a], [GPU0, GPU1, GPUS[2]]), ValueError, re.escape("Dimension size along axis 0 (10) must be "
                                                                     "evenly divisible by number of devices (3)")),
                (([on_gpu], [GPU0]), ValueError, "Input value must be on the host device"),
                (([a], [GPU0], 2), IndexError, re.escape("Axis must be in range [-2, 2), got 2"))]:
            with pytest.raises(error, match=message):
                ops.shard_and_stack(*args)


# -- compiling ---------------------------------------------------------------------------------


def test_a_gpu_graph_builds_and_compiling_it_names_the_devices():
    if any(d.startswith(("cuda", "rocm")) for d in lc.available_devices()):
        pytest.skip("a GPU is present")
    outs = []
    signals = Signals([GPU0, GPU1])
    with Graph("gpus", input_types=[_f32([2], GPU0), _f32([2], GPU1), *signals.input_types()]) as g:
        outs = ops.allreduce.sum(g.inputs[:2], [v.buffer for v in g.inputs[2:]])
        g.output(*outs)
    with pytest.raises(lc.DeviceNotFoundError, match=r"places values on gpu:0, gpu:1, and gpu:0, gpu:1 are not "
                                                     r"present \(devices present: cpu:0"):
        g.compile()


if not ON_DEVICES:

    def test_on_4_host_devices() -> None:
        """Runs the tests below in a process with 4 CPU devices (each failure is reported)."""
        env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={DEVICES}",
                   LATTICECAST_TEST_DEVICES=str(DEVICES), TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__,
                               "-k", "host or compile or session"],
                              capture_output=True, text=True, env=env, timeout=900,
                              cwd=Path(__file__).resolve().parent.parent)
        assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-3000:]
        assert " passed" in proc.stdout and "failed" not in proc.stdout, proc.stdout[-2000:]

    def test_a_cpu_graph_needs_its_devices_present():
        with Graph("cpus", input_types=[_f32([2], DeviceRef.CPU(0)), _f32([2], DeviceRef.CPU(3))]) as g:
            g.output(g.inputs[0] + ops.transfer_to(g.inputs[1], DeviceRef.CPU(0)))
        with pytest.raises(lc.DeviceNotFoundError, match="cpu:3 is not present .*xla_force_host_platform_device_count"):
            g.compile()

    def test_a_session_needs_every_device_of_the_graph():
        from latticecast.max.driver import CPU as HostCPU
        from latticecast.max.engine import InferenceSession

        with Graph("two", input_types=[_f32([2], DeviceRef.CPU(0)), _f32([2], DeviceRef.CPU(2))]) as g:
            g.output(g.inputs[1] * 2)
        with pytest.raises(GraphError, match="runs on cpu:2, which this session was not given"):
            InferenceSession(devices=[HostCPU()]).load(g)

else:

    def test_an_inference_session_runs_a_multi_device_graph():
        from latticecast.max.driver import CPU as HostCPU
        from latticecast.max.engine import InferenceSession

        with Graph("two", input_types=[_f32([2], DeviceRef.CPU(0)), _f32([2], DeviceRef.CPU(2))]) as g:
            x, y = g.inputs
            g.output(ops.transfer_to(x, DeviceRef.CPU(2)) + y)
        model = InferenceSession(devices=[HostCPU(0), HostCPU(2)]).load(g)
        (out,) = model.execute(np.ones(2, np.float32), np.full(2, 2, np.float32))
        np.testing.assert_array_equal(out.to_numpy(), np.full(2, 3, np.float32))

    def test_collectives_run_on_host_devices():
        devices = [DeviceRef.CPU(i) for i in range(DEVICES)]
        signals = Signals(devices)
        with Graph("cpus", input_types=[_f32([4, 2], d) for d in devices] + signals.input_types()) as g:
            xs = [v.tensor for v in g.inputs[:DEVICES]]
            bufs = [v.buffer for v in g.inputs[DEVICES:]]
            summed = ops.allreduce.sum(xs, bufs)
            gathered = ops.allgather(xs, bufs, axis=1)
            scattered = ops.reducescatter.sum(xs, bufs)
            g.output(summed[3], gathered[1], *scattered)
        arrays = [np.full((4, 2), i + 1, np.float32) for i in range(DEVICES)]
        total, joined, *parts = g.compile()(*arrays)
        np.testing.assert_array_equal(total, np.full((4, 2), 10, np.float32))
        np.testing.assert_array_equal(joined, np.concatenate(arrays, axis=1))
        np.testing.assert_array_equal(np.concatenate(parts), np.full((4, 2), 10, np.float32))


def test_expert_parallel_ops_are_refused_after_maxs_check():
    with pytest.raises(ValueError, match="input_tokens must be non-empty"):
        ops.distributed_ep.combine([], [], None, None, None, [], [], [], hidden_size=8)
    with Graph("ep", input_types=[_f32([2], GPU0)]) as g, pytest.raises(lc.errors.UnsupportedOpError,
                                                                       match="no device addresses"):
        ops.distributed_ep.dispatch_bf16([g.inputs[0]], [], None, None, None, [], [], hidden_size=8)
