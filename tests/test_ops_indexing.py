"""Indexing, sorting and tiling ops (``gather``, ``scatter*``, ``top_k``, ``cumsum``, ``pad``, ``split``,
``tile``, ``range``, ...): result types, values and errors against MAX 26.7 (recorded by
``tools/record_max_indexing.py`` in ``tests/data/max_indexing.json``), and NumPy's names against NumPy.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import latticecast as lc
from latticecast import AxisError, DomainError, GraphError, LatticecastError, LiteralRangeError
from latticecast.max import DeviceRef, DType, Graph, TensorType, ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "tools"))
from max_indexing_cases import BUILDS, VALUES  # noqa: E402

with open(os.path.join(HERE, "data", "max_indexing.json")) as f:
    RECORD = json.load(f)
CASES = RECORD["cases"]

#: Where latticecast deliberately does otherwise than MAX 26.7, and why.
DIFFERENCES = {
    # MAX's strong dtypes do not promote (a ValueError from MulOp); latticecast's MAX policy refuses
    # float32 * int32 too, with its promotion error (a TypeError).
    "outer_mixed": "PromotionError",
    # MAX 26.7 raises a TypeError from its own int(Dim('nnz')); latticecast says that StableHLO needs
    # out_dim as an integer (a GraphError).
    "nonzero_symbolic": "GraphError",
}

#: Value cases where MAX 26.7's kernel gives other values than its documented meaning; latticecast
#: keeps the meaning (checked against the reference in the test below).
VALUE_DIFFERENCES = {
    # MAX's fold with padding crops the padded image at 0 instead of at the padding (PyTorch's
    # nn.Fold, whose meaning MAX documents, crops at the padding: measured with torch 2.x).
    "fold",
}


def _build(name: str, inputs: list, code: str, graph: "Graph | None" = None) -> tuple[Graph, list]:
    types = [TensorType(DType[dtype], np.shape(values), DeviceRef.CPU()) for dtype, values in inputs]
    with Graph(name, input_types=types) as g:
        out = eval(code, dict(zip("abc", g.inputs), ops=ops, np=np, DType=DType, DeviceRef=DeviceRef))
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        g.output(*outs)
    return g, outs


def test_the_record_covers_every_case() -> None:
    assert RECORD["max"] == "26.7.0"
    assert sorted(CASES) == sorted(name for name, _, _ in VALUES + BUILDS)


@pytest.mark.parametrize("name", [name for name, _, _ in VALUES + BUILDS])
def test_result_types_or_errors_match_max(name: str) -> None:
    case = CASES[name]
    if case["error"] is None and name not in DIFFERENCES:
        _, outs = _build(name, case["inputs"], case["code"])
        assert [[o.dtype.name, list(o.shape)] for o in outs] == \
            [[dtype.removeprefix("DType."), shape] for dtype, shape in case["results"]]
        return
    if name in DIFFERENCES:
        expected = getattr(lc, DIFFERENCES[name])
    else:
        expected = {"ValueError": ValueError, "IndexError": IndexError, "TypeError": TypeError,
                    "AssertionError": ValueError}[case["error"][0]]
    with pytest.raises(LatticecastError) as e:
        _build(name, case["inputs"], case["code"])
    assert isinstance(e.value, expected), (e.value, case["error"])


def test_values_match_max() -> None:
    """Every value case, compiled as one graph, gives MAX's outputs."""
    types, arrays, codes = [], [], []
    for name, inputs, code in VALUES:
        types += [TensorType(DType[dtype], np.shape(values), DeviceRef.CPU()) for dtype, values in inputs]
        arrays += [np.asarray(values, dtype=dtype) for dtype, values in inputs]
        codes.append((name, len(inputs), code))
    with Graph("indexing", input_types=types) as g:
        outputs, spans, at = [], {}, 0
        for name, n, code in codes:
            scope = dict(zip("abc", g.inputs[at:at + n]), ops=ops, np=np, DType=DType, DeviceRef=DeviceRef)
            out = eval(code, scope)
            at += n
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            spans[name] = (len(outputs), len(outputs) + len(outs))
            outputs += outs
        g.output(*outputs)
    results = g.compile()(*arrays)
    for name, (lo, hi) in spans.items():
        got = [r.tolist() for r in results[lo:hi]]
        want = CASES[name]["values"]
        if name in VALUE_DIFFERENCES:
            continue  # test_fold_with_padding_keeps_pytorchs_meaning_where_max_differs
        assert len(got) == len(want), name
        for x, y in zip(got, want):
            np.testing.assert_allclose(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64),
                                       rtol=1e-6, err_msg=name)


# -- latticecast's own: NumPy's names, errors, edges --------------------------------------------


def _run(types: list[TensorType], build, *arrays: np.ndarray, policy: str = "jax") -> list[np.ndarray]:
    with lc.Graph("t", input_types=types, policy=policy) as g:
        out = build(*g.inputs)
        g.output(*(out if isinstance(out, (list, tuple)) else [out]))
    return g.compile()(*arrays)


def test_numpy_names_match_numpy() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    x[1, 2] = x[1, 4]  # a tie
    i = np.array([[4, 0], [-1, 2], [3, 3]])
    flat = np.array([14, 0, -2, 7])
    order = np.argsort(x, axis=0, kind="stable")
    outs = _run([lc.TensorType(lc.DType.float32, x.shape)],
                lambda v: [lc.ops.take(v, flat), lc.ops.take(v, i, axis=1), lc.ops.take_along_axis(v, i, axis=1),
                           lc.ops.sort(v), lc.ops.sort(v, axis=0, descending=True), lc.ops.argsort_along(v, 0),
                           lc.ops.cumsum(v, axis=0)], x)
    np.testing.assert_array_equal(outs[0], np.take(x, flat))
    np.testing.assert_array_equal(outs[1], np.take(x, i, axis=1))
    np.testing.assert_array_equal(outs[2], np.take_along_axis(x, i, axis=1))
    np.testing.assert_array_equal(outs[3], np.sort(x))
    np.testing.assert_array_equal(outs[4], -np.sort(-x, axis=0))
    np.testing.assert_array_equal(outs[5], order)
    np.testing.assert_allclose(outs[6], np.cumsum(x, axis=0), rtol=1e-6)


def test_cumsum_accumulates_in_the_policys_sum_dtype() -> None:
    x = np.array([100, 100, 1], np.int8)
    for policy, dtype in [("jax", lc.DType.int64), ("numpy", lc.DType.int64), ("max-python", lc.DType.int8)]:
        with lc.Graph("cumsum", input_types=[lc.TensorType(lc.DType.int8, [3])], policy=policy) as g:
            r = lc.ops.cumsum(g.inputs[0])
        assert r.dtype is dtype, policy
    (wide,) = _run([lc.TensorType(lc.DType.int8, [3])], lambda v: lc.ops.cumsum(v), x, policy="numpy")
    assert wide.tolist() == np.cumsum(x).tolist() == [100, 200, 201]


def test_sort_orders_nan_last_and_top_k_first() -> None:
    x = np.array([1.0, np.nan, -np.inf, 3.0], np.float32)
    s, v, k = _run([lc.TensorType(lc.DType.float32, [4])], lambda a: [lc.ops.sort(a), *lc.ops.top_k(a, 2)], x)
    np.testing.assert_array_equal(s, np.sort(x))
    assert np.isnan(v[0]) and v[1] == 3.0 and k.tolist() == [1, 3]


def test_scatter_wraps_negative_indices_and_gather_clamps_out_of_range() -> None:
    x = np.arange(4, dtype=np.float32)
    scattered, gathered = _run([lc.TensorType(lc.DType.float32, [4])],
                               lambda v: [lc.ops.scatter(v, np.array([9.0], np.float32), np.array([-1]), 0),
                                          lc.ops.gather(v, np.array([7]), 0)], x)
    assert scattered.tolist() == [0.0, 1.0, 2.0, 9.0]
    assert gathered.tolist() == [3.0]


def test_range_counts_as_max_does_and_refuses_what_it_cannot_build() -> None:
    with lc.Graph("range", input_types=[lc.TensorType(lc.DType.int32, [])]) as g:
        assert lc.ops.range(0, 5, 2, dtype=lc.DType.int32).shape == (2,)
        assert lc.ops.range(0, 1, 0.3, dtype=lc.DType.float32).shape == (3,)
        by_value = lc.ops.range(g.inputs[0], 100, 3, out_dim=4, dtype=lc.DType.int64)
        small = lc.ops.range(-100, 100, 50, dtype=lc.DType.int8)
        for args, kwargs, error, words in [
                ((0, 5, 0), {}, GraphError, "step must not be 0"),
                ((0, 5, -1), {}, GraphError, "negative count"),
                ((0, 300, 1), {}, LiteralRangeError, "out of range for int8"),
                ((g.inputs[0], 5, 1), {}, GraphError, "need out_dim"),
                ((0, 4, 1), {"out_dim": 5}, GraphError, "not out_dim=5")]:
            with pytest.raises(error, match=words):
                lc.ops.range(*args, dtype=lc.DType.int8, **kwargs)
        g.output(by_value, small)
    assert [r.tolist() for r in g.compile()(np.int32(-2))] == [[-2, 1, 4, 7], [-100, -50, 0, 50]]
    # MAX 26.7 builds a range of 2**63 - 1 values and its compiler stops (measured); a bound that does not
    # fit the dtype is refused as MAX refuses it (ValueError: "Can't promote python int with value ...")
    with lc.Graph("huge", input_types=[]) as g:
        g.output(lc.ops.range(0, 2**63 - 1, 1, dtype=lc.DType.int64))
        with pytest.raises(ValueError, match="9223372036854775808 out of range for int64"):
            lc.ops.range(2**62, 2**63, 1, dtype=lc.DType.int64)
        with pytest.raises(GraphError, match="Dim value must be -2"):
            lc.ops.range(-(2**63), 0, 1, dtype=lc.DType.int64)
    with pytest.raises(GraphError, match="does not compile: .* more than the 4294967295"):
        g.compile()


def test_repeat_interleave_by_counts_matches_numpy_repeat() -> None:
    x = np.array([[1, 2], [3, 4], [5, 6]], np.int32)
    counts = np.array([0, 3, 1])
    (r,) = _run([lc.TensorType(lc.DType.int32, [3, 2]), lc.TensorType(lc.DType.int64, [3])],
                lambda v, c: lc.ops.repeat_interleave(v, c, axis=0, out_dim=4), x, counts)
    np.testing.assert_array_equal(r, np.repeat(x, counts, axis=0))


def test_pad_takes_numpy_pairs_and_matches_numpy_modes() -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    outs = _run([lc.TensorType(lc.DType.float32, [3, 4])],
                lambda v: [lc.ops.pad(v, [(1, 2), (0, 3)], value=-1.0), lc.ops.pad(v, [2, 1, 3, 0], "reflect"),
                           lc.ops.pad(v, [(0, 2), (1, 1)], "edge")], x)
    np.testing.assert_array_equal(outs[0], np.pad(x, [(1, 2), (0, 3)], constant_values=-1))
    np.testing.assert_array_equal(outs[1], np.pad(x, [(2, 1), (3, 0)], mode="reflect"))
    np.testing.assert_array_equal(outs[2], np.pad(x, [(0, 2), (1, 1)], mode="edge"))


def test_split_chunk_tile_match_numpy() -> None:
    x = np.arange(12, dtype=np.int16).reshape(2, 6)
    outs = _run([lc.TensorType(lc.DType.int16, [2, 6])],
                lambda v: [*lc.ops.split(v, [1, 0, 5], axis=-1), *lc.ops.chunk(v, 3, axis=1), lc.ops.tile(v, [3, 2])],
                x)
    for got, want in zip(outs, [*np.split(x, [1, 1], axis=1), *np.split(x, 3, axis=1), np.tile(x, (3, 2))]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("build, error, words", [
    (lambda v: lc.ops.gather(v, np.array([0]), axis=-3), AxisError, "axis -3 is out of range"),
    (lambda v: lc.ops.gather(v, np.array([0.0]), axis=0), GraphError, "indices must be integers"),
    (lambda v: lc.ops.top_k(v, 7), GraphError, "k=7 is out of range"),
    (lambda v: lc.ops.top_k(v, -1), GraphError, "k=-1 is out of range"),
    (lambda v: lc.ops.bottom_k(v, 1, axis=2), AxisError, "axis 2 is out of range"),
    (lambda v: lc.ops.top_k(v.cast(lc.DType.complex64), 1), DomainError, "complex values have no order"),
    (lambda v: lc.ops.argsort(v), GraphError, "argsort_along"),
    (lambda v: lc.ops.scatter(v, v.cast(lc.DType.float64), np.zeros((2, 3), np.int64)), GraphError,
     r"would promote to float64 .*updates.cast\(DType.float32\)"),
    (lambda v: lc.ops.scatter(v, v, np.zeros((2, 2), np.int64)), GraphError, "one index per update"),
    (lambda v: lc.ops.scatter(v, lc.ops.concat([v, v], 1), np.zeros((2, 6), np.int64), 0), GraphError,
     "at most its sizes"),
    (lambda v: lc.ops.scatter_nd(v, v, np.zeros((3, 1), np.int64)), GraphError, "must have shape"),
    (lambda v: lc.ops.gather_nd(v, np.zeros((2, 3), np.int64)), GraphError, "the last axis of indices"),
    (lambda v: lc.ops.take_along_axis(v, np.zeros((3, 1), np.int64), 1), GraphError, "sizes"),
    (lambda v: lc.ops.pad(v, [1, 1, 1]), GraphError, "give 4"),
    (lambda v: lc.ops.pad(v.cast(lc.DType.int32), [1, 0, 0, 0], value=2.5), LiteralRangeError, "2.5"),
    (lambda v: lc.ops.split(v, [1, -1, 2], axis=1), GraphError, r"Split sizes must be positive: sizes=\[1, -1, 2\]"),
    (lambda v: lc.ops.chunk(v, 0), GraphError, "must be positive"),
    (lambda v: lc.ops.repeat_interleave(v, lc.ops.constant(np.array([1, 2, 0]), lc.DType.int64), axis=1),
     GraphError, "need out_dim"),
    (lambda v: lc.ops.outer(v, v), GraphError, "two rank-1 values"),
    (lambda v: lc.ops.cumsum(v, axis=2), AxisError, "axis 2 is out of range"),
])
def test_errors_name_the_problem_and_the_fix(build, error, words) -> None:
    with lc.Graph("errors", input_types=[lc.TensorType(lc.DType.float32, [2, 3])]) as g:
        with pytest.raises(error, match=words):
            build(g.inputs[0])


def test_axis_error_is_an_index_error_as_in_max() -> None:
    assert issubclass(AxisError, IndexError) and issubclass(AxisError, GraphError)


def test_symbolic_axes_gather_whole_and_refuse_what_needs_a_size() -> None:
    with lc.Graph("sym", input_types=[lc.TensorType(lc.DType.float32, ["batch", 3])]) as g:
        rows = lc.ops.gather(g.inputs[0], np.array([1, 0, 1]), axis=0)
        assert rows.shape == (3, 3)
        columns = lc.ops.gather(g.inputs[0], np.array([2, 0]), axis=1)  # the symbolic axis taken whole
        assert columns.shape == ["batch", 2]
        with pytest.raises(GraphError, match="rebind"):
            lc.ops.top_k(g.inputs[0], 1, axis=0)
        padded = lc.ops.pad(g.inputs[0], [1, 0, 0, 0])
        assert padded.shape == [lc.SymbolicDim("batch") + 1, 3]  # MAX's algebraic size
        g.output(rows, columns, padded)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    r, c, p = g.compile()(x)
    assert r.tolist() == [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert c.tolist() == [[2.0, 0.0], [5.0, 3.0]] and p.tolist() == [[0.0, 0.0, 0.0], *x.tolist()]


def test_nonzero_pads_with_zeros_and_masked_scatter_writes_only_the_count() -> None:
    x = np.array([[0, 3, 0], [4, 0, 5]], np.int32)
    mask = np.array([True, False, True])  # broadcast over the rows: 4 positions, 3 updates given
    few, many, scattered = _run(
        [lc.TensorType(lc.DType.int32, [2, 3])],
        lambda v: [lc.ops.nonzero(v, 5), lc.ops.nonzero(v, 2),
                   lc.ops.masked_scatter(v, mask, np.array([7, 8, 9], np.int32), out_dim=3)], x)
    assert few.tolist() == np.argwhere(x).tolist() + [[0, 0]] * 2
    assert many.tolist() == np.argwhere(x)[:2].tolist()
    assert scattered.tolist() == [[7, 3, 8], [9, 0, 5]]
    with lc.Graph("nnz", input_types=[lc.TensorType(lc.DType.int32, [2, 3])]) as g:
        with pytest.raises(GraphError, match="out_dim must be an integer from 0 to 6"):
            lc.ops.nonzero(g.inputs[0], "nnz")
        with pytest.raises(GraphError, match="must have out_dim=2 elements"):
            lc.ops.masked_scatter(g.inputs[0], mask, np.array([7, 8, 9], np.int32), out_dim=2)


def test_shape_to_tensor_reads_symbolic_sizes_when_the_graph_runs() -> None:
    with lc.Graph("shape", input_types=[lc.TensorType(lc.DType.float32, ["batch", 3])]) as g:
        s = lc.ops.shape_to_tensor(g.inputs[0].shape)
        assert (s.dtype, s.shape) == (lc.DType.int64, (2,))
        with pytest.raises(GraphError):
            lc.ops.shape_to_tensor([2.5])
        g.output(s)
    assert g.compile()(np.zeros((4, 3), np.float32))[0].tolist() == [4, 3]


def test_scatter_converts_updates_where_the_policy_promotes_them_to_the_input_dtype() -> None:
    x = np.zeros(3, np.float32)
    (r,) = _run([lc.TensorType(lc.DType.float32, [3]), lc.TensorType(lc.DType.int32, [2])],
                lambda v, u: lc.ops.scatter_nd_add(v, u, np.array([[2], [0]])), x, np.array([5, 6], np.int32))
    assert r.dtype == np.float32 and r.tolist() == [6.0, 0.0, 5.0]
    with lc.Graph("max", input_types=[lc.TensorType(lc.DType.float32, [3]), lc.TensorType(lc.DType.int32, [2])],
                  policy="max-python") as g:
        # MAX 26.7 (measured): "The input dtype (DType.float32) and updates dtype (DType.int32) must match"
        with pytest.raises(GraphError, match=r"updates dtype \(int32\) must match. Policy 'max-python' does not "
                                             "convert a scatter's updates"):
            lc.ops.scatter_nd(g.inputs[0], g.inputs[1], np.array([[2], [0]]))
        with pytest.raises(GraphError, match=r"The input dtype 'DType.float32' and updates dtype 'DType.int32' must "
                                             r"match\."):
            lc.ops.scatter(g.inputs[0], g.inputs[1], np.array([2, 0]), axis=0)
        with pytest.raises(GraphError, match=r"Invalid indices dtype: 'DType.uint8'. Indices must be of type int32 "
                                             "or int64"):
            lc.ops.scatter_nd(g.inputs[0], g.inputs[0], np.array([[2], [0], [1]], np.uint8))


def _fold_reference(x: np.ndarray, size: tuple, kernel: tuple, stride: tuple, dilation: tuple,
                    padding: tuple) -> np.ndarray:
    """PyTorch's ``nn.Fold`` written as loops over the blocks."""
    (h, w), (kh, kw), (sh, sw), (dh, dw), (ph, pw) = size, kernel, stride, dilation, padding
    n, ckk, _ = x.shape
    c = ckk // (kh * kw)
    out = np.zeros((n, c, h + 2 * ph, w + 2 * pw), x.dtype)
    cols = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    for k in range(ckk):
        ch, i, j = k // (kh * kw), k // kw % kh, k % kw
        for block in range(x.shape[2]):
            out[:, ch, block // cols * sh + i * dh, block % cols * sw + j * dw] += x[:, k, block]
    return out[:, :, ph:ph + h, pw:pw + w]


@pytest.mark.parametrize("size, kernel, stride, dilation, padding", [
    ((4, 5), (2, 3), (1, 1), (1, 1), (0, 0)),
    ((5, 4), (3, 2), (2, 1), (1, 2), (1, 1)),
])
def test_fold_matches_a_loop_over_blocks(size, kernel, stride, dilation, padding) -> None:
    (h, w), (kh, kw), (sh, sw), (dh, dw), (ph, pw) = size, kernel, stride, dilation, padding
    blocks = ((h + 2 * ph - dh * (kh - 1) - 1) // sh + 1) * ((w + 2 * pw - dw * (kw - 1) - 1) // sw + 1)
    x = np.random.default_rng(1).standard_normal((2, 3 * kh * kw, blocks)).astype(np.float32)
    (r,) = _run([lc.TensorType(lc.DType.float32, x.shape)],
                lambda v: lc.ops.fold(v, size, kernel, stride=stride, dilation=dilation, padding=padding), x)
    np.testing.assert_allclose(r, _fold_reference(x, size, kernel, stride, dilation, padding), rtol=1e-5,
                               atol=1e-6)


def test_fold_with_padding_keeps_pytorchs_meaning_where_max_differs() -> None:
    case = CASES["fold"]
    x = np.asarray(case["inputs"][0][1], np.float32)
    (r,) = _run([lc.TensorType(lc.DType.float32, x.shape)],
                lambda v: lc.ops.fold(v, (4, 3), (2, 2), stride=(2, 1), padding=(1, 0)), x)
    np.testing.assert_array_equal(r, _fold_reference(x, (4, 3), (2, 2), (2, 1), (1, 1), (1, 0)))
    # MAX 26.7 crops the padded image at row 0 rather than at the padding
    padded = _fold_reference(x, (6, 3), (2, 2), (2, 1), (1, 1), (0, 0))
    np.testing.assert_array_equal(np.asarray(case["values"][0]), padded[:, :, :4])
    assert not np.array_equal(r, padded[:, :, :4])


def test_a_weak_value_sorts_and_pads_as_its_stored_dtype() -> None:
    with lc.Graph("weak", input_types=[lc.TensorType(lc.DType.float32, [3])]) as g:
        weak = lc.ops.broadcast_to(2, [3])  # a Python int, broadcast: weak
        assert weak.is_weak
        values, indices = lc.ops.top_k(weak, 2)
        padded = lc.ops.pad(weak, [1, 0])
        assert indices.dtype is lc.DType.int64 and not values.is_weak and not padded.is_weak
        g.output(values + g.inputs[0][:2], indices, padded)
    out = g.compile()(np.zeros(3, np.float32))
    assert [o.tolist() for o in out] == [[2.0, 2.0], [0, 1], [0, 2, 2, 2]]


def test_a_reflection_longer_than_the_axis_reflects_again_as_numpy_and_max() -> None:
    # MAX 26.7, measured: pad([1, 2, 3], [5, 4], "reflect") is NumPy's; a size-1 axis repeats its element
    for n, (lo, hi) in [(3, (5, 4)), (1, (2, 1)), (2, (3, 0))]:
        a = np.arange(1, n + 1, dtype=np.float32)
        with lc.Graph("reflect", input_types=[lc.TensorType(lc.DType.float32, [n])]) as g:
            g.output(lc.ops.pad(g.inputs[0], [lo, hi], mode="reflect"))
        assert g.compile()(a)[0].tolist() == np.pad(a, (lo, hi), "reflect").tolist()
