"""MAX's nn, pooling and math ops, and its refused ops (issue 18).

Three checks per op:
- against MAX 26.7 itself: ``tools/max_nn_cases.py`` holds each case once, written against a
  ``max.graph.ops``-like namespace; ``tools/run_max_nn.py`` ran them on MAX and saved MAX's outputs
  (``tests/data/max_nn_reference.npz``), and here the same cases run on ``latticecast.max.ops``: same
  result dtype, shape and values;
- against an independent reference: ``jax.lax.conv_general_dilated`` for convolutions, loops over
  windows and taps in NumPy for pooling and transposed convolution, NumPy's formulas for the norms;
- MAX's errors, and the reason and fix in each refusal.
"""

import json
import sys
from pathlib import Path

import jax
import numpy as np
import pytest

import latticecast.max as lc_max
from latticecast import DType, Graph, TensorType, ops
from latticecast.errors import DomainError, GraphError, LatticecastError, UnsupportedOpError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from max_nn_cases import CASES, inputs  # noqa: E402

REFERENCE = Path(__file__).parent / "data" / "max_nn_reference.npz"
MAX_ARRAYS = dict(np.load(REFERENCE))
MAX_TYPES = json.loads((Path(__file__).parent / "data" / "max_nn_types.json").read_text())
TOLERANCE = {"rtol": 1e-5, "atol": 2e-6}  # float32 kernels that sum in another order


def _run(fn, *arrays, dtype=DType.float32, graph=Graph):
    """``fn(*inputs)`` in a graph of inputs shaped as ``arrays``, compiled and run on them."""
    with graph("nn", input_types=[TensorType(dtype, a.shape) for a in arrays]) as g:
        out = fn(*g.inputs)
        g.output(out)
    return out, g.compile()(*arrays)[0]


# -- MAX's own outputs -----------------------------------------------------------------------------

def _on_latticecast_max(name):
    ins = inputs(name)
    types = [lc_max.TensorType(lc_max.DType.float32, a.shape, lc_max.DeviceRef.CPU()) for a in ins]
    with lc_max.Graph(name, input_types=types) as g:
        out = CASES[name][1](lc_max.ops, *[v.tensor for v in g.inputs])
        g.output(out)
    return g, out, ins


@pytest.mark.parametrize("name", list(CASES))
def test_each_case_has_maxs_result_type(name):
    _, out, _ = _on_latticecast_max(name)
    want = MAX_TYPES["cases"][name]
    assert (out.dtype.name, list(out.shape)) == (want["dtype"], want["shape"])
    assert set(MAX_TYPES["cases"]) == set(CASES) and MAX_TYPES["max_version"].startswith("26.7")


# MAX 26.7's CPU kernel divides the bottom edge's windows by fewer taps than it sums when
# count_boundary=False (pooling.py's docstring): those two cases are checked against their windows only.
MAX_DIFFERS = {"avg_pool2d_no_boundary", "avg_pool2d_ceil_no_boundary"}


@pytest.mark.parametrize("name", [n for n in CASES if n not in MAX_DIFFERS])
def test_each_case_matches_max(name):
    ins = inputs(name)
    for i, a in enumerate(ins):  # the recorded inputs are the ones the cases draw
        np.testing.assert_array_equal(MAX_ARRAYS[f"{name}/in{i}"], a)
    want = MAX_ARRAYS[f"{name}/out"]
    g, out, _ = _on_latticecast_max(name)
    assert out.dtype == DType.float32 and tuple(out.shape) == want.shape
    got = g.compile()(*ins)[0]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, **TOLERANCE)


def test_max_divides_the_bottom_edge_by_fewer_taps_than_it_sums():
    """The measurement behind MAX_DIFFERS: MAX's sum over each window, divided by MAX's output, is the
    divisor MAX used; along the bottom row of avg_pool2d_no_boundary it is 1 row of taps, not 2."""
    x, got = MAX_ARRAYS["avg_pool2d_no_boundary/in0"], MAX_ARRAYS["avg_pool2d_no_boundary/out"]
    window_sums = _pool_reference(x, (2, 3), (2, 2), (1, 1), (1, 1), False, "avg", True) * 6  # count = area
    divisors = np.round(window_sums / got)[0, :, :, 0]
    assert divisors.tolist() == [[2, 3, 3, 2], [4, 6, 6, 4], [2, 3, 3, 2]]  # the taps inside: last row 4 6 6 4


def test_the_reference_is_max_26_7():
    assert str(MAX_ARRAYS["max_version"]).startswith("26.7")


# -- convolution -----------------------------------------------------------------------------------

NHWC = ("NHWC", "HWIO", "NHWC")


@pytest.mark.parametrize("stride,dilation,padding,groups", [
    ((1, 1), (1, 1), (0, 0, 0, 0), 1), ((2, 1), (1, 2), (1, 0, 2, 1), 1), ((1, 2), (2, 1), (2, 2, 0, 1), 2),
])
def test_conv2d_is_lax_conv(stride, dilation, padding, groups):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 7, 6, 4)).astype(np.float32)
    w = rng.standard_normal((3, 2, 4 // groups, 6)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    out, got = _run(lambda x, w: ops.conv2d(x, w, stride, dilation, padding, groups, bias=b), x, w)
    want = jax.lax.conv_general_dilated(x, w, stride, [padding[:2], padding[2:]], rhs_dilation=dilation,
                                        feature_group_count=groups, dimension_numbers=NHWC) + b
    assert out.shape == want.shape
    np.testing.assert_allclose(got, want, **TOLERANCE)


def test_conv2d_takes_channels_first_layouts():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 3, 5, 6)).astype(np.float32)  # NCHW
    w = rng.standard_normal((4, 3, 2, 2)).astype(np.float32)  # FCRS
    b = rng.standard_normal(4).astype(np.float32)
    out, got = _run(lambda x, w: ops.conv2d(x, w, bias=b, input_layout="NCHW", filter_layout="FCRS"), x, w)
    want = jax.lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    np.testing.assert_allclose(got, want + b[:, None, None], **TOLERANCE)
    assert out.shape == (1, 4, 4, 5)


def test_conv3d_and_the_generic_conv_are_lax_conv():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 4, 5, 6, 2)).astype(np.float32)
    w = rng.standard_normal((2, 3, 2, 2, 3)).astype(np.float32)
    _, got = _run(lambda x, w: ops.conv3d(x, w, stride=(1, 2, 1), padding=(1, 0, 0, 1, 1, 1)), x, w)
    want = jax.lax.conv_general_dilated(x, w, (1, 2, 1), [(1, 0), (0, 1), (1, 1)],
                                        dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))
    np.testing.assert_allclose(got, want, **TOLERANCE)
    signal = rng.standard_normal((2, 9, 1)).astype(np.float32)
    taps = rng.standard_normal((3, 1, 1)).astype(np.float32)
    _, got = _run(lambda s, t: ops.conv(s, t, padding=1), signal, taps)
    for n in range(2):  # a convolution layer is a correlation: NumPy's convolve with the taps reversed
        np.testing.assert_allclose(got[n, :, 0], np.convolve(signal[n, :, 0], taps[::-1, 0, 0], "same"),
                                   **TOLERANCE)


def _transposed_reference(x, w, stride, dilation, crop, extra):
    """Every input element scatters ``x[i] * filter`` into the output at ``i * stride + tap * dilation``."""
    n, h, wd, _ = x.shape
    kh, kw, o, _ = w.shape
    big_h = (h - 1) * stride[0] + dilation[0] * (kh - 1) + 1 + extra[0]
    big_w = (wd - 1) * stride[1] + dilation[1] * (kw - 1) + 1 + extra[1]
    out = np.zeros((n, big_h, big_w, o))
    for i in range(h):
        for j in range(wd):
            for a in range(kh):
                for c in range(kw):
                    out[:, i * stride[0] + a * dilation[0], j * stride[1] + c * dilation[1]] += x[:, i, j] @ w[a, c].T
    return out[:, crop[0]:big_h - crop[1], crop[2]:big_w - crop[3]]


@pytest.mark.parametrize("stride,dilation,padding,output_paddings", [
    ((1, 1), (1, 1), (0, 0, 0, 0), (0, 0)), ((2, 2), (1, 1), (1, 0, 0, 1), (1, 0)),
    ((1, 3), (2, 1), (0, 0, 0, 0), (0, 2)),
])
def test_conv2d_transpose_scatters_the_filter(stride, dilation, padding, output_paddings):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 4, 2)).astype(np.float32)
    w = rng.standard_normal((3, 2, 5, 2)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    out, got = _run(lambda x, w: ops.conv2d_transpose(x, w, stride, dilation, padding, output_paddings, bias=b), x, w)
    want = _transposed_reference(x, w, stride, dilation, padding, output_paddings) + b
    assert out.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_conv_promotes_as_matmul():
    x = np.arange(9, dtype=np.int8).reshape(1, 3, 3, 1)
    w = np.ones((2, 2, 1, 1), np.float16)
    out, got = _run(lambda x: ops.conv2d(x, w), x, dtype=DType.int8)
    assert out.dtype == DType.float16 and got.ravel().tolist() == [8.0, 12.0, 20.0, 24.0]


@pytest.mark.parametrize("dtype", [lc_max.DType.bfloat16, lc_max.DType.int8])
def test_conv2d_promotes_strong_dtypes_as_max(dtype):
    """Measured on MAX 26.7: a bfloat16 or int8 input with a float32 filter gives float32."""
    device = lc_max.DeviceRef.CPU()
    with lc_max.Graph("conv", input_types=[lc_max.TensorType(dtype, [1, 3, 3, 1], device),
                                           lc_max.TensorType(lc_max.DType.float32, [2, 2, 1, 1], device)]) as g:
        assert lc_max.ops.conv2d(g.inputs[0].tensor, g.inputs[1].tensor).dtype == DType.float32


@pytest.mark.parametrize("call,message", [
    (lambda x, w: ops.conv2d(x[0], w), "must be rank 4"),
    (lambda x, w: ops.conv2d(x, w[0]), "filter for a 2-D convolution must be rank 4"),
    (lambda x, w: ops.conv2d(x, w, groups=3), "channels"),
    (lambda x, w: ops.conv2d(x, w, stride=(0, 1)), "stride"),
    (lambda x, w: ops.conv2d(x, w, padding=(1, 1)), "padding"),
    (lambda x, w: ops.conv2d(x, w, input_layout="NWHC"), "layout"),
    (lambda x, w: ops.conv2d(x, w, bias=np.ones((2, 2), np.float32)), "bias"),
    (lambda x, w: ops.conv2d(x, np.ones((9, 1, 4, 2), np.float32)), "does not fit"),
    (lambda x, w: ops.conv2d_transpose(x, np.ones((2, 2, 3, 4), np.float32), stride=(2, 2),
                                       output_paddings=(2, 0)), "output padding must be smaller"),
])
def test_conv_errors_name_the_problem(call, message):
    with Graph("conv", input_types=[TensorType(DType.float32, [1, 5, 5, 4]), TensorType(DType.float32, [2, 2, 4, 2])]) as g:
        with pytest.raises(GraphError, match=message):
            call(*g.inputs)


# -- pooling ---------------------------------------------------------------------------------------

def _pool_reference(x, kernel, stride, dilation, pad, ceil_mode, kind, count_boundary=True):
    """Each window by its taps, MAX's window count (ceil_mode keeps a last window starting in the padding)."""
    n, h, w, c = x.shape
    def windows(size, k, s, d, p):
        span = size + 2 * p - d * (k - 1) - 1
        return (-(-span // s) if ceil_mode else span // s) + 1
    oh, ow = (windows(sz, k, s, d, p) for sz, k, s, d, p in zip((h, w), kernel, stride, dilation, pad))
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            taps, count = [], 0
            for a in range(kernel[0]):
                for b in range(kernel[1]):
                    y, z = i * stride[0] - pad[0] + a * dilation[0], j * stride[1] - pad[1] + b * dilation[1]
                    inside = 0 <= y < h and 0 <= z < w
                    if inside:
                        taps.append(x[:, y, z])
                    count += 1 if count_boundary else inside  # MAX: the kernel's area, or the taps inside
            if kind == "max":  # a ceil_mode window wholly in the padding has no tap: -inf, max's identity
                out[:, i, j] = np.max(taps, 0) if taps else -np.inf
            else:  # ... and a sum of 0 over no counted tap is NaN
                out[:, i, j] = (np.sum(taps, 0) if taps else 0.0) / count if count else np.nan
    return out


@pytest.mark.parametrize("shape,kernel,stride,dilation,pad", [
    ((1, 5, 7, 2), (2, 3), (2, 2), (1, 1), (1, 1)), ((1, 6, 7, 2), (2, 2), (2, 3), (2, 2), (0, 0)),
    ((2, 9, 8, 3), (3, 3), (2, 2), (1, 1), (1, 1)),
])
@pytest.mark.parametrize("ceil_mode", [False, True])
def test_pools_match_their_windows(shape, kernel, stride, dilation, pad, ceil_mode):
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    for kind, call in [
        ("max", lambda v: ops.max_pool2d(v, kernel, stride, dilation, pad, ceil_mode)),
        ("avg", lambda v: ops.avg_pool2d(v, kernel, stride, dilation, pad, ceil_mode, True)),
        ("avg_inside", lambda v: ops.avg_pool2d(v, kernel, stride, dilation, pad, ceil_mode, False)),
    ]:
        want = _pool_reference(x, kernel, stride, dilation, pad, ceil_mode, kind[:3], kind == "avg")
        out, got = _run(call, x)
        assert out.shape == want.shape, kind
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=kind)


def test_max_pool2d_keeps_integers_and_ignores_padding():
    x = -np.arange(1, 9, dtype=np.int32).reshape(1, 2, 4, 1)
    out, got = _run(lambda v: ops.max_pool2d(v, (2, 2), stride=2, padding=1), x, dtype=DType.int32)
    assert out.dtype == DType.int32 and got.ravel().tolist() == [-1, -2, -4, -5, -6, -8]


def test_pool_errors():
    with Graph("pool", input_types=[TensorType(DType.int32, [1, 4, 4, 1]), TensorType(DType.float32, [4, 4])]) as g:
        with pytest.raises(DomainError, match="cast the input first"):
            ops.avg_pool2d(g.inputs[0], (2, 2))
        with pytest.raises(GraphError, match="rank-4 NHWC"):
            ops.max_pool2d(g.inputs[1], (2, 2))
        with pytest.raises(GraphError, match="kernel_size"):
            ops.max_pool2d(g.inputs[0], (0, 2))
        with pytest.raises(GraphError, match="does not fit"):
            ops.max_pool2d(g.inputs[0], (5, 2))


# -- norms -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [DType.float32, DType.bfloat16])
@pytest.mark.parametrize("offset,before_cast", [(0.0, False), (1.0, True)])
def test_rms_norm(dtype, offset, before_cast):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 8)).astype(dtype.np_dtype)
    w = rng.standard_normal(8).astype(np.float32)
    out, got = _run(lambda v: ops.rms_norm(v, w, 1e-6, offset, before_cast), x, dtype=dtype)
    x32 = x.astype(np.float32)
    normed = x32 / np.sqrt((x32 * x32).mean(-1, keepdims=True) + 1e-6)
    if before_cast:
        want = normed * (w + offset)
    else:
        want = normed.astype(dtype.np_dtype).astype(np.float32) * (w.astype(dtype.np_dtype).astype(np.float32) + offset)
    assert out.dtype == dtype and got.dtype == dtype.np_dtype
    np.testing.assert_allclose(got.astype(np.float32), want, rtol=1e-5 if dtype is DType.float32 else 1e-2, atol=1e-5)


def test_group_norm_normalises_each_group():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 6, 3, 2)).astype(np.float16)
    gamma, beta = rng.standard_normal(6).astype(np.float32), rng.standard_normal(6).astype(np.float32)
    out, got = _run(lambda v: ops.group_norm(v, gamma, beta, 3, 1e-5), x, dtype=DType.float16)
    groups = x.astype(np.float32).reshape(2, 3, -1)
    normed = ((groups - groups.mean(-1, keepdims=True)) / np.sqrt(groups.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    want = normed * gamma[:, None, None] + beta[:, None, None]
    assert out.dtype == DType.float16
    np.testing.assert_allclose(got.astype(np.float32), want, rtol=2e-3, atol=2e-3)


def test_norm_errors_follow_max():
    with Graph("norm", input_types=[TensorType(DType.float32, [2, 6, 4]), TensorType(DType.float32, [6])]) as g:
        x, w = g.inputs
        with pytest.raises(GraphError, match="weight shape must match the final input dimension"):
            ops.rms_norm(x, w, 1e-6)
        with pytest.raises(GraphError, match="Expected input tensor with >=2 dimensions"):
            ops.group_norm(w, w, w, 2, 1e-5)
        with pytest.raises(GraphError, match="do not divide the 6 channels"):
            ops.group_norm(x, w, w, 4, 1e-5)
        with pytest.raises(GraphError, match="one value per channel"):
            ops.group_norm(x, np.ones(4, np.float32), w, 2, 1e-5)
        with pytest.raises(GraphError, match="epsilon"):
            ops.rms_norm(x, np.ones(4, np.float32), -1.0)


# -- unary math ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,numpy_name,lo,hi", [
    ("acos", "arccos", -1, 1), ("asin", "arcsin", -1, 1), ("atan", "arctan", -5, 5), ("acosh", "arccosh", 1, 5),
    ("asinh", "arcsinh", -5, 5), ("atanh", "arctanh", -0.99, 0.99), ("cosh", "cosh", -3, 3),
    ("sinh", "sinh", -3, 3), ("tan", "tan", -1.5, 1.5), ("expm1", "expm1", -3, 3),
])
def test_unary_math_is_numpys(name, numpy_name, lo, hi):
    x = np.linspace(lo, hi, 11, dtype=np.float32)
    out, got = _run(getattr(ops, name), x)
    assert out.dtype == DType.float32
    np.testing.assert_allclose(got, getattr(np, numpy_name)(x), rtol=2e-6, atol=1e-6)
    out, _ = _run(getattr(ops, name), np.arange(2, dtype=np.int16), dtype=DType.int16)
    assert out.dtype == DType.float32  # an integer takes the policy's float, as jnp.arccos(int16) does


# -- resize ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("size,antialias", [((1, 2, 13, 5), False), ((1, 2, 5, 6), False), ((1, 2, 3, 4), True),
                                            ((1, 2, 16, 18), True)])
def test_resize_linear_is_jax_image_resize(size, antialias):
    """Half-pixel linear resizing, and its antialiased downscale, are jax.image.resize's "linear"."""
    x = np.random.default_rng(9).standard_normal((1, 2, 8, 9)).astype(np.float32)
    out, got = _run(lambda v: ops.resize_linear(v, size, antialias=antialias), x)
    assert out.shape == size and out.dtype == DType.float32
    np.testing.assert_allclose(got, jax.image.resize(x, size, "linear", antialias=antialias), rtol=1e-5, atol=1e-5)


def test_resize_nearest_picks_one_input_per_output():
    x = np.arange(12, dtype=np.int32).reshape(1, 1, 3, 4)
    out, got = _run(lambda v: ops.resize_nearest(v, [1, 1, 6, 2]), x, dtype=DType.int32)
    assert out.dtype == DType.int32  # no arithmetic: any dtype resizes
    # half-pixel rows (0.5 i - 0.25, then ceil(x - 0.5)): 0 0 1 1 2 2; columns (2 j + 0.5): 0 2
    np.testing.assert_array_equal(got[0, 0], x[0, 0][[0, 0, 1, 1, 2, 2]][:, [0, 2]])


def test_an_infinity_stays_in_its_taps():
    x = np.array([[1, 2, 3, np.inf]], np.float32)
    _, got = _run(lambda v: ops.resize_linear(v, [1, 8]), x)
    # outputs 0-4 read inputs 0-2 only; 5 and 6 weigh the infinity (the last weighs it by 0: NaN)
    np.testing.assert_allclose(got[0, :5], [1, 1.25, 1.75, 2.25, 2.75])
    assert np.isinf(got[0, 5:7]).all()


def test_resize_errors_follow_max():
    with Graph("resize", input_types=[TensorType(DType.int32, [1, 1, 2, 2]), TensorType(DType.float32, [2, 2])]) as g:
        with pytest.raises(GraphError, match="coordinate_transform_mode must be 0-3"):
            ops.resize_linear(g.inputs[1], [4, 4], 4)
        with pytest.raises(GraphError, match="round_mode must be 0-3"):
            ops.resize_nearest(g.inputs[1], [4, 4], 0, 5)
        with pytest.raises(GraphError, match="size must have the same rank as input"):
            ops.resize_nearest(g.inputs[1], [4])
        with pytest.raises(GraphError, match="requires rank-4"):
            ops.resize_bicubic(g.inputs[1], [4, 4])
        with pytest.raises(GraphError, match="must have rank 4"):
            ops.resize(g.inputs[1], [4, 4])
        with pytest.raises(DomainError, match="cast the input first"):
            ops.resize_linear(g.inputs[0], [1, 1, 4, 4])


# -- signal ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("length", [0, 1, 2, 5, 8])
@pytest.mark.parametrize("periodic", [True, False])
def test_hann_window(length, periodic):
    with Graph("hann", input_types=[]) as g:
        window = ops.hann_window(length, periodic=periodic, dtype=DType.float64)
        g.output(window)
    got = g.compile()()[0]
    span = length if periodic else length - 1
    want = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(length) / span) if length > 1 else np.ones(length)
    assert window.dtype == DType.float64 and window.shape == (length,)
    np.testing.assert_allclose(got, want, atol=1e-15)


def test_hann_window_errors_follow_max():
    with Graph("hann", input_types=[]):
        with pytest.raises(GraphError, match="window_length must be an integer"):
            ops.hann_window(2.0)
        with pytest.raises(GraphError, match="non-negative"):
            ops.hann_window(-1)


@pytest.mark.parametrize("shape,n,axis,normalization,interleaved", [
    ((5,), None, -1, "backward", False), ((3, 6), 7, -1, "ortho", False), ((6, 3), 4, 0, "forward", False),
    ((2, 5, 2), None, -1, "backward", True), ((4, 5, 2), 12, 0, "ortho", True),
])
def test_irfft_is_numpys(shape, n, axis, normalization, interleaved):
    x = np.random.default_rng(8).standard_normal(shape).astype(np.float32)
    out, got = _run(lambda v: ops.irfft(v, n, axis, normalization, interleaved), x)
    want = np.fft.irfft(x[..., 0] + 1j * x[..., 1] if interleaved else x, n, axis, normalization)
    assert out.dtype == DType.float32 and out.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_irfft_errors_follow_max():
    with Graph("irfft", input_types=[TensorType(DType.float16, [4]), TensorType(DType.float32, [4, 3])]) as g:
        with pytest.raises(GraphError, match="must be of type float32"):
            ops.irfft(g.inputs[0])
        with pytest.raises(GraphError, match="last dimension is not 2"):
            ops.irfft(g.inputs[1], input_is_complex=True)
        with pytest.raises(GraphError, match="Invalid normalization"):
            ops.irfft(g.inputs[1], normalization="both")


# -- refusals --------------------------------------------------------------------------------------

@pytest.mark.parametrize("call,why,fix", [
    (lambda: ops.custom("k", None, [], []), "Mojo kernel", "write the kernel as graph ops"),
    (lambda: ops.inplace_custom("k", None, []), "Mojo kernel", "XLA FFI handler"),
    (lambda: ops.buffer_create(None), "immutable tensors", "thread the tensor"),
    (lambda: ops.buffer_load(None), "immutable tensors", "thread the tensor"),
    (lambda: ops.buffer_store(None, None), "immutable tensors", "dynamic_update_slice"),
    (lambda: ops.buffer_store_slice(None, None, []), "immutable tensors", "dynamic_update_slice"),
    (lambda: ops.side_stream([], lambda: None, result_types=[]), "no device streams", "call body_fn"),
    (lambda: ops.qmatmul(None, None, None), "packed blocks", "ops.dequantize(encoding, w)"),
])
def test_ops_without_a_stablehlo_form_are_refused_with_the_fix(call, why, fix):
    with pytest.raises(UnsupportedOpError) as e:
        call()
    assert isinstance(e.value, LatticecastError) and isinstance(e.value, NotImplementedError)
    message = str(e.value)
    assert message.startswith("ops.") and "has no StableHLO form" in message and why in message and fix in message


def test_the_new_ops_are_latticecast_max_ops():
    for name in ["conv2d", "conv3d", "conv2d_transpose", "max_pool2d", "avg_pool2d", "rms_norm", "group_norm",
                 "acos", "atanh", "resize", "resize_nearest", "resize_linear", "resize_bicubic", "InterpolationMode", "hann_window", "irfft", "custom", "inplace_custom", "buffer_create", "buffer_load", "buffer_store",
                 "buffer_store_slice", "side_stream", "print", "qmatmul", "dequantize"]:
        assert getattr(lc_max.ops, name) is getattr(ops, name), name
        assert name in ops.__all__, name
