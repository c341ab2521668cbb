"""Control flow (``ops.cond``, ``ops.while_loop`` and JAX's ``lax_cond``, ``lax_while_loop``,
``fori_loop``, ``switch``): built, promoted inside their regions, refused where a region boundary
would need a promotion, compiled and run, and compared with JAX's ``lax`` (and MAX, where installed)."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jaxlib.mlir import ir

import latticecast as lc
from latticecast import DType, Graph, TensorType, ops
from latticecast.dialect_utils.parsing import parse_module
from latticecast.passes import ImplicitCastOptions
from latticecast.passes.implicit_cast import run_implicit_cast

MAX_PYTHON = "/work/venv-max/bin/python"
X16 = np.array([0.0, 1.0, 2.5, -3.0], np.float16)


def decode_loop(policy: str) -> Graph:
    """A decode loop: an int32 counter and a float16 state, weak literals in the body."""
    with Graph("decode", input_types=[TensorType(DType.float16, [4]), TensorType(DType.int32, [])],
               policy=policy) as g:
        x, steps = g.inputs
        n, h = ops.while_loop([ops.constant(0, DType.int32), x], lambda i, h: i < steps,
                              lambda i, h: [i + 1, h * 0.5 + 1])
        g.output(n, h)
    return g


def jax_decode_loop(x: np.ndarray, steps: np.int32) -> tuple[jax.Array, jax.Array]:
    return lax.while_loop(lambda c: c[0] < steps, lambda c: (c[0] + 1, c[1] * 0.5 + 1), (jnp.int32(0), x))


@pytest.mark.parametrize("policy", ["jax", "max-python"])
def test_a_decode_loop_runs_and_agrees_with_jax(policy: str) -> None:
    g = decode_loop(policy)
    assert [t.dtype for t in g.output_types] == [DType.int32, DType.float16]
    text = g.mlir()
    assert "stablehlo.while" in text and "latticecast.weak" not in text
    assert "dense<5.000000e-01> : tensor<4xf16>" in text  # the weak 0.5 is rebuilt as f16 inside the body
    assert "stablehlo.convert" not in text  # nothing is converted: every literal takes the carried dtypes
    model = g.compile()
    for steps in (0, 1, 7):
        n, h = model(X16, np.int32(steps))
        jn, jh = jax_decode_loop(X16, np.int32(steps))
        assert n.dtype == np.int32 and h.dtype == np.float16 and jh.dtype == np.float16
        assert int(n) == int(jn) == steps
        np.testing.assert_array_equal(h, np.asarray(jh))


def mixed_branches(p: bool, x: np.ndarray, k: np.ndarray, *, jax_style: bool):
    """Branches whose ops mix dtypes (float16 with int8, and with Python scalars), yielding float16."""
    then = lambda x, k: x * k + 1      # noqa: E731  f16 . i8, then a weak literal
    other = lambda x, k: x - 0.25      # noqa: E731
    if jax_style:
        return lax.cond(p, then, other, x, k)
    return ops.lax_cond(p, then, other, x, k)


def test_a_conditional_with_mixed_dtype_branches_runs_and_agrees_with_jax() -> None:
    k = np.array([1, -2, 3, 4], np.int8)
    with Graph("branches", input_types=[TensorType(DType.bool, []), TensorType(DType.float16, [4]),
                                        TensorType(DType.int8, [4])]) as g:
        g.output(mixed_branches(*g.inputs, jax_style=False))
    assert g.output_types[0].dtype is DType.float16
    model = g.compile()
    for p in (True, False):
        (got,) = model(np.bool_(p), X16, k)
        want = mixed_branches(np.bool_(p), X16, k, jax_style=True)
        assert want.dtype == got.dtype == np.float16
        np.testing.assert_array_equal(got, np.asarray(want))


def test_max_cond_with_mixed_dtype_branches_under_max_python() -> None:
    with Graph("cond", input_types=[TensorType(DType.bool, []), TensorType(DType.float16, [4]),
                                    TensorType(DType.int8, [4])], policy="max-python") as g:
        p, x, k = g.inputs
        out = ops.cond(p, [TensorType(DType.float16, [4])], lambda: x * k.cast(DType.float16) + 1, lambda: x * 2)
        g.output(*out)
    model = g.compile()
    k = np.array([1, -2, 3, 4], np.int8)
    np.testing.assert_array_equal(model(np.bool_(True), X16, k)[0], X16 * k.astype(np.float16) + 1)
    np.testing.assert_array_equal(model(np.bool_(False), X16, k)[0], X16 * 2)


@pytest.mark.parametrize("policy", ["jax", "max-python"])
def test_branches_of_different_dtypes_are_refused_as_by_max_and_jax(policy: str) -> None:
    with Graph("refused", input_types=[TensorType(DType.bool, []), TensorType(DType.float16, []),
                                       TensorType(DType.int32, [])], policy=policy) as g:
        p, x, i = g.inputs
        with pytest.raises(lc.RegionTypeError, match=r"else_fn: result 0 is int32\[\], but out_types have "
                                                     r"float16\[\].*cast it: value.cast\(DType.float16\)"):
            ops.cond(p, [TensorType(DType.float16, [])], lambda: x, lambda: i)
        with pytest.raises(lc.RegionTypeError, match="false_fun: result 0 is float64"):
            ops.lax_cond(p, lambda: x, lambda: 2.0)  # a Python float takes the policy's float: no promotion
        # a refused op leaves nothing behind: the graph still builds and runs
        g.output(ops.cond(p, [TensorType(DType.float16, [])], lambda: x, lambda: x + 1)[0])
    assert g.compile()(np.bool_(False), np.float16(1.5), np.int32(0))[0].item() == 2.5
    with pytest.raises(TypeError, match="cond branches must have equal output types"):
        lax.cond(True, lambda: jnp.float16(1), lambda: 2.0)  # JAX refuses a weak branch result too


@pytest.mark.parametrize("policy", ["jax", "max-python"])
def test_a_body_result_of_another_dtype_is_refused_as_by_max_and_jax(policy: str) -> None:
    with Graph("body", input_types=[TensorType(DType.float16, [])], policy=policy) as g:
        (x,) = g.inputs
        with pytest.raises(lc.RegionTypeError, match=r"while_loop: body: result 0 is float32\[\], but the "
                                                     r"loop-carried values have float16\[\]"):
            ops.while_loop(x, lambda h: h < 3, lambda h: h.cast(DType.float32) + 1)
        with pytest.raises(lc.RegionTypeError, match="returned 1 value"):
            ops.while_loop([x, x], lambda a, b: a < 3, lambda a, b: a)
    with pytest.raises(TypeError, match="carry input and carry output must have equal types"):
        lax.while_loop(lambda h: h < 3, lambda h: h.astype(jnp.float32) + 1, jnp.float16(0))


def test_predicates_must_be_bool_scalars() -> None:
    with Graph("pred", input_types=[TensorType(DType.int32, []), TensorType(DType.bool, [2])]) as g:
        i, v = g.inputs
        for pred, problem in ((i, r"bool scalar \(bool\[\]\), not int32\[\]"), (v, r"must be a scalar, not bool\[2\]")):
            with pytest.raises(lc.RegionTypeError, match=problem):
                ops.cond(pred, None, lambda: None, lambda: None)
        with pytest.raises(ValueError, match="the predicate must be a bool scalar"):  # MAX's ValueError too
            ops.while_loop(i, lambda n: n, lambda n: n + 1)
        with pytest.raises(lc.GraphError, match="at least one loop-carried value"):
            ops.while_loop([], lambda: True, lambda: [])
        assert ops.cond(v[0], None, lambda: None, lambda: None) == []


def test_jax_reads_a_numeric_lax_cond_predicate_as_nonzero() -> None:
    with Graph("numeric", input_types=[TensorType(DType.int32, []), TensorType(DType.float32, [])]) as g:
        n, x = g.inputs
        g.output(ops.lax_cond(n, lambda v: v + 1, lambda v: v * 10, x))
    model = g.compile()
    for n in (-2, 0, 3):
        assert model(np.int32(n), np.float32(2))[0].item() == lax.cond(n, lambda v: v + 1, lambda v: v * 10,
                                                                      np.float32(2)).item()


def test_a_weak_initial_value_takes_the_dtype_the_body_gives_it_as_in_jax() -> None:
    with Graph("weak_init", input_types=[TensorType(DType.float16, [])]) as g:
        (x,) = g.inputs
        w = ops.lax_while_loop(lambda c: c < 3, lambda c: c + x, 0.0)
        g.output(w)
    want = lax.while_loop(lambda c: c < 3, lambda c: c + jnp.float16(0.75), 0.0)
    assert w.dtype is DType.float16 and not w.is_weak and want.dtype == np.float16
    assert g.compile()(np.float16(0.75))[0].item() == want.item() == 3.0


def test_fori_loop_index_is_weak_as_in_jax() -> None:
    with jax.enable_x64(True):  # policy jax is JAX with x64: Python ints count in int64
        with Graph("fori", input_types=[TensorType(DType.int16, []), TensorType(DType.float16, [4])]) as g:
            a, x = g.inputs
            total = ops.fori_loop(0, 5, lambda i, acc: acc + i, a)   # int16 + a weak int64 index: int16
            pair = ops.fori_loop(1, 4, lambda i, c: (c[0] * 2 + i, c[1] + 1), (x, a))
            g.output(total, *pair)
        assert total.dtype is DType.int16 and [v.dtype for v in pair] == [DType.float16, DType.int16]
        got = g.compile()(np.int16(3), X16)
        want = [lax.fori_loop(0, 5, lambda i, acc: acc + i, np.int16(3)),
                *lax.fori_loop(1, 4, lambda i, c: (c[0] * 2 + i, c[1] + 1), (X16, np.int16(3)))]
    for g_value, j_value in zip(got, want):
        assert g_value.dtype == np.asarray(j_value).dtype
        np.testing.assert_array_equal(g_value, np.asarray(j_value))


def test_fori_loop_bounds_follow_jax() -> None:
    with Graph("bounds", input_types=[TensorType(DType.int8, []), TensorType(DType.int16, [])]) as g:
        lo, hi = g.inputs
        with pytest.raises(lc.RegionTypeError, match="lower is int8 and upper is int16"):
            ops.fori_loop(lo, hi, lambda i, c: c, 0)
        with pytest.raises(lc.LiteralRangeError):
            ops.fori_loop(lo, 1000, lambda i, c: c, 0)  # 1000 does not fit the int8 bound's dtype
        with pytest.raises(lc.RegionTypeError, match="upper must be an integer scalar, not 2.5"):
            ops.fori_loop(0, 2.5, lambda i, c: c, 0)


def test_switch_clamps_its_index_as_jax_does() -> None:
    branches = [lambda v: v + 1, lambda v: v * 3, lambda v: v - 100]
    with Graph("switch", input_types=[TensorType(DType.int64, []), TensorType(DType.float32, [2])]) as g:
        k, x = g.inputs
        g.output(ops.switch(k, branches, x))
    model = g.compile()
    x = np.array([1.5, -2.0], np.float32)
    for k in (-5, 0, 1, 2, 9):
        np.testing.assert_array_equal(model(np.int64(k), x)[0], np.asarray(lax.switch(k, branches, x)))


def test_region_values_do_not_leak_into_the_graph_after_the_region() -> None:
    """A weak constant made inside a branch is not reused after it (it would not dominate the use)."""
    with Graph("scoped", input_types=[TensorType(DType.bool, []), TensorType(DType.float32, [3])]) as g:
        p, x = g.inputs
        (r,) = ops.cond(p, [TensorType(DType.float32, [3])], lambda: x + 7, lambda: x)
        g.output(r + 7, x + 7)
    got = g.compile()(np.bool_(True), np.ones(3, np.float32))
    np.testing.assert_array_equal(got[0], np.full(3, 15.0, np.float32))
    np.testing.assert_array_equal(got[1], np.full(3, 8.0, np.float32))


def test_a_value_used_after_its_region_is_an_error_that_says_so() -> None:
    with Graph("leak", input_types=[TensorType(DType.float32, [])]) as g:
        (x,) = g.inputs
        inside = []
        ops.cond(x > 0, [TensorType(DType.float32, [])], lambda: inside.append(x * 3) or inside[-1], lambda: x)
        g.output(inside[0] + 1)
    with pytest.raises(lc.PassFailure, match=r"made inside a region of cond.*\(stablehlo.multiply in stablehlo.if\) is used "
                                             r"after the region \(by stablehlo.add\); return it from the branch or body"):
        g.mlir()


def test_nested_control_flow_over_a_symbolic_batch() -> None:
    with Graph("nested", input_types=[TensorType(DType.float16, ["batch", 3]), TensorType(DType.bool, [])]) as g:
        x, p = g.inputs

        def body(i, h):
            inner = ops.fori_loop(0, 2, lambda j, s: s * 0.5 + 1, h)
            (c,) = ops.cond(p, [TensorType(DType.float16, ["batch", 3])], lambda: inner + 2, lambda: inner)
            return [i + 1, c]

        g.output(ops.while_loop([ops.constant(0, DType.int32), x], lambda i, h: i < 2, body)[1])

    def reference(h: np.ndarray, p: bool) -> np.ndarray:
        for _ in range(2):
            for _ in range(2):
                h = h * np.float16(0.5) + np.float16(1)
            h = h + np.float16(2) if p else h
        return h

    model = g.compile()
    for batch, p in ((1, True), (3, False)):
        x = np.linspace(-2, 2, batch * 3).astype(np.float16).reshape(batch, 3)
        np.testing.assert_array_equal(model(x, np.bool_(p))[0], reference(x, p))


# -- the pass on IR built in Python (text with such regions does not parse) ----------------------


WHILE = """
func.func @f(%x: tensor<f16>) -> tensor<f16> {
  %init = stablehlo.constant {latticecast.weak} dense<0.0> : tensor<f16>
  %wide = stablehlo.constant {latticecast.weak} dense<0.25> : tensor<f64>
  %strong = stablehlo.constant dense<0.25> : tensor<f32>
  %r = stablehlo.while(%c = %init) : tensor<f16>
    cond {
      %lt = stablehlo.compare LT, %c, %x : (tensor<f16>, tensor<f16>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %n = stablehlo.add %c, %x : tensor<f16>
      stablehlo.return %n : tensor<f16>
    }
  return %r : tensor<f16>
}
"""


def _messages(result) -> str:
    return "\n".join(d.format() for d in result.diagnostics)


def _while_module() -> tuple[ir.Module, ir.Operation, list[ir.Operation]]:
    module = parse_module(WHILE)
    body = module.body.operations[0].regions[0].blocks[0]
    ops_ = [op.operation for op in body.operations]
    return module, ops_[3], ops_


def test_the_pass_rebuilds_a_weak_initial_value_at_the_carried_type() -> None:
    module, loop, found = _while_module()
    loop.operands[0] = found[1].results[0]  # the weak f64 0.25 as the f16 loop's initial value
    result = run_implicit_cast(module, ImplicitCastOptions(policy=lc.policy("jax")))
    assert result.ok and result.retyped_constants == 1
    module.operation.verify()
    text = str(module)
    assert "dense<2.500000e-01> : tensor<f16>" in text and "latticecast.weak" not in text


def test_the_pass_refuses_a_strong_initial_value_of_another_type() -> None:
    module, loop, found = _while_module()
    loop.operands[0] = found[2].results[0]  # a strong f32
    result = run_implicit_cast(module, ImplicitCastOptions(policy=lc.policy("jax")))
    assert not result.ok
    assert "initial value 0 has type tensor<f32>, but the loop carries tensor<f16>: no promotion crosses a " \
           "region boundary" in _messages(result)


@pytest.mark.parametrize("weak", [True, False])
def test_the_pass_refuses_a_yield_of_another_type(weak: bool) -> None:
    module, loop, found = _while_module()
    body = loop.regions[1].blocks[0]
    terminator = list(body.operations)[-1].operation
    terminator.operands[0] = found[1 if weak else 2].results[0]
    result = run_implicit_cast(module, ImplicitCastOptions(policy=lc.policy("jax")))
    assert not result.ok
    kind = "a weakly typed tensor<f64>" if weak else "tensor<f32>"
    assert f"the body of stablehlo.while yields {kind} as result 0, but stablehlo.while has tensor<f16>" \
           in _messages(result)


DYNAMIC_IF = """
func.func @f(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<?xf32>, %h: tensor<?xf16>) -> tensor<2xf32> {
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }, {
    "stablehlo.return"(%b) : (tensor<?xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""


@pytest.mark.parametrize("policy", lc.policies())
def test_a_branch_of_a_compatible_shape_passes_unchanged(policy: str) -> None:
    """StableHLO's verifier accepts a branch yielding tensor<?xf32> where the if has tensor<2xf32>: no
    promotion crosses the boundary, so the pass leaves it as it is."""
    module = parse_module(DYNAMIC_IF)
    before = str(module)
    result = run_implicit_cast(module, ImplicitCastOptions(policy=lc.policy(policy)))
    assert result.ok, _messages(result)
    assert str(module) == before


def test_a_branch_of_another_element_type_and_a_dynamic_shape_is_refused() -> None:
    module = parse_module(DYNAMIC_IF)
    func = module.body.operations[0]
    if_op = list(func.regions[0].blocks[0].operations)[0].operation
    terminator = list(if_op.regions[1].blocks[0].operations)[-1].operation
    terminator.operands[0] = func.regions[0].blocks[0].arguments[3]  # a tensor<?xf16>
    result = run_implicit_cast(module, ImplicitCastOptions(policy=lc.policy("torch")))
    assert not result.ok
    assert "the false branch of stablehlo.if yields tensor<?xf16> as result 0, but stablehlo.if has " \
           "tensor<2xf32> there: no promotion crosses a region boundary" in _messages(result)


# -- MAX itself ------------------------------------------------------------------------------------


MAX_PROGRAM = textwrap.dedent("""
    import json
    import numpy as np
    from max.driver import CPU
    from max.dtype import DType
    from max.engine import InferenceSession
    from max.graph import DeviceRef, Graph, TensorType, ops
    dev = DeviceRef.CPU()
    types = [TensorType(DType.float16, [4], device=dev), TensorType(DType.int32, [], device=dev),
             TensorType(DType.bool, [], device=dev)]
    refused = {}
    with Graph("refused", input_types=types) as g:
        x, steps, p = (v.tensor for v in g.inputs)
        for name, build in [
                ("branch", lambda: ops.cond(p, [TensorType(DType.float16, [4], device=dev)], lambda: x, lambda: steps)),
                ("body", lambda: ops.while_loop(x, lambda h: p, lambda h: h.cast(DType.float32)))]:
            try:
                build()
            except Exception as e:
                refused[name] = type(e).__name__
    with Graph("decode", input_types=types) as g:
        x, steps, p = (v.tensor for v in g.inputs)
        n, h = ops.while_loop([ops.constant(0, DType.int32, device=dev), x], lambda i, h: i < steps,
                              lambda i, h: [i + 1, h * 0.5 + 1])
        (c,) = ops.cond(p, [TensorType(DType.float16, [4], device=dev)], lambda: h * 2, lambda: h - 1)
        g.output(n, h, c)
    model = InferenceSession(devices=[CPU()]).load(g)
    out = model.execute(np.array(%r, np.float16), np.int32(%d), np.bool_(True))
    print(json.dumps({"refused": refused, "outputs": [o.to_numpy().tolist() for o in out]}))
""")


@pytest.mark.slow
def test_max_itself_agrees() -> None:
    """With MAX 26.7 in /work/venv-max: the same decode loop and conditional give MAX's outputs, and
    MAX refuses the same region mismatches (with a TypeError)."""
    if not os.path.exists(MAX_PYTHON):
        pytest.skip(f"MAX is not installed at {MAX_PYTHON}")
    steps = 5
    run = subprocess.run([MAX_PYTHON, "-c", MAX_PROGRAM % (X16.tolist(), steps)], capture_output=True,
                         text=True, timeout=1200)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["refused"] == {"branch": "TypeError", "body": "TypeError"}
    with Graph("decode", input_types=[TensorType(DType.float16, [4]), TensorType(DType.int32, []),
                                      TensorType(DType.bool, [])], policy="max-python") as g:
        x, n_steps, p = g.inputs
        n, h = ops.while_loop([ops.constant(0, DType.int32), x], lambda i, h: i < n_steps,
                              lambda i, h: [i + 1, h * 0.5 + 1])
        (c,) = ops.cond(p, [TensorType(DType.float16, [4])], lambda: h * 2, lambda: h - 1)
        g.output(n, h, c)
    got = g.compile()(X16, np.int32(steps), np.bool_(True))
    for mine, theirs in zip(got, report["outputs"]):
        np.testing.assert_array_equal(mine, np.asarray(theirs, mine.dtype))
