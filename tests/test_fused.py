"""MAX's fused multi-device ops (``allgather_rms_norm``, ``reduce_scatter_rms_norm``, ``parallel``) and the
refused MXFP variants.

The collectives run on 4 host CPU devices in a process of their own (``XLA_FLAGS`` is read when jax
starts), as ``tests/test_collectives.py`` does; each result is checked against NumPy's definition of
MAX's op: the norm in float32, cast once to bfloat16.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from latticecast import DType, Graph, TensorType, ops
from latticecast.errors import GraphError, UnsupportedOpError

DEVICES = 4
ON_MESH = os.environ.get("LATTICECAST_TEST_DEVICES") == str(DEVICES)
BF16 = ml_dtypes.bfloat16


def _rms_norm(x: np.ndarray, gamma: np.ndarray, eps: float, offset: float) -> np.ndarray:
    x32 = x.astype(np.float32)
    normed = x32 / np.sqrt(np.mean(x32 * x32, axis=-1, keepdims=True) + eps)
    return (normed * (gamma.astype(np.float32) + offset)).astype(BF16)


def test_max_checks_of_the_fused_norms():
    bf = TensorType(DType.bfloat16, [4, 8])
    with Graph("checks", input_types=[bf, bf, TensorType(DType.float32, [4, 8]), TensorType(DType.bfloat16, [8])]) as g:
        x, y, f, gamma = g.inputs
        with pytest.raises(GraphError, match="requires at least two inputs"):
            ops.allgather_rms_norm([x], [None], [gamma], 1e-6)
        with pytest.raises(GraphError, match=r"number of gammas \(1\) to match"):
            ops.allgather_rms_norm([x, y], [None, None], [gamma], 1e-6)
        with pytest.raises(GraphError, match="number of signal buffers"):
            ops.reduce_scatter_rms_norm([x, y], [None], [gamma, gamma], 1e-6)
        with pytest.raises(GraphError, match="is bfloat16-only"):
            ops.reduce_scatter_rms_norm([f, f], [None, None], [gamma, gamma], 1e-6)
        with pytest.raises(GraphError, match="requires group_size to be at least 2"):
            ops.allgather_rms_norm([x, y], [None, None], [gamma, gamma], 1e-6, group_size=1)
        with pytest.raises(GraphError, match=r"number of residuals \(1\) to match"):
            ops.reduce_scatter_rms_norm([x, y], [None, None], [gamma, gamma], 1e-6, residuals=[x])
        with pytest.raises(GraphError, match="is 2D-only"):
            ops.allgather_rms_norm([gamma, gamma], [None, None], [gamma, gamma], 1e-6)


def test_the_mxfp_variants_are_refused_with_the_fix():
    for op in (ops.allgather_rms_norm_quant_mxfp8, ops.allgather_rms_norm_quant_mxfp6):
        with pytest.raises(UnsupportedOpError, match="call ops.allgather_rms_norm"):
            op([], [], [], 1e-6)


def test_parallel_runs_the_body_per_launch():
    t = TensorType(DType.float32, [3])
    with Graph("parallel", input_types=[t, t, t, t]) as g:
        a0, a1, b0, b1 = g.inputs
        sums, products = ops.parallel([[a0, a1], [b0, b1]], lambda a, b: (a + b, a * b), result_types=[[t, t], [t, t]])
        g.output(*sums, *products)
    xs = [np.arange(3, dtype=np.float32) + k for k in range(4)]
    got = g.compile()(*xs)
    np.testing.assert_array_equal(got[0], xs[0] + xs[2])
    np.testing.assert_array_equal(got[1], xs[1] + xs[3])
    np.testing.assert_array_equal(got[3], xs[1] * xs[3])


def test_parallel_checks():
    t = TensorType(DType.float32, [3])
    with Graph("parallel_checks", input_types=[t, t]) as g:
        a, b = g.inputs
        with pytest.raises(GraphError, match="at least one input bundle"):
            ops.parallel([], lambda: a, result_types=[])
        with pytest.raises(GraphError, match="input bundle 1 has 1 launches; bundle 0 has 2"):
            ops.parallel([[a, b], [a]], lambda x, y: x, result_types=[[t, t]])
        with pytest.raises(GraphError, match=r"result_types\[0\] has 1 types; expected 2"):
            ops.parallel([[a, b]], lambda x: x, result_types=[[t]])
        with pytest.raises(GraphError, match="yielded 2 tensor"):
            ops.parallel([[a, b]], lambda x: (x, x), result_types=[[t, t]])
        with pytest.raises(GraphError, match="result_types.0..0. is int32"):
            ops.parallel([[a, b]], lambda x: x, result_types=[[TensorType(DType.int32, [3])] * 2])
        with pytest.raises(UnsupportedOpError, match="buffer ops"):
            ops.parallel([[a, b]], lambda x: x, buffers=[None, None], chain=object(), result_types=[[t, t]])


if not ON_MESH:

    def test_on_4_host_devices() -> None:
        """Runs the tests below in a process with 4 CPU devices (each failure is reported)."""
        env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={DEVICES}",
                   LATTICECAST_TEST_DEVICES=str(DEVICES), TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__,
                               "-k", "mesh"], capture_output=True, text=True, env=env, timeout=900,
                              cwd=Path(__file__).resolve().parent.parent)
        assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-3000:]
        assert " passed" in proc.stdout and "skipped" not in proc.stdout, proc.stdout[-2000:]

else:
    import jax
    from jax.sharding import AxisType

    @pytest.fixture(scope="module")
    def mesh():
        assert len(jax.devices()) == DEVICES
        return jax.make_mesh((DEVICES,), ("d",), axis_types=(AxisType.Auto,))

    def _per_device(mesh, shapes, build):
        """Compile ``build(per-device inputs)`` over the mesh; run it on random bfloat16 inputs."""
        rng = np.random.default_rng(0)
        xs = [rng.standard_normal(shape).astype(BF16) for shape in shapes]
        with Graph("fused", input_types=[TensorType(DType.bfloat16, s) for s in shapes], mesh=mesh) as g:
            g.output(*build(g.inputs))
        return xs, g.compile()(*xs)

    def test_allgather_rms_norm_on_the_mesh(mesh):
        gamma = np.linspace(0.5, 1.5, 8).astype(BF16)

        def build(inputs):
            normed, residual = ops.allgather_rms_norm(inputs, [None] * DEVICES, [gamma] * DEVICES, 1e-6,
                                                      weight_offset=1.0)
            return [*normed, *residual]
        xs, got = _per_device(mesh, [(2, 8)] * DEVICES, build)
        gathered = np.concatenate(xs, 0)
        for device in range(DEVICES):
            np.testing.assert_array_equal(got[DEVICES + device], gathered)
            np.testing.assert_allclose(got[device].astype(np.float32),
                                       _rms_norm(gathered, gamma, 1e-6, 1.0).astype(np.float32), rtol=1e-2)

    def test_reduce_scatter_rms_norm_with_residuals_on_the_mesh(mesh):
        gamma = np.linspace(0.5, 1.5, 8).astype(BF16)
        residual = np.random.default_rng(1).standard_normal((8, 8)).astype(BF16)

        def build(inputs):
            normed, sums = ops.reduce_scatter_rms_norm(inputs, [None] * DEVICES, [gamma] * DEVICES, 1e-6,
                                                       residuals=[residual] * DEVICES)
            return [*normed, *sums]
        xs, got = _per_device(mesh, [(8, 8)] * DEVICES, build)
        total = np.sum([x.astype(np.float32) for x in xs], 0) + residual.astype(np.float32)
        for device, rows in enumerate(np.split(total, DEVICES, 0)):
            np.testing.assert_allclose(got[DEVICES + device].astype(np.float32), rows, rtol=1e-2, atol=1e-2)
            np.testing.assert_allclose(got[device].astype(np.float32),
                                       _rms_norm(rows, gamma, 1e-6, 0.0).astype(np.float32), rtol=1e-2, atol=1e-2)

    def test_print_in_a_graph_partitioned_over_the_mesh_is_refused(mesh):
        from latticecast.runtime.runtime_errors import UnsupportedModuleError

        with Graph("print_mesh", input_types=[TensorType(DType.float32, [4])], mesh=mesh) as g:
            ops.print(g.inputs[0], label="x")
            g.output(g.inputs[0])
        with pytest.raises(UnsupportedModuleError, match=r"calls back into Python \(ops.print\) and is partitioned "
                                                         r"over 4 devices.*output the value from the graph"):
            g.compile()
