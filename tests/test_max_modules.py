"""MAX's op submodules and names latticecast provides: ops.elementwise, ops.reduction, ops.complex, irfft's
Normalization (facts measured with MAX 26.7 are written as expected values)."""

from __future__ import annotations

import numpy as np
import pytest

from latticecast.graph.ops import complex as complex_ops
from latticecast.graph.ops import elementwise, reduction
from latticecast.graph.ops.signal import Normalization
from latticecast.max import DType, Graph, TensorType, ops


def test_elementwise_and_reduction_max_min_are_maxs() -> None:
    with Graph("g", input_types=[TensorType(DType.float32, [2, 3]), TensorType(DType.float32, [3])]) as g:
        x, y = g.inputs
        assert ops.max(x, y).shape == elementwise.max(x, y).shape == (2, 3)
        assert reduction.min(x, axis=0).shape == (1, 3)
        g.output(elementwise.min(x, y), reduction.max(x))
    low, high = g.compile()(np.array([[1, np.nan, 3], [4, 5, 6]], np.float32), np.array([2, 2, np.nan], np.float32))
    assert low.tolist() == [[1, 2, 3], [2, 2, 6]]  # a NaN loses to a number
    assert high.tolist() == [[3], [6]]


def test_complex_mul_of_interleaved_pairs() -> None:
    with Graph("g", input_types=[TensorType(DType.float32, [2, 2]), TensorType(DType.float32, [2])]) as g:
        x, y = g.inputs
        product = complex_ops.mul(x, y)
        assert product.shape == (2, 2)
        with pytest.raises(ValueError, match="Complex-valued tensors must be 2-dimensional vectors"):
            complex_ops.mul(x, x[..., :1])
        g.output(product)
    (out,) = g.compile()(np.array([[1, 2], [0, 1]], np.float32), np.array([3, 4], np.float32))
    expected = np.array([1 + 2j, 1j]) * (3 + 4j)
    np.testing.assert_allclose(out[..., 0] + 1j * out[..., 1], expected)


def test_as_interleaved_complex_errors_are_maxs_types() -> None:
    with Graph("g", input_types=[TensorType(DType.float32, ["n"]), TensorType(DType.float32, [3])]) as g:
        with pytest.raises(TypeError, match="must be static"):
            ops.as_interleaved_complex(g.inputs[0])
        with pytest.raises(ValueError, match="must be divisible by 2"):
            ops.as_interleaved_complex(g.inputs[1])


def test_irfft_normalization_members_equal_their_names() -> None:
    assert Normalization.ORTHO == "ortho" and Normalization("forward") is Normalization.FORWARD
    with Graph("g", input_types=[TensorType(DType.float32, [3])]) as g:
        with pytest.raises(ValueError, match="Invalid normalization: invalid"):
            ops.irfft(g.inputs[0], normalization="invalid")
        g.output(ops.irfft(g.inputs[0], normalization=Normalization.FORWARD))
    (out,) = g.compile()(np.array([4, 0, 0], np.float32))
    assert out.tolist() == [4.0, 4.0, 4.0, 4.0]


def test_random_needs_a_seed_and_checks_it() -> None:
    like = TensorType(DType.float32, [4], "cpu")
    with Graph("g", input_types=[TensorType(DType.uint64, [2], "cpu")]) as g:
        with pytest.raises(RuntimeError, match="No seed set"):
            ops.random.uniform(like)
        with pytest.raises((ValueError, OverflowError)):
            ops.random.set_seed(2 ** 64)
        with pytest.raises(ValueError, match="Seed must be a scalar or rank-1 tensor with shape \\[1\\]"):
            ops.random.set_seed(g.inputs[0])
        with pytest.raises(ValueError, match="Expected a scalar value"):
            ops.random.set_seed(0)
            ops.random.gaussian(like, mean=np.zeros(2))
    seed_type = ops.random.SeedType("cpu")
    assert seed_type.dtype == DType.uint64 and list(seed_type.shape) == [1]


def test_random_distributions_loosely_and_reproducibly() -> None:
    # the numbers are not MAX's (another generator): only their distribution is compared
    like = TensorType(DType.float32, [20000], "cpu")
    with Graph("g", input_types=[ops.random.SeedType("cpu")]) as g:
        ops.random.set_seed(g.inputs[0])
        u = ops.random.uniform(like, range=(-1, 3))
        n = ops.random.normal(like, mean=2.0, std=0.5)
        k = ops.random.uniform(TensorType(DType.int32, [20000], "cpu"), range=(0, 10))
        g.output(u, n, k)
    model = g.compile()
    u1, n1, k1 = model(np.array([5], np.uint64))
    u2, _, _ = model(np.array([5], np.uint64))
    u3, _, _ = model(np.array([6], np.uint64))
    np.testing.assert_array_equal(u1, u2)
    assert not np.array_equal(u1, u3)
    assert -1 <= u1.min() and u1.max() < 3 and abs(u1.mean() - 1) < 0.05 and abs(u1.std() - 4 / 12 ** 0.5) < 0.05
    assert abs(n1.mean() - 2) < 0.02 and abs(n1.std() - 0.5) < 0.02
    assert k1.dtype == np.int32 and set(np.unique(k1)) == set(range(10))
    assert not np.array_equal(u1[:100], (n1[:100] - 2) / 0.5)  # each op draws from the next seed


def test_filter_layouts_and_tensor_type_layout() -> None:
    from latticecast.max import FilterLayout

    with_layout = TensorType(DType.float32, [7, 2], "cpu", _layout=FilterLayout.RSCF)
    assert with_layout == TensorType(DType.float32, [7, 2], "cpu", _layout=FilterLayout.RSCF)
    assert hash(with_layout) == hash(TensorType(DType.float32, [7, 2], "cpu", _layout=FilterLayout.RSCF))
    assert with_layout != TensorType(DType.float32, [7, 2], "cpu") and TensorType(DType.float32, [1])._layout is None
    with pytest.raises(ValueError, match="FilterLayout or None"):
        with_layout._layout = "RSCF"


def test_conv2d_reads_an_fcrs_filter_and_a_weak_numpy_filter() -> None:
    from latticecast.max import FilterLayout

    rng = np.random.default_rng(0)
    image = rng.standard_normal((1, 6, 5, 3)).astype(np.float32)
    rscf = rng.standard_normal((3, 2, 3, 4)).astype(np.float32)
    with Graph("g", input_types=[TensorType(DType.float32, [1, 6, 5, 3], "cpu"),
                                 TensorType(DType.float32, [4, 3, 3, 2], "cpu")]) as g:
        x, fcrs = g.inputs
        a = ops.conv2d(x, rscf, filter_layout=FilterLayout.RSCF)
        b = ops.conv2d(x, fcrs, filter_layout=FilterLayout.FCRS)
        assert list(b.shape) == [1, 4, 4, 4]
        g.output(a, b)
    a, b = g.compile()(image, rscf.transpose(3, 2, 0, 1).copy())
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    with Graph("g", input_types=[TensorType(DType.bfloat16, [1, 8, 8, 4], "cpu")]) as g:
        # MAX: a NumPy filter is weak and takes the input's dtype
        assert ops.conv2d(g.inputs[0], np.ones((3, 3, 4, 5), np.float32)).dtype == DType.bfloat16


def test_tensor_type_mlir_round_trip_keeps_device_symbols_and_layout() -> None:
    from latticecast.max import FilterLayout, Type

    t = TensorType(DType.bfloat16, [3, "x"], "cpu")
    assert TensorType.from_mlir(t.to_mlir()) == t and t.to_mlir() == TensorType(DType.bfloat16, [3, "x"]).to_mlir()
    t._layout = FilterLayout.RSCF
    back = Type.from_mlir(t.to_mlir())
    assert back == t and back._layout == FilterLayout.RSCF and isinstance(back, Type)
    with pytest.raises(ValueError, match="is dynamic and has no name"):
        from jaxlib.mlir import ir
        with t.to_mlir().context, ir.Location.unknown():
            TensorType.from_mlir(ir.RankedTensorType.get([ir.ShapedType.get_dynamic_size()], ir.F32Type.get()))


def test_shard_and_stack_stacks_each_devices_piece() -> None:
    from typing import Any

    from latticecast.max import DeviceRef, Type

    assert Type[Any] is Type
    t = TensorType(DType.int32, [3, 4], "cpu")
    with Graph("g", input_types=[t, t]) as g:
        a, b = g.inputs
        with pytest.raises(ValueError, match=r"Dimension size along axis 1 \(4\) must be evenly divisible by number "
                                             r"of devices \(3\)"):
            ops.shard_and_stack([a], [DeviceRef.CPU()] * 3, axis=-1)
        with pytest.raises(IndexError, match=r"Axis must be in range \[-2, 2\), got 2"):
            ops.shard_and_stack([a], [DeviceRef.CPU()], axis=2)
        with pytest.raises(ValueError, match="Must provide at least one device."):
            ops.shard_and_stack([a], [])
        with pytest.raises(ValueError, match=r"Input 0 has shape \[Dim\(3\), Dim\(4\)\], but input 1 has shape"):
            ops.shard_and_stack([a, a[:2]], [DeviceRef.CPU()])
        outs = ops.shard_and_stack([a, b], [DeviceRef.CPU()] * 2, axis=1)
        assert [list(o.shape) for o in outs] == [[2, 3, 2], [2, 3, 2]]
        g.output(*outs)
    x, y = np.arange(12, dtype=np.int32).reshape(3, 4), -np.arange(12, dtype=np.int32).reshape(3, 4)
    first, second = g.compile()(x, y)
    np.testing.assert_array_equal(first, np.stack([x[:, :2], y[:, :2]]))
    np.testing.assert_array_equal(second, np.stack([x[:, 2:], y[:, 2:]]))


def test_a_random_draw_lives_on_its_like_s_device() -> None:
    from latticecast.max import DeviceRef

    with Graph("random_on_gpu"):
        ops.random.set_seed(0)
        gpu = TensorType(DType.float32, [4], DeviceRef.GPU())
        assert ops.random.uniform(gpu).type.device == DeviceRef.GPU()
        assert ops.random.gaussian(gpu).type.device == DeviceRef.GPU()
