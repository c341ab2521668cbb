"""Differential tests: random programs built with latticecast and written again with jax.numpy / NumPy.

Hypothesis draws input dtypes, broadcastable shapes, Python literals and a sequence
of ops; the same program is built as a latticecast graph (policy ``jax`` or
``numpy``), compiled with PJRT and run, and evaluated by the real library. Output
dtypes must be identical; values identical for integers and bools, and within a
tight tolerance for floats (both run XLA / IEEE arithmetic in the same dtype).
"""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from latticecast import DomainError, DType, Graph, LiteralRangeError, PromotionError, TensorType
from latticecast import ops

JAX_DTYPES = [DType.bool, DType.int8, DType.int16, DType.int32, DType.int64, DType.uint8, DType.uint16,
              DType.uint32, DType.uint64, DType.float16, DType.bfloat16, DType.float32, DType.float64,
              DType.complex64, DType.complex128]
NUMPY_DTYPES = [d for d in JAX_DTYPES if d is not DType.bfloat16]
SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1)]

# (name, latticecast op, the same op for the library's namespace, needs)
BINARY = [
    ("add", lambda a, b: a + b, lambda m, a, b: m.add(a, b), "any"),
    ("subtract", lambda a, b: a - b, lambda m, a, b: m.subtract(a, b), "numeric"),
    ("multiply", lambda a, b: a * b, lambda m, a, b: m.multiply(a, b), "any"),
    ("divide", lambda a, b: a / b, lambda m, a, b: m.true_divide(a, b), "numeric"),
    ("floor_divide", lambda a, b: a // b, lambda m, a, b: m.floor_divide(a, b), "real"),
    ("mod", lambda a, b: a % b, lambda m, a, b: m.mod(a, b), "real"),
    ("maximum", ops.maximum, lambda m, a, b: m.maximum(a, b), "real"),
    ("minimum", ops.minimum, lambda m, a, b: m.minimum(a, b), "real"),
    ("less", lambda a, b: a < b, lambda m, a, b: m.less(a, b), "real"),
    ("equal", lambda a, b: a == b, lambda m, a, b: m.equal(a, b), "any"),
    ("bitwise_and", lambda a, b: a & b, lambda m, a, b: m.bitwise_and(a, b), "integer_or_bool"),
    ("bitwise_xor", lambda a, b: a ^ b, lambda m, a, b: m.bitwise_xor(a, b), "integer_or_bool"),
]


def _admits(needs: str, dtype: np.dtype) -> bool:
    kind = np.dtype(dtype).kind
    if dtype == ml_dtypes.bfloat16:
        kind = "f"
    return {"any": True, "numeric": kind != "b", "real": kind in "iuf",
            "integer_or_bool": kind in "iub"}[needs]


def _values(dtype: DType, shape, rng: np.random.Generator) -> np.ndarray:
    """Small non-zero values (no integer division by zero, no overflow in one op)."""
    if dtype.is_bool:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind.value == "unsigned":
        return rng.integers(1, 6, shape).astype(dtype.np_dtype)
    if dtype.is_integral():
        return (rng.integers(1, 6, shape) * rng.choice([-1, 1], shape)).astype(dtype.np_dtype)
    if dtype.is_complex:
        return (rng.uniform(0.5, 3, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype.np_dtype)
    return (rng.uniform(0.5, 3, shape) * rng.choice([-1, 1], shape)).astype(dtype.np_dtype)


@st.composite
def programs(draw, dtypes):
    n = draw(st.integers(2, 3))
    inputs = [(draw(st.sampled_from(dtypes)), draw(st.sampled_from(SHAPES))) for _ in range(n)]
    # the first step always mixes the first two inputs: mixed dtypes are what is under test
    steps = [(draw(st.integers(0, len(BINARY) - 1)), 0, ("value", 1), draw(st.booleans()))]
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.integers(0, len(BINARY) - 1))
        lhs = draw(st.integers(0, 50))
        rhs = draw(st.one_of(st.integers(0, 50).map(lambda i: ("value", i)),
                             st.sampled_from([("literal", 2), ("literal", 3), ("literal", 1.5),
                                              ("literal", -2), ("literal", True)])))
        swap = draw(st.booleans())
        steps.append((op, lhs, rhs, swap))
    seed = draw(st.integers(0, 2**16))
    return inputs, steps, seed


def _run_both(policy: str, namespace, inputs, steps, seed):
    """Build and run the program in latticecast and in the library.

    Returns, per step: its name, latticecast's dtype and result, the library's result of the whole
    program (whose dtype must be latticecast's), and the library's op applied to latticecast's own
    operands (whose values must be latticecast's). Values are compared one op at a time because
    XLA rewrites a compiled program (``(a / b) / c`` becomes ``a / (b * c)``) and a discontinuous
    op (``//``, ``%``, ``<``) turns that last-place difference into a different answer. Every value
    of the program is strongly typed (literals appear only as operands), so an array of
    latticecast's result stands for the library's value exactly.
    """
    rng = np.random.default_rng(seed)
    arrays = [_values(d, s, rng) for d, s in inputs]
    g = Graph("diff", input_types=[TensorType(d, s) for d, s in inputs], policy=policy)
    lib_vals = [namespace.asarray(a) for a in arrays]
    outs = []
    with g:
        values = list(g.inputs)
        for op, lhs, rhs, swap in steps:
            name, lc_op, lib_op, needs = BINARY[op]
            i = lhs % len(values)
            left = ("value", i)
            right = ("value", rhs[1] % len(values)) if rhs[0] == "value" else rhs
            if swap:
                left, right = right, left
            a, b = (values[k] if kind == "value" else k for kind, k in (left, right))
            la, lb = (lib_vals[k] if kind == "value" else k for kind, k in (left, right))
            if name in ("divide", "floor_divide", "mod") and np.any(np.asarray(lb) == 0):
                continue  # integer division by zero is undefined (XLA and NumPy answer differently)
            try:
                v = lc_op(a, b)
            except (PromotionError, DomainError, LiteralRangeError):
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    lv = lib_op(namespace, la, lb)
                except (TypeError, ValueError, OverflowError) as e:
                    pytest.fail(f"latticecast built {name} but the library refuses it: {e}")
            if not _admits(needs, np.dtype(lv.dtype)):
                continue
            values.append(v)
            lib_vals.append(lv)
            # the coarsest rounding of the op: its operands' dtypes and its own
            eps = max(_eps(np.dtype(lv.dtype)), *(_eps(np.dtype(lib_vals[k].dtype)) for kind, k in (left, right)
                                                  if kind == "value"))
            outs.append((name, v, lv, eps, lib_op, left, right))
        assume(outs)
        g.output(*[o[1] for o in outs])
    model = g.compile()
    got = model(*arrays)
    ours = [namespace.asarray(a) for a in arrays] + [namespace.asarray(r) for r in got]
    results = []
    for (name, v, lv, eps, lib_op, left, right), r in zip(outs, got):
        la, lb = (ours[k] if kind == "value" else k for kind, k in (left, right))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = lib_op(namespace, la, lb)
        results.append((name, v.dtype, r, lv, expected, eps))
    return results


def _eps(dtype: np.dtype) -> float:
    """The relative rounding error of an inexact dtype (0 for exact ones)."""
    kind = dtype.kind if dtype != ml_dtypes.bfloat16 else "f"
    return float(ml_dtypes.finfo(dtype).eps) if kind in "fc" else 0.0


def _compare(results):
    """Each result has the library's dtype, and the value the library's op gives on the same operands."""
    for name, dtype, got, library, expected, eps in results:
        library, expected = np.asarray(library), np.asarray(expected)
        assert got.dtype == library.dtype, f"{name}: dtype {got.dtype} but the library gives {library.dtype}"
        assert got.shape == library.shape == expected.shape, name
        kind = got.dtype.kind if got.dtype != ml_dtypes.bfloat16 else "f"
        if kind in "biu":
            np.testing.assert_array_equal(got, expected, err_msg=name)
        else:
            # a few units in the last place of the coarsest dtype of the op (complex division
            # algorithms differ)
            rtol = 32 * max(eps, float(ml_dtypes.finfo(got.dtype).eps))
            np.testing.assert_allclose(got.astype(np.complex128 if kind == "c" else np.float64),
                                       expected.astype(np.complex128 if kind == "c" else np.float64),
                                       rtol=rtol, atol=rtol, equal_nan=True, err_msg=name)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(programs(JAX_DTYPES))
# 5 // ((5 / -3) / 5): XLA computes the divisor as 5 / (-3 * 5), an ulp from jnp's op by op, so the
# floor differs by one (-15 against -16); compared op by op, latticecast's // is NumPy's
@example(program=([(DType.int8, ()), (DType.int8, ())],
                  [(3, 0, ("value", 1), False), (0, 0, ("value", 0), False), (3, 2, ("value", 0), False),
                   (4, 34, ("value", 0), True)], 0))
def test_against_jax_numpy(program):
    inputs, steps, seed = program
    with jax.enable_x64(True):
        results = _run_both("jax", jnp, inputs, steps, seed)
    _compare(results)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(programs(NUMPY_DTYPES))
def test_against_numpy(program):
    inputs, steps, seed = program
    results = _run_both("numpy", np, inputs, steps, seed)
    _compare(results)


@pytest.mark.parametrize("policy, namespace", [("jax", "jnp"), ("numpy", "np")])
def test_every_cell_end_to_end(policy, namespace):
    """Every ordered pair of dtypes, and every dtype with each kind of Python scalar, added in one
    compiled program: the dtypes and values must be the library's, cell for cell."""
    dtypes = JAX_DTYPES if policy == "jax" else NUMPY_DTYPES
    lib = jnp if namespace == "jnp" else np
    rng = np.random.default_rng(0)
    arrays = [_values(d, (2,), rng) for d in dtypes]
    g = Graph("cells", input_types=[TensorType(d, [2]) for d in dtypes], policy=policy)
    expected = []
    with g, jax.enable_x64(True):
        xs = g.inputs
        ys = [lib.asarray(a) for a in arrays]
        outs = []
        for i in range(len(dtypes)):
            for j in range(len(dtypes)):
                outs.append(xs[i] + xs[j])
                expected.append(lib.add(ys[i], ys[j]))
            for literal in (2, 1.5, 1j, True):
                if dtypes[i].is_bool and literal is True:
                    continue
                outs.append(xs[i] * literal)
                expected.append(lib.multiply(ys[i], literal))
        g.output(*outs)
    got = g.compile()(*arrays)
    _compare([(f"cell {k}", None, r, e, e, 0.0) for k, (r, e) in enumerate(zip(got, expected))])


def test_anvil_worked_example_runs():
    """The seed: f(x, y) = (x + 1L) * y with x = TRUE and y = 2L as i16 gives 4 as i16."""
    with Graph("anvil", input_types=[TensorType(DType.bool, []), TensorType(DType.int16, [])], policy="anvil") as g:
        x, y = g.inputs
        g.output((x + 1) * y)
    (out,) = g.compile()(np.bool_(True), np.int16(2))
    assert out.dtype == np.int16 and out == 4


def test_max_int16_plus_float32_runs():
    """MAX's opening question: x + y with int16 and float32 scalars is float32."""
    with Graph("max", input_types=[], policy="max") as g:
        x = g.scalar[DType.int16](1)
        y = g.scalar[DType.float32](1.0)
        g.output(x + y)
    (out,) = g.compile()()
    assert out.dtype == np.float32 and out == 2.0


def test_floor_division_and_modulo_of_negative_integers():
    with Graph("floor", input_types=[TensorType(DType.int32, [6]), TensorType(DType.int32, [6])]) as g:
        x, y = g.inputs
        g.output(x // y, x % y)
    a = np.array([-7, -7, 7, 7, -1, 0], np.int32)
    b = np.array([2, -2, 2, -2, 3, 5], np.int32)
    q, r = g.compile()(a, b)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)
