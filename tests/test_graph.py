"""The MAX-style graph builder: the design card, weak literals, errors, broadcasting, ops, policies."""

import numpy as np
import pytest

from latticecast import DomainError, DType, Graph, GraphError, LiteralRangeError, PromotionError, TensorType
from latticecast import ops


def _graph(*types, policy="jax", shape=(4,)):
    return Graph("t", input_types=[TensorType(d, shape) for d in types], policy=policy)


def test_design_card_graph():
    with Graph("mixed", input_types=[TensorType(DType.int16, [4]), TensorType(DType.float32, [4])],
               policy="jax") as g:
        x, y = g.inputs
        one = g.scalar[DType.int16](1)
        g.output(x * one + y - 2)
    before = g.mlir(before_passes=True)
    assert '"stablehlo.add"(%2, %arg1) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>' in before
    assert "{latticecast.weak}" in before and "tensor<4xi64>" in before
    after = g.mlir()
    assert "latticecast.weak" not in after
    assert after.count("stablehlo.convert") == 1
    assert "stablehlo.constant dense<2.000000e+00> : tensor<4xf32>" in after
    assert g.module.operation.verify()
    assert g.output_types == (TensorType(DType.float32, [4]),)


def test_scalar_spellings():
    with _graph(DType.int16) as g:
        a = g.scalar[DType.int16](1)
        b = g.scalar(1, DType.int16)
        c = g.scalar[DType.bfloat16](0.5)
        assert a.dtype is b.dtype is DType.int16 and not a.is_weak
        assert c.dtype is DType.bfloat16
        g.output(a, b, c)
    with pytest.raises(LiteralRangeError, match="300 out of range for uint8"):
        with _graph() as g:
            g.scalar[DType.uint8](300)


def test_python_scalars_are_weak():
    with _graph(DType.int8) as g:
        (x,) = g.inputs
        assert (x + 1).dtype is DType.int8
        assert (1 + x).dtype is DType.int8
        assert (x * 2.5).dtype is DType.float64  # i8 . f* = f* -> float64 under x64
        assert (x + True).dtype is DType.int8
        g.output(x + 1)


def test_literal_out_of_range_is_a_build_error():
    with _graph(DType.int8) as g:
        (x,) = g.inputs
        with pytest.raises(LiteralRangeError) as e:
            x + 1000
        assert "Unsafe cast" in str(e.value) and "1000 out of range for int8" in str(e.value)
        assert isinstance(e.value, OverflowError) and isinstance(e.value, TypeError)


def test_max_scalar_rules():
    with _graph(DType.int16, policy="max") as g:
        (x,) = g.inputs
        assert (x + 1).dtype is DType.int16
        with pytest.raises(PromotionError, match="Unsafe cast: can't promote a python float to dtype\\(i16\\)"):
            x + 1.5
    with _graph(DType.float32, policy="max") as g:
        (x,) = g.inputs
        with pytest.raises(LiteralRangeError, match="16777217.*lose precision"):
            x + 16777217


def test_policies_disagree_on_int8_plus_uint64():
    expected = {"jax": DType.float64, "max": DType.float16, "numpy": DType.float64, "jax-x32": None}
    for pol, want in expected.items():
        if pol == "jax-x32":
            continue
        with _graph(DType.int8, DType.uint64, policy=pol) as g:
            x, y = g.inputs
            z = x + y
            assert z.dtype is want, pol
            g.output(z)
        assert f"tensor<4x{want.mlir_name}>" in g.mlir()
    with _graph(DType.int8, DType.uint64, policy="array-api") as g:
        x, y = g.inputs
        with pytest.raises(PromotionError, match="\\+: no implicit promotion of i8 and u64 under policy 'array-api'"):
            x + y


def test_graph_errors():
    g = _graph(DType.int8)
    with pytest.raises(GraphError, match="has no output"):
        g.mlir()
    with pytest.raises(GraphError, match="has no output"):
        _ = g.module
    with g:
        (x,) = g.inputs
        g.output(x)
    with pytest.raises(GraphError, match="is closed"):
        x + 1
    h = _graph(DType.int8)
    with h:
        (y,) = h.inputs
        with pytest.raises(GraphError, match="cannot combine values of graphs"):
            y + g.inputs[0]
    with pytest.raises(GraphError, match="no graph is being built"):
        ops.constant(1)
    with pytest.raises(TypeError, match="no truth value"):
        with _graph(DType.int8) as k:
            if k.inputs[0] > 0:
                pass
    with pytest.raises(PromotionError, match="index is not a dtype of policy 'jax'"):
        _graph(DType.index)


def test_output_accepts_scalars_and_arrays():
    with _graph(DType.int8) as g:
        g.output(g.inputs[0], 3, 2.5, np.arange(3, dtype=np.uint16))
    assert [t.dtype for t in g.output_types] == [DType.int8, DType.int64, DType.float64, DType.uint16]
    text = g.mlir()
    assert "dense<3> : tensor<i64>" in text and "dense<[0, 1, 2]> : tensor<3xui16>" in text


def test_weak_outputs_materialise_to_the_policy_default():
    with _graph(DType.int8, policy="jax-x32") as g:
        g.output(2.5)
    assert g.output_types[0].dtype is DType.float32
    assert "tensor<f32>" in g.mlir() and "f64" not in g.mlir()


def test_constants():
    with _graph() as g:
        assert g.constant([1, 2, 3]).dtype is DType.int64
        assert g.constant([1.0, 2.0]).dtype is DType.float64
        assert g.constant(np.zeros((2, 2), np.float16)).shape == (2, 2)
        assert g.constant([1, 2], DType.uint8).dtype is DType.uint8
        with pytest.raises(LiteralRangeError, match="out of range for uint8"):
            g.constant([1, 300], DType.uint8)
        with pytest.raises(LiteralRangeError, match="non-integer"):
            g.constant([1.5], DType.int32)
        with pytest.raises(GraphError, match="ragged"):
            g.constant([[1, 2], [3]])
        assert g.constant(1.0, DType.tensor_float32 if False else DType.float32).dtype is DType.float32


def test_broadcasting():
    with Graph("b", input_types=[TensorType(DType.float32, [3, 1]), TensorType(DType.int32, [4])]) as g:
        x, y = g.inputs
        z = x + y
        assert z.shape == (3, 4) and z.dtype is DType.float32
        with pytest.raises(GraphError, match="cannot be broadcast together"):
            y + g.constant(np.zeros(5, np.float32))
        g.output(z)
    assert g.mlir().count("stablehlo.broadcast_in_dim") == 2


def test_division_follows_the_source_system():
    def quotient(policy, a=DType.int16, b=DType.int16):
        with _graph(a, b, policy=policy) as g:
            x, y = g.inputs
            q = x / y
            g.output(q)
        return q.dtype, g

    assert quotient("jax")[0] is DType.float32
    assert quotient("jax", DType.int64, DType.int64)[0] is DType.float64
    assert quotient("numpy")[0] is DType.float64
    assert quotient("torch")[0] is DType.float32
    dtype, g = quotient("jax-lax")
    assert dtype is DType.int16 and "stablehlo.divide %arg0, %arg1 : tensor<4xi16>" in g.mlir()
    with pytest.raises(DomainError, match="implementation-defined"):
        quotient("array-api")
    with _graph(DType.int16) as g:
        q = g.inputs[0] / 2  # the literal divides as a float
        assert q.dtype is DType.float32
        g.output(q)
    assert "dense<2.000000e+00> : tensor<4xf32>" in g.mlir()


def test_floor_division_and_modulo_ops():
    with _graph(DType.int32, DType.int32) as g:
        x, y = g.inputs
        g.output(x // y, x % y)
    text = g.mlir()
    assert "stablehlo.remainder" in text and "stablehlo.select" in text
    with _graph(DType.uint32, DType.uint32) as g:
        x, y = g.inputs
        g.output(x // y)
    assert "stablehlo.select" not in g.mlir()
    with _graph(DType.bool, DType.bool) as g:
        with pytest.raises(DomainError, match="//: needs real numbers"):
            g.inputs[0] // g.inputs[1]


def test_comparisons_bitwise_and_shifts():
    with _graph(DType.int8, DType.uint16) as g:
        x, y = g.inputs
        c = x < y
        assert c.dtype is DType.bool
        s = y >> 2
        t = x >> 1
        u = x << y
        g.output(c, x == y, x != 3, x & y, x | 1, x ^ y, ~x, s, t, u)
    text = g.mlir()
    assert "stablehlo.shift_right_logical" in text and "stablehlo.shift_right_arithmetic" in text
    assert "stablehlo.compare  LT" in text or "stablehlo.compare LT" in text
    with _graph(DType.int32, DType.float32) as g:
        x, y = g.inputs
        with pytest.raises(DomainError, match="&: needs integer or bool operands.*promote to f32"):
            x & y
        with pytest.raises(DomainError, match="~ is not defined for float32: it takes integer or bool operands"):
            ~y


def test_math_functions_take_integers_to_floats():
    with _graph(DType.int16, DType.float16) as g:
        x, h = g.inputs
        outs = [ops.exp(x), ops.log(h), ops.sqrt(x), ops.rsqrt(h), ops.tanh(x), ops.sin(x), ops.cos(h),
                ops.floor(h), ops.ceil(x), ops.round(h), ops.sign(x), abs(x), -h, ops.atan2(x, h),
                ops.maximum(x, h), ops.minimum(x, 3), ops.clamp(x, 0, 10), ops.where(x > 0, x, h)]
        assert outs[0].dtype is DType.float32 and outs[1].dtype is DType.float16
        assert outs[8].dtype is DType.int16  # ceil of an integer is itself
        assert outs[13].dtype is DType.float16 and outs[14].dtype is DType.float16
        g.output(*outs)
    assert g.module.operation.verify()
    with _graph(DType.int16, policy="jax-lax") as g:
        with pytest.raises(DomainError, match="exp: needs floating-point or complex operands, but its operand i16 promotes to i16 under policy 'jax-lax'"):
            ops.exp(g.inputs[0])


@pytest.mark.parametrize("policy", ["jax", "numpy", "tensorflow", "torch"])
def test_a_math_function_of_a_python_int_has_the_policys_weakness_and_runs_as_declared(policy):
    """``ops.cos(7)``: the value's dtype and weakness are the policy's decision (``tensorflow`` decides a strong
    float64; it was weak, so the pass took it to float32 while ``output_types`` said float64)."""
    from latticecast import policy as get_policy
    from latticecast.promotion.op_rules import FLOAT_FUNCTION, decide

    p = get_policy(policy)
    decision = decide(p, FLOAT_FUNCTION, [p.literals.type_of(7)])
    with Graph("cos7", input_types=[], policy=policy) as g:
        c = ops.cos(7)
        assert (c.dtype, c.is_weak) == (decision.result, decision.result_weak)
        g.output(c)
    (out,) = g.compile()()
    assert out.dtype == g.output_types[0].dtype.np_dtype and np.isclose(out, np.cos(7))


def test_complex_abs_is_real():
    with _graph(DType.complex64) as g:
        a = abs(g.inputs[0])
        assert a.dtype is DType.float32
        g.output(a)


def test_shapes_reductions_matmul():
    """MAX's meanings (these changed when the builder took MAX's names: transpose swaps two axes, the
    reductions keep one axis); the NumPy-style reductions are ops.reduce_*."""
    with Graph("s", input_types=[TensorType(DType.int8, [2, 3]), TensorType(DType.float32, [3, 4])]) as g:
        x, w = g.inputs
        r = x.reshape([3, 2]).reshape([-1])
        assert r.shape == (6,)
        assert x.T.shape == (3, 2) and ops.transpose(x, 0, 1).shape == (3, 2) and x.permute([1, 0]).shape == (3, 2)
        assert x.broadcast_to([4, 2, 3]).shape == (4, 2, 3)
        s = ops.reduce_sum(x)
        assert s.dtype is DType.int64 and s.shape == ()  # small integers sum in the default int
        assert x.sum().shape == (2, 1) and x.sum(axis=0).shape == (1, 3)
        assert ops.reduce_sum(x, axis=1, keepdims=True).shape == (2, 1)
        assert x.max(axis=0).shape == (1, 3) and x.min().dtype is DType.int8 and x.min().shape == (2, 1)
        assert ops.reduce_max(x, axis=0).shape == (3,) and ops.reduce_min(x).shape == ()
        m = x.mean(axis=1)
        assert m.dtype is DType.float64 and m.shape == (2, 1)
        assert ops.reduce_mean(x, axis=1).shape == (2,)
        p = x @ w
        assert p.dtype is DType.float32 and p.shape == (2, 4)
        with pytest.raises(GraphError, match="do not align"):
            w @ w
        with pytest.raises(GraphError, match="cannot reshape"):
            x.reshape([4, 2])
        with pytest.raises(GraphError, match="out of range"):
            x.sum(axis=2)
        g.output(r, s, m, p)
    assert g.module.operation.verify()


def test_model_types_are_the_graph_types():
    g = Graph("f", lambda x, y: x + y, input_types=[TensorType(DType.int16, [4]), TensorType(DType.float32, [4])])
    model = g.compile()
    assert model.input_types == g.input_types and model.output_types == g.output_types


def test_forward_callable():
    g = Graph("f", input_types=[TensorType(DType.int16, [4]), TensorType(DType.float32, [4])],
              forward=lambda x, y: (x + y, x * 2))
    assert [t.dtype for t in g.output_types] == [DType.float32, DType.int16]


def test_max_dtypes_are_lowered():
    with Graph("m", input_types=[TensorType(DType.index, [4]), TensorType(DType.uint8, [4]),
                     TensorType(DType.tensor_float32, [4]), TensorType(DType.float64, [4])], policy="max") as g:
        i, u, t, f = g.inputs
        assert (i + u).dtype is DType.uint64 and (i + i).dtype is DType.index
        assert (t * f).dtype is DType.float64 and (t * t).dtype is DType.tensor_float32
        g.output(i + u, i + i, t * f, t * t, g.constant([1, 2, 3, 4], DType.address))
    text = g.mlir()
    assert "index" not in text and "tf32" not in text and "address" not in text
    assert "stablehlo.reduce_precision" in text and "tensor<4xui64>" in text


def test_anvil_worked_example_graph():
    with Graph("anvil", input_types=[TensorType(DType.bool, []), TensorType(DType.int16, [])], policy="anvil") as g:
        x, y = g.inputs
        z = x + 1
        assert z.is_weak and z.dtype is DType.int32  # i32?
        out = z * y
        assert out.dtype is DType.int16 and not out.is_weak
        g.output(out)
    assert "-> tensor<i16>" in g.mlir()


def test_debug_locations_name_the_source_line():
    with Graph("loc", input_types=[TensorType(DType.int8, [2])], debug_locations=True) as g:
        g.output(g.inputs[0] + 1.5)
    assert "test_graph.py" in g.mlir(before_passes=True, debug_info=True)


def test_repr_and_str():
    with _graph(DType.int8) as g:
        v = g.inputs[0] + 1
        assert "int8[4]" in repr(v)
        assert "stablehlo.add" in str(g)
        g.output(v)
    assert "policy=jax closed" in repr(g)


# -- the policy object travels; the current graph is per task --------------------------------------


def test_an_unregistered_policy_object_works_end_to_end() -> None:
    """A Graph hands its Policy object to the pass: no name is looked up again, so a subclass that is
    not registered (or that reuses the name "jax" with other edges) decides both build and pass."""
    from latticecast.policies.jax import JaxPolicy

    class WiderJax(JaxPolicy):
        name = "jax"  # the same name as the registered policy, different edges
        @property
        def edges(self):  # type: ignore[override]
            edges = dict(super().edges)
            edges[DType.uint8] = [DType.int32, DType.uint16]  # u8 skips i16
            return edges

    pol = WiderJax()
    assert pol.promote_types(DType.int8, DType.uint8) is DType.int32
    with Graph("t", input_types=[TensorType(DType.int8, [4]), TensorType(DType.uint8, [4])], policy=pol) as g:
        x, y = g.inputs
        assert (x + y).dtype is DType.int32
        g.output(x + y)
    assert "tensor<4xi32>" in g.mlir() and g.module.operation.verify()
    (out,) = g.compile()(np.array([-1, 2, 3, 4], np.int8), np.array([255, 1, 2, 3], np.uint8))
    np.testing.assert_array_equal(out, np.array([254, 3, 5, 7], np.int32))


def test_the_current_graph_is_isolated_per_asyncio_task() -> None:
    import asyncio

    async def build(name: str, dtype: DType) -> Graph:
        with Graph(name, input_types=[TensorType(dtype, [2])]) as g:
            await asyncio.sleep(0)  # let the other task enter its own graph meanwhile
            assert Graph.current is g
            g.output(ops.constant(np.ones(2, dtype.np_dtype)) + g.inputs[0])
        return g

    async def both() -> list[Graph]:
        return await asyncio.gather(build("a", DType.int8), build("b", DType.float32))

    a, b = asyncio.run(both())
    assert a.output_types[0].dtype is DType.int8 and b.output_types[0].dtype is DType.float32
    with pytest.raises(GraphError, match="no graph is being built"):
        Graph.current


def test_out_of_order_exits_restore_the_graph_that_was_current() -> None:
    g1, g2 = Graph("one"), Graph("two")
    g1.__enter__()
    g2.__enter__()
    g1.__exit__(None, None, None)  # out of order: g2 is still current
    assert Graph.current is g2
    g2.__exit__(None, None, None)  # g1 was left already: nothing is current now
    with pytest.raises(GraphError, match="no graph is being built"):
        Graph.current
    g1.__exit__(None, None, None)  # leaving a graph twice is harmless


def test_a_literal_is_one_constant_however_often_it_is_written() -> None:
    """The builder makes one weak constant per (literal, type, shape), and the pass re-types it
    once per type it meets: ``x - 1`` a thousand times is not a thousand constants."""
    with Graph("lits", input_types=[TensorType(DType.int8, [4]), TensorType(DType.float32, [4])]) as g:
        x, y = g.inputs
        a, b = x, y
        for _ in range(50):
            a, b = a - 1, b - 1
        g.output(a, b)
    before = g.mlir(before_passes=True)
    assert before.count('"stablehlo.constant"') == 1 and before.count("{latticecast.weak}") == 1
    after = g.mlir()
    assert after.count("stablehlo.constant") == 2  # one int8 and one float32 constant
    out_a, out_b = g.compile()(np.full(4, 60, np.int8), np.zeros(4, np.float32))
    np.testing.assert_array_equal(out_a, np.full(4, 10, np.int8))
    np.testing.assert_array_equal(out_b, np.full(4, -50, np.float32))


def test_a_literal_operand_is_reused_per_op_side_type_and_shape_and_a_refusal_each_time() -> None:
    """What the builder made of a literal operand is reused only for the same op, side, other operand's
    type and shape; a refusal is no answer it remembers: the same literal is refused again."""
    with Graph("memo", input_types=[TensorType(DType.uint8, [2]), TensorType(DType.int8, [2]),
                                     TensorType(DType.uint8, [3])]) as g:
        u, i, w = g.inputs
        for _ in range(2):
            with pytest.raises(LiteralRangeError, match="300 out of range for uint8"):
                u + 300
        outs = (u - 1, 1 - u, i - 1, w - 1, u - 1, 1 - u, u + 255)
        assert [o.dtype for o in outs] == [DType.uint8, DType.uint8, DType.int8, DType.uint8, DType.uint8,
                                           DType.uint8, DType.uint8]
        assert [o.shape for o in outs] == [[2], [2], [2], [3], [2], [2], [2]]
        g.output(*outs)
    got = g.compile()(np.array([5, 6], np.uint8), np.array([-1, 2], np.int8), np.array([1, 2, 3], np.uint8))
    expected = [[4, 5], [252, 251], [-2, 1], [0, 1, 2], [4, 5], [252, 251], [4, 5]]
    for out, want in zip(got, expected):
        np.testing.assert_array_equal(out, want)


def test_values_found_to_have_equal_shapes_still_hand_out_their_own() -> None:
    """The builder lets values of equal shapes share one shape object; each ``.shape`` is still a fresh
    copy, so changing one changes no value."""
    with Graph("shapes", input_types=[TensorType(DType.float32, [3]), TensorType(DType.float32, [3])]) as g:
        x, y = g.inputs
        z = x + y
        s = z.shape
        s[0] = 7
        t = y.shape
        t.append(2)
        assert x.shape == y.shape == z.shape == (y + 1).shape == (x * z).shape == [3]
        assert (s, t) == ([7], [3, 2])
        g.output(z)


def test_literals_python_calls_equal_stay_apart() -> None:
    """``0.0 == -0.0`` and ``1 == 1.0 == True`` in Python, but they are different literals."""
    with Graph("apart", input_types=[TensorType(DType.float32, [2]), TensorType(DType.int32, [2])]) as g:
        f, i = g.inputs
        g.output(f * 0.0, f * -0.0, i + 1, i + 1.0, i + True, f + float("nan"), f - float("nan"))
    outs = g.compile()(np.array([1.0, -1.0], np.float32), np.array([1, 2], np.int32))
    np.testing.assert_array_equal(np.signbit(outs[0]), [False, True])
    np.testing.assert_array_equal(np.signbit(outs[1]), [True, False])
    assert [o.dtype for o in outs[2:5]] == [np.int32, np.float64, np.int32]  # jax: i32 + 1.0 is f64 (x64)
    np.testing.assert_array_equal(outs[2], [2, 3])
    np.testing.assert_array_equal(outs[4], [2, 3])
    assert np.isnan(outs[5]).all() and np.isnan(outs[6]).all()


def test_graph_lowers_max_dtypes_it_only_passes_through() -> None:
    """The pass lowers index/tf32 only where StableHLO cannot hold them, which leaves foreign IR's
    shape computations alone; a graph's own module is all latticecast's, so an index or tf32 input
    returned as it is is lowered too (ui64; f32 rounded to TF32) and the graph runs."""
    with Graph("passthrough", input_types=[TensorType(DType.index, [3]), TensorType(DType.tensor_float32, [2])],
               policy="max") as g:
        i, t = g.inputs
        g.output(i, t)
    text = g.mlir()
    assert "index" not in text and "tf32" not in text and "reduce_precision" in text
    out_i, out_t = g.compile()(np.array([1, 2, 3], np.uint64), np.array([1.0, 1.0 + 2.0**-20], np.float32))
    np.testing.assert_array_equal(out_i, [1, 2, 3])
    np.testing.assert_array_equal(out_t, [1.0, 1.0])
