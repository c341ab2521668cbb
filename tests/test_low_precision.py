"""float8, float6, float4 and int1..uint4 through every layer: builder, pass, runtime, against JAX.

Programs mixing the low-precision dtypes with the classic ones are built with the
graph builder under policy ``jax``, legalised by ``implicit-cast``, compiled with
PJRT and run; the same programs run in ``jax.numpy``. Dtypes and values must agree
bit for bit (both execute XLA:CPU's arithmetic; the point is that latticecast
promotes, converts and builds constants exactly as JAX does). Conversions are also
checked against a second oracle independent of XLA, the StableHLO reference
interpreter, and against ml_dtypes where the three agree; where XLA and ml_dtypes
disagree (out-of-range float -> integer), the runtime gives XLA's answer.
"""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jax_oracle import jax_promote
from latticecast import DomainError, DType, Graph, LiteralRangeError, PromotionError, TensorType, ops, policy
from latticecast.promotion.dtypes import NoStableHLOTypeError
from latticecast.runtime import PJRT_DTYPES
from latticecast.runtime.signature import platform_problem
from stablehlo_interpreter import convert_with_interpreter, widened

JAX = policy("jax")
RUNNABLE = [d for d in JAX.dtypes if d in PJRT_DTYPES and platform_problem(d, "cpu") is None]
"""Every JAX dtype XLA:CPU runs (float6 does not; int1/uint1 have no StableHLO type)."""
LOW = [d for d in RUNNABLE if d.is_low_precision]
CLASSIC = [d for d in RUNNABLE if not d.is_low_precision]


def _values(d: DType, n: int, rng: np.random.Generator) -> np.ndarray:
    """Small values of ``d``: some of them overflow a narrow type when combined, which is the point
    (XLA's arithmetic is the same in both programs)."""
    if d.is_bool:
        return rng.integers(0, 2, n).astype(bool)
    if d.is_integral():
        return rng.integers(max(int(d.min_value), -6), min(int(d.max_value), 6) + 1, n).astype(d.np_dtype)
    if not d.has_zero:  # float8_e8m0fnu: powers of two only
        return (2.0 ** rng.integers(-3, 4, n)).astype(d.np_dtype)
    if d.is_complex:
        return (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(d.np_dtype)
    return rng.uniform(-4, 4, n).astype(d.np_dtype)


def _bits(a) -> np.ndarray:
    a = np.ascontiguousarray(np.asarray(a))
    return a.view(np.uint8)


def _assert_same(name: str, got: np.ndarray, expected) -> None:
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"{name}: dtype {got.dtype}, JAX gives {expected.dtype}"
    assert got.shape == expected.shape, name
    np.testing.assert_array_equal(_bits(got), _bits(expected), err_msg=f"{name}: {got} != {expected}")


@pytest.fixture(autouse=True)
def _x64():
    with jax.enable_x64(True):
        yield


# ---------------------------------------------------------------- every pair, end to end


LITERALS = (2, -1, 1.5, True, 1j)


@pytest.mark.parametrize("low", LOW, ids=str)
def test_every_pair_with_a_low_precision_dtype_runs_as_in_jax(low):
    """``low + d`` and ``d + low`` for every runnable JAX dtype ``d``, and ``low * literal``: where
    latticecast refuses, JAX refuses; where it builds, the compiled result is JAX's, bit for bit."""
    rng = np.random.default_rng(abs(hash(low.name)) % 2**32)
    dtypes = [low, *RUNNABLE]
    arrays = [_values(d, 4, rng) for d in dtypes]
    graph_outs, lib_fns, refused, literal_refused = [], [], 0, 0
    g = Graph("pairs", input_types=[TensorType(d, [4]) for d in dtypes], policy="jax")
    with g:
        x, *others = g.inputs
        for j, d in enumerate(RUNNABLE):
            for swap in (False, True):
                a, b = (others[j], x) if swap else (x, others[j])
                try:
                    out = a + b
                except PromotionError:
                    assert jax_promote(jnp.add, *((d, low) if swap else (low, d))) is None, (low, d)
                    refused += 1
                    continue
                graph_outs.append(out)
                lib_fns.append(lambda xs, j=j, swap=swap: jnp.add(xs[j + 1], xs[0]) if swap
                               else jnp.add(xs[0], xs[j + 1]))
        for lit in LITERALS:
            try:
                out = x * lit
            except LiteralRangeError:
                literal_refused += 1  # e8m0 has no -1: JAX silently makes it NaN (tested below)
                continue
            except PromotionError:
                assert jax_promote(jnp.multiply, low, JAX.literals.type_of(lit)) is None
                continue
            graph_outs.append(out)
            lib_fns.append(lambda xs, lit=lit: jnp.multiply(xs[0], lit))
        g.output(*graph_outs)
    got = g.compile()(*arrays)
    expected = jax.jit(lambda *xs: [f(xs) for f in lib_fns])(*arrays)
    assert len(got) == len(expected) and refused > 0
    for k, (r, e) in enumerate(zip(got, expected)):
        _assert_same(f"{low} output {k}", r, e)


# ---------------------------------------------------------------- random programs


BINARY = [("add", lambda a, b: a + b, jnp.add), ("subtract", lambda a, b: a - b, jnp.subtract),
          ("multiply", lambda a, b: a * b, jnp.multiply), ("maximum", ops.maximum, jnp.maximum),
          ("minimum", ops.minimum, jnp.minimum), ("less", lambda a, b: a < b, jnp.less),
          ("equal", lambda a, b: a == b, jnp.equal)]


@st.composite
def programs(draw):
    n = draw(st.integers(2, 4))
    # at least one low-precision input: mixing them with classic dtypes is what is under test
    inputs = [draw(st.sampled_from(LOW))] + [draw(st.sampled_from(RUNNABLE)) for _ in range(n - 1)]
    steps = []
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.integers(0, len(BINARY) - 1))
        lhs = draw(st.integers(0, 40))
        rhs = draw(st.one_of(st.integers(0, 40).map(lambda i: ("value", i)),
                             st.sampled_from([("literal", 2), ("literal", 3), ("literal", 0.5),
                                              ("literal", -1), ("literal", True)])))
        steps.append((op, lhs, rhs, draw(st.booleans())))
    return inputs, steps, draw(st.integers(0, 2**16))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(programs())
def test_random_mixed_programs_match_jax_bit_for_bit(program):
    inputs, steps, seed = program
    rng = np.random.default_rng(seed)
    arrays = [_values(d, 3, rng) for d in inputs]
    g = Graph("mixed", input_types=[TensorType(d, [3]) for d in inputs], policy="jax")
    chain: list[tuple[int, object, int]] = []  # how each value is made: (op, lhs index, rhs index or literal)
    outs = []
    with g:
        values = list(g.inputs)
        for op, lhs, rhs, swap in steps:
            i = lhs % len(values)
            b = values[rhs[1] % len(values)] if rhs[0] == "value" else rhs[1]
            operands = (b, values[i]) if swap else (values[i], b)
            try:
                v = BINARY[op][1](*operands)
            except (PromotionError, DomainError, LiteralRangeError):
                continue
            ref_b = ("v", rhs[1] % len(values)) if rhs[0] == "value" else ("lit", rhs[1])
            chain.append((op, i, ref_b, swap))
            values.append(v)
            outs.append(v)
        assume(outs)
        g.output(*outs)
    got = g.compile()(*arrays)

    def reference(*xs):
        vals = list(xs)
        for op, i, (kind, b), swap in chain:
            other = vals[b] if kind == "v" else b
            a, c = (other, vals[i]) if swap else (vals[i], other)
            vals.append(BINARY[op][2](a, c))
        return vals[len(xs):]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = jax.jit(reference)(*arrays)
    for k, (r, e) in enumerate(zip(got, expected)):
        _assert_same(f"{BINARY[chain[k][0]][0]} (step {k})", r, e)


# ---------------------------------------------------------------- conversions


PROBES = np.array([0.0, -0.0, 0.5, 1.5, 2.5, -3.7, 7.0, 8.0, 15.0, 448.0, 449.0, 464.0, 1000.0, 57344.0, 61440.0,
                   1e6, -1e6, 1e-3, 2.0 ** -10, np.inf, -np.inf, np.nan], np.float32)


def _convert_program(source: DType, target: DType, n: int):
    with Graph("convert", input_types=[TensorType(source, [n])], policy="jax") as g:
        (x,) = g.inputs
        g.output(x.cast(target))
    return g.compile()


@pytest.mark.parametrize("target", [d for d in RUNNABLE if not d.is_complex], ids=str)
def test_casts_from_float32_are_jax_astype(target):
    """``x.cast(T)`` is ``stablehlo.convert``, as ``jnp.astype`` is: the same bits for every probe
    (overflow, infinities, NaN, rounding ties) and every runnable real target."""
    got = _convert_program(DType.float32, target, PROBES.size)(PROBES)[0]
    _assert_same(f"float32 -> {target}", got, jax.jit(lambda v: v.astype(target.np_dtype))(PROBES))


@pytest.mark.parametrize("source", LOW, ids=str)
def test_casts_between_low_precision_and_classic_types_are_jax_astype(source):
    """One program per source: its cast to every other runnable dtype, both ways round."""
    rng = np.random.default_rng(7)
    targets = [t for t in RUNNABLE if not t.is_complex and t is not source]
    values = _values(source, 8, rng)
    backs = [_values(t, 8, rng) for t in targets]
    with Graph("casts", input_types=[TensorType(source, [8])] + [TensorType(t, [8]) for t in targets]) as g:
        x, *ys = g.inputs
        g.output(*[x.cast(t) for t in targets], *[y.cast(source) for y in ys])
    got = g.compile()(values, *backs)
    expected = jax.jit(lambda v, *ws: [v.astype(t.np_dtype) for t in targets] +
                       [w.astype(source.np_dtype) for w in ws])(values, *backs)
    names = [f"{source} -> {t}" for t in targets] + [f"{t} -> {source}" for t in targets]
    for name, r, e in zip(names, got, expected):
        _assert_same(name, r, e)


FLOAT_TO_NARROW_INT = [
    # (target, input, XLA (saturates, NaN -> 0), ml_dtypes' astype (truncates, then wraps))
    (DType.int4, 8.0, 7, -8), (DType.int4, 1000.0, 7, -8), (DType.int4, np.inf, 7, 0),
    (DType.uint4, -1.0, 0, 15), (DType.int2, 2.5, 1, -2), (DType.uint2, 7.0, 3, 3),
    (DType.int8, -1000.0, -128, 24), (DType.int4, np.nan, 0, 0),
]


@pytest.mark.parametrize("target, value, xla, ml", FLOAT_TO_NARROW_INT,
                         ids=[f"{t}-{v}" for t, v, _, _ in FLOAT_TO_NARROW_INT])
def test_out_of_range_float_to_int_saturates_as_xla_does_not_as_ml_dtypes(target, value, xla, ml):
    """The documented choice: the runtime converts with XLA, which saturates out-of-range floats
    (NaN gives 0); ml_dtypes' ``astype`` truncates and wraps. The reference interpreter agrees with
    XLA. latticecast itself never converts an out-of-range value on the host (constants and inputs
    that do not fit are refused), so XLA's is the only answer a program can see."""
    x = np.array([value], np.float32)
    (got,) = _convert_program(DType.float32, target, 1)(x)
    assert got.dtype == target.np_dtype and int(got[0]) == xla
    assert int(convert_with_interpreter(x, DType.float32, target)[0]) == xla
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert int(x.astype(target.np_dtype)[0]) == ml


INTERPRETER_GAPS = {
    # where the reference interpreter departs from XLA and ml_dtypes (measured: research report (e))
    "float4/float6 inf and NaN": lambda t, v: t.overflow == "max" and not np.isfinite(v),
    "float8_e8m0fnu at or below 0, infinities and NaN (XLA and ml_dtypes give NaN; it takes the magnitude's "
    "exponent or gives inf)": lambda t, v: t is DType.float8_e8m0fnu and not (v > 0 and np.isfinite(v)),
}


@pytest.mark.parametrize("target", [d for d in JAX.dtypes if d.is_low_precision and d.in_stablehlo], ids=str)
def test_conversions_agree_with_the_reference_interpreter(target):
    """Independent of XLA: the StableHLO interpreter converts every probe as the runtime does (float6
    included, which only the interpreter runs: there ml_dtypes is the comparison), except in the
    interpreter's two documented gaps."""
    interp = convert_with_interpreter(PROBES, DType.float32, target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if platform_problem(target, "cpu") is None:
            reference = _convert_program(DType.float32, target, PROBES.size)(PROBES)[0]
        else:
            reference = PROBES.astype(target.np_dtype)
    reference = reference.astype(widened(target).np_dtype) if target.is_float() else reference.astype(np.int64)
    compared = 0
    for v, a, b in zip(PROBES, interp, reference):
        if any(gap(target, float(v)) for gap in INTERPRETER_GAPS.values()):
            continue
        if target.is_float():
            assert (np.isnan(a) and np.isnan(b)) or a == b, (target, v, a, b)
        else:
            assert int(a) == int(b), (target, v, a, b)
        compared += 1
    assert compared >= PROBES.size - 7


def test_float_conversions_agree_with_ml_dtypes_bit_for_bit():
    """Within range XLA, ml_dtypes and the interpreter agree: every float8 and float4 value round-trips."""
    for target in LOW:
        if not target.is_float():
            continue
        every = np.arange(256, dtype=np.uint8).view(target.np_dtype) if target.itemsize == 1 else None
        values = every.astype(np.float32)
        got = _convert_program(DType.float32, target, values.size)(values)[0]
        expected = values.astype(target.np_dtype)
        finite = np.isfinite(values)
        np.testing.assert_array_equal(_bits(got)[finite], _bits(expected)[finite], err_msg=str(target))


# ---------------------------------------------------------------- literals, zero, and the IR boundary


def test_a_literal_a_float8_cannot_hold_is_an_error_on_its_line():
    with Graph("lit", input_types=[TensorType(DType.float8_e4m3fn, [2])]) as g:
        (x,) = g.inputs
        with pytest.raises(LiteralRangeError, match=r"1000 out of range for float8_e4m3fn \(largest finite 448\)"):
            x + 1000
        with pytest.raises(LiteralRangeError, match="float8_e4m3fn: it has no infinities"):
            x + float("inf")
        g.output(x + 448)


def test_e8m0_has_no_zero_refused_where_jax_makes_nan():
    """The decision: JAX turns 0 (and -1) into NaN silently for float8_e8m0fnu; latticecast refuses the
    literal, as it refuses every literal the dtype cannot hold."""
    e8m0 = DType.float8_e8m0fnu
    x = np.ones(2, e8m0.np_dtype)
    assert np.isnan(np.asarray(jax.jit(lambda v: v + 0)(x)).astype(np.float32)).all()
    assert np.isnan(np.asarray(jnp.zeros(2, e8m0.np_dtype)).astype(np.float32)).all()
    with Graph("e8m0", input_types=[TensorType(e8m0, [2])]) as g:
        (v,) = g.inputs
        for bad in (0, 0.0, -1):
            with pytest.raises(LiteralRangeError, match="it has no zero and no negative values .*NaN"):
                v + bad
        with pytest.raises(Exception, match="has no zero"):
            ops.sum(v)
        g.output(v * 2)
    (out,) = g.compile()(x)
    assert out.dtype == e8m0.np_dtype and (out.astype(np.float32) == 2).all()


def test_reductions_without_infinities_start_at_the_finite_extremes():
    """max over float8_e4m3fn starts at -448, as in JAX (-inf would be NaN there)."""
    a = np.array([-3.0, -1.0, -448.0], np.float32).astype(ml_dtypes.float8_e4m3fn)
    with Graph("red", input_types=[TensorType(DType.float8_e4m3fn, [3])]) as g:
        (x,) = g.inputs
        g.output(ops.reduce_max(x), ops.reduce_min(x), ops.max(x), ops.min(x))
    hi, lo, kept_hi, kept_lo = g.compile()(a)
    _assert_same("reduce_max", hi, jnp.max(a))
    _assert_same("reduce_min", lo, jnp.min(a))
    _assert_same("max", kept_hi, jnp.max(a, axis=-1, keepdims=True))  # MAX's: one axis, kept
    _assert_same("min", kept_lo, jnp.min(a, axis=-1, keepdims=True))


@pytest.mark.parametrize("dtype", [DType.float4_e2m1fn, DType.float8_e4m3fn], ids=str)
def test_max_style_extremes_of_floats_without_nan_or_inf(dtype):
    """MAX's max/min/argmax skip NaN, starting from NaN; float4 has none, so they start at its finite
    extremes instead (and float8_e4m3fn, which has NaN, still skips it)."""
    a = np.array([[-3.0, 1.0, -6.0], [2.0, 0.5, -1.0]], np.float32).astype(dtype.np_dtype)
    with Graph("red", input_types=[TensorType(dtype, [2, 3])]) as g:
        (x,) = g.inputs
        g.output(ops.max(x), ops.min(x), ops.argmax(x), ops.argmin(x))
    hi, lo, arg_hi, arg_lo = g.compile()(a)
    f = a.astype(np.float32)
    np.testing.assert_array_equal(hi.astype(np.float32), f.max(-1, keepdims=True))
    np.testing.assert_array_equal(lo.astype(np.float32), f.min(-1, keepdims=True))
    np.testing.assert_array_equal(arg_hi, f.argmax(-1)[:, None])
    np.testing.assert_array_equal(arg_lo, f.argmin(-1)[:, None])


@pytest.mark.parametrize("dtype", [DType.int1, DType.uint1], ids=str)
def test_one_bit_integers_are_refused_at_the_ir_boundary(dtype):
    """JAX's lattice has int1 and uint1 (the policy too), but StableHLO cannot hold them."""
    assert JAX.promote_types(dtype, dtype) is dtype and JAX.promote_types(dtype, "i*") is dtype
    with pytest.raises(NoStableHLOTypeError, match=f"{dtype.name} has no StableHLO element type"):
        Graph("one_bit", input_types=[TensorType(dtype, [2])])
    with Graph("cast", input_types=[TensorType(DType.int8, [2])]) as g:
        (x,) = g.inputs
        with pytest.raises(NoStableHLOTypeError, match="use int2 or int8|use uint2 or uint8"):
            x.cast(dtype)
        g.output(x)


def test_fp8_dot_general_is_left_as_written():
    """A legal mixed fp8 dot (f8E4M3FN x f8E5M2 -> f32, as fp8 training writes it) is never changed."""
    from latticecast.passes import run_pipeline
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.dialect_utils.context import default_context

    text = """func.func @main(%a: tensor<2x3xf8E4M3FN>, %b: tensor<3x4xf8E5M2>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf8E4M3FN>, tensor<3x4xf8E5M2>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}"""
    for name in ("jax", "numpy", "jax-strict"):
        module = parse_module(text, default_context())
        before = str(module)
        run_pipeline(module, f"builtin.module(implicit-cast{{policy={name}}})")
        assert str(module) == before, name


@pytest.mark.parametrize("dtype", [d for d in DType if d.is_low_precision and d.in_stablehlo], ids=str)
def test_mlir_types_are_jaxlibs_constructors(dtype):
    """The spelling in the dtype table parses to the type jaxlib's constructors build (what JAX emits)."""
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.context import make_context
    from latticecast.dialect_utils.types import type_cache

    ctx = make_context()
    with ctx:
        if dtype.is_float():
            fmt = dtype.name.split("_", 1)[1].upper()
            built = getattr(ir, f"Float{dtype.bitwidth}{fmt}Type").get()
        else:
            built = (ir.IntegerType.get_signless if dtype.is_signed else ir.IntegerType.get_unsigned)(dtype.bitwidth)
        assert type_cache(ctx).element(dtype) == built and str(built) == dtype.mlir_name
        assert type_cache(ctx).dtype_of_element(built) is dtype


@pytest.mark.parametrize("name", ["max", "anvil", "array-api"])
def test_systems_that_predate_the_types_refuse_them_naming_their_dtypes(name):
    pol = policy(name)
    for d in (d for d in DType if d.is_low_precision):
        with pytest.raises(PromotionError) as e:
            pol.promote_types(d, DType.float32 if DType.float32 in pol.dtypes else pol.dtypes[-1])
        msg = str(e.value)
        assert f"{d.name} is not a dtype of policy '{name}'" in msg and "low-precision dtypes" in msg
        assert "its dtypes are " + ", ".join(x.name for x in pol.dtypes) in msg


def test_explain_shows_the_path_through_f_star(capsys):
    from latticecast.cli.main import main

    assert main(["explain", "int16", "float8_e4m3fn"]) == 0
    out = capsys.readouterr().out
    assert "i16 . f8e4m3fn under jax" in out and "= f8e4m3fn" in out
    assert "i16 -> i32 -> i64 -> f* -> f8e4m3fn" in out
    assert main(["explain", "i4", "i8"]) == 0  # undefined is an answer, not an error
    assert "cast i4 to int8" in capsys.readouterr().out
