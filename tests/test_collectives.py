"""MAX's collectives (``allgather``, ``allreduce.sum``, ``reducescatter.sum``) on 8 host CPU devices.

The device count of a process is fixed when jax starts, so the default session runs this module
again in a process of its own with ``XLA_FLAGS=--xla_force_host_platform_device_count=8`` (the
pattern of ``tests/test_sharded.py``). There, each collective's per-device results are checked
against NumPy, and the compiled program against the collective XLA made of it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from latticecast import DType, Graph, TensorType, ops
from latticecast.errors import GraphError

DEVICES = 8
ON_MESH = os.environ.get("LATTICECAST_TEST_DEVICES") == str(DEVICES)


def test_a_collective_needs_one_input_per_device():
    # without a mesh, the inputs are MAX's per-device values: two on cpu:0 is MAX's error (see test_devices.py)
    with Graph("no_mesh", input_types=[TensorType(DType.float32, [2])] * 2) as g:
        with pytest.raises(GraphError, match="allreduce.sum operation must have unique devices"):
            ops.allreduce.sum(g.inputs, [None, None])
        with pytest.raises(GraphError, match="number of signal buffers"):
            ops.allgather(g.inputs, [None])


if not ON_MESH:

    def test_on_8_host_devices() -> None:
        """Runs the tests below in a process with 8 CPU devices (each failure is reported)."""
        env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={DEVICES}",
                   LATTICECAST_TEST_DEVICES=str(DEVICES), TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__],
                              capture_output=True, text=True, env=env, timeout=900,
                              cwd=Path(__file__).resolve().parent.parent)
        assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-3000:]
        assert " passed" in proc.stdout and "skipped" not in proc.stdout, proc.stdout[-2000:]

else:
    import jax
    from jax.sharding import AxisType, PartitionSpec as P

    COLLECTIVES = re.compile(r"\b(all-gather|all-reduce|reduce-scatter)\b")

    @pytest.fixture(scope="module")
    def mesh():
        assert len(jax.devices()) == DEVICES
        return jax.make_mesh((4, 2), ("a", "b"), axis_types=(AxisType.Auto,) * 2)

    def _run(mesh, build):
        """``build(per-device inputs)`` where input i is the i-th shard of one value sharded over the mesh."""
        x = np.random.default_rng(0).standard_normal((DEVICES * 8, 6)).astype(np.float32)
        with Graph("collective", input_types=[TensorType(DType.float32, x.shape, sharding=P(("a", "b")))],
                   mesh=mesh) as g:
            shards = [g.inputs[0][8 * i:8 * i + 8] for i in range(DEVICES)]
            outs = build(shards)
            g.output(*outs)
        model = g.compile()
        hlo = model.executable.hlo_modules()[0].to_string()
        return np.split(x, DEVICES), model(x), set(COLLECTIVES.findall(hlo))

    def test_allgather(mesh):
        shards, got, collectives = _run(mesh, lambda xs: ops.allgather(xs, [None] * DEVICES, axis=1))
        assert len(got) == DEVICES and "all-gather" in collectives
        for out in got:
            np.testing.assert_array_equal(out, np.concatenate(shards, 1))

    def test_allreduce_sum(mesh):
        shards, got, collectives = _run(mesh, lambda xs: ops.allreduce.sum(xs, [None] * DEVICES))
        assert len(got) == DEVICES and "all-reduce" in collectives
        for out in got:
            np.testing.assert_allclose(out, np.sum(shards, 0), rtol=1e-6, atol=1e-6)

    def test_reducescatter_sum(mesh):
        shards, got, collectives = _run(mesh, lambda xs: ops.reducescatter.sum(xs, [None] * DEVICES, axis=0))
        assert collectives  # XLA's CPU backend: an all-reduce, then each device's slice
        for out, want in zip(got, np.split(np.sum(shards, 0), DEVICES, 0), strict=True):
            np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)

    def test_distributed_broadcast(mesh):
        shards, got, collectives = _run(mesh, lambda xs: ops.distributed_broadcast(xs[3], [None] * DEVICES))
        assert len(got) == DEVICES and collectives  # device 3's shard reaches the others
        for out in got:
            np.testing.assert_array_equal(out, shards[3])

    def test_groups_reduce_their_own_inputs(mesh):
        shards, got, _ = _run(mesh, lambda xs: ops.allreduce.sum(xs, [None] * DEVICES, group_size=2))
        for i, out in enumerate(got):
            np.testing.assert_allclose(out, shards[i - i % 2] + shards[i - i % 2 + 1], rtol=1e-6, atol=1e-6)

    def test_max_errors(mesh):
        with Graph("errors", input_types=[TensorType(DType.float32, [8, 2])] * DEVICES, mesh=mesh) as g:
            with pytest.raises(GraphError, match="give one input per device"):
                ops.allreduce.sum(g.inputs[:4], [None] * 4)
            with pytest.raises(GraphError, match="group_size to evenly divide"):
                ops.allgather(g.inputs, [None] * DEVICES, group_size=3)
            with pytest.raises(GraphError, match="Dimension out of range"):
                ops.allgather(g.inputs, [None] * DEVICES, axis=2)
            with pytest.raises(GraphError, match="does not split evenly"):
                ops.reducescatter.sum(g.inputs, [None] * DEVICES, axis=1)
