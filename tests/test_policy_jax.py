"""The JAX policies against the seed tables and against live JAX (x64, x32, strict, lax)."""

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from jax_oracle import jax_promote
from latticecast import DType, PromotionError, policy, weak
from latticecast.evidence import evidence, measured_table, seed_table
from latticecast.promotion.weak import Weak


def _compare(pol, table, materialize=False):
    checked, errata = 0, evidence(pol).errata
    for (a, b), expected in table.cells.items():
        got = pol.try_promote(a, b)
        if materialize and got is not None:
            got = pol.materialize(got)
        if (a, b) in errata:
            assert got != expected, f"{a},{b} is listed as an erratum but matches the seed"
            continue
        assert got == expected, f"{pol.name}: {a} . {b} = {got}, seed says {expected}"
        checked += 1
    return checked


def test_jax_matches_the_design_note_table_cell_for_cell():
    assert _compare(policy("jax"), seed_table("design_jax_numpy")) == 18 * 18


def test_jax_matches_the_published_promotion_table():
    # jnp.promote_types materialises weak results (i8 . u64 = f8, not f*)
    assert _compare(policy("jax"), seed_table("jax_promotion_table"), materialize=True) == 15 * 15


def test_jax_lax_matches_its_table_except_the_bool_add_cell():
    pol = policy("jax-lax")
    assert _compare(pol, seed_table("design_jax_lax")) == 18 * 18 - 1
    assert pol.promote_types(DType.bool, DType.bool) is DType.bool
    assert list(evidence(pol).errata) == [(DType.bool, DType.bool)]


@pytest.fixture
def x64():
    with jax.enable_x64(True):
        yield


@pytest.fixture
def x32():
    with jax.enable_x64(False):
        yield


ALL_JAX = [*policy("jax").dtypes, weak(DType.int64), weak(DType.float64), weak(DType.complex128)]
"""JAX's 32 dtypes (the float8/6/4 types and int1..uint4 included) and its three Python scalar types."""


def test_jax_matches_live_jax_x64(x64):
    pol = policy("jax")
    assert len(ALL_JAX) == 35
    for a in ALL_JAX:
        for b in ALL_JAX:
            assert pol.try_promote(a, b) == jax_promote(jnp.add, a, b), (a, b)


def test_jax_x32_matches_live_jax_with_x64_off(x32):
    pol = policy("jax-x32")
    for a in ALL_JAX:
        for b in ALL_JAX:
            live = jax_promote(jnp.add, a, b)
            ours = pol.try_promote(a, b)
            # live JAX in x32 makes Python scalars weak 32-bit types, as the policy does
            assert ours == live, (a, b, ours, live)


def test_jax_strict_matches_live_strict_mode(x64):
    pol = policy("jax-strict")
    with jax.numpy_dtype_promotion("strict"):
        for a in ALL_JAX:
            for b in ALL_JAX:
                live = jax_promote(jnp.add, a, b)
                ours = pol.try_promote(a, b)
                if live is None or ours is None:
                    assert live == ours, (a, b, ours, live)
                else:
                    assert ours == live, (a, b)


def test_jax_lax_matches_live_lax_add(x64):
    pol = policy("jax-lax")
    for a in ALL_JAX:
        for b in ALL_JAX:
            if a == b == DType.bool:
                continue  # lax.add rejects bool: its domain, not promotion (the erratum)
            assert pol.try_promote(a, b) == jax_promote(lax.add, a, b), (a, b)


def _divides_in(pol, a, b):
    """What latticecast computes ``a / b`` in: the promoted type, then the policy's inexact type
    (``None`` from :meth:`true_divide_type`: integers divide as integers)."""
    t = pol.try_promote(a, b)
    if t is None:
        return None
    inexact = pol.op_types.true_divide(t)
    return t if inexact is None else inexact


def test_true_division_matches_jnp_true_divide(x64):
    pol = policy("jax")
    for a in ALL_JAX:
        for b in ALL_JAX:
            assert _divides_in(pol, a, b) == jax_promote(jnp.true_divide, a, b), (a, b)


def test_true_division_matches_jnp_true_divide_x32(x32):
    pol = policy("jax-x32")
    for a in ALL_JAX:
        for b in ALL_JAX:
            assert _divides_in(pol, a, b) == jax_promote(jnp.true_divide, a, b), (a, b)


def test_true_division_gap_of_jax(x64):
    """JAX's _dtype_to_inexact has no int1/uint1/int2/uint2: jnp.true_divide divides them as integers,
    while int4 (and uint4) divide in float32 even with x64 on."""
    pol = policy("jax")
    for d in (DType.int1, DType.uint1, DType.int2, DType.uint2):
        assert jax_promote(jnp.true_divide, d, d) is d and pol.op_types.true_divide(d) is None
    for d in (DType.int4, DType.uint4):
        assert jax_promote(jnp.true_divide, d, d) is DType.float32 is pol.op_types.true_divide(d)


@pytest.mark.parametrize("name, table", [("jax", "jax_x64_add"), ("jax-x32", "jax_x32_add"),
                                         ("jax-strict", "jax_strict_add"), ("jax-lax", "jax_lax_add")])
def test_matches_the_measured_table_in_every_cell(name, table):
    """tools/measure_jax_promotion.py's tables (JAX 0.10.2, all 35 types, each mode)."""
    pol, measured = policy(name), measured_table(table)
    gaps = evidence(pol).known_gaps
    assert len(measured.cells) == 35 * 35
    mismatches = [(a, b, live, pol.try_promote(a, b)) for (a, b), live in measured.cells.items()
                  if (a, b) not in gaps and pol.try_promote(a, b) != live]
    assert mismatches == []


@pytest.mark.parametrize("table, name", [("jax_x64_true_divide", "jax"), ("jax_x32_true_divide", "jax-x32")])
def test_true_division_matches_the_measured_table(table, name):
    pol = policy(name)
    cells = measured_table(table).cells
    assert [(a, b) for (a, b), live in cells.items() if _divides_in(pol, a, b) != live] == []


@pytest.mark.parametrize("a, b, expected", [
    (DType.float8_e4m3fn, DType.float16, None), (DType.int4, DType.int8, None),
    (DType.int64, DType.float8_e4m3fn, DType.float8_e4m3fn), (DType.uint64, DType.float4_e2m1fn,
                                                               DType.float4_e2m1fn),
    (DType.bool, DType.float8_e8m0fnu, DType.float8_e8m0fnu), (DType.bool, DType.int4, DType.int4),
    (DType.int4, weak(DType.int64), DType.int4), (DType.float8_e5m2, weak(DType.float64), DType.float8_e5m2),
    (DType.float8_e5m2, weak(DType.int64), DType.float8_e5m2), (DType.int4, weak(DType.float64), None),
    (DType.float8_e4m3fn, weak(DType.complex128), None), (DType.float8_e4m3fn, DType.float8_e5m2, None),
    (DType.int4, DType.uint4, None), (DType.float8_e4m3fn, DType.bfloat16, None),
])
def test_low_precision_cells_the_report_names(a, b, expected):
    """Low-precision types are sinks below JAX's weak nodes: Python scalars and (through f*) every
    integer promote to them; nothing else meets them. A low float with a Python scalar is strong."""
    pol = policy("jax")
    assert pol.try_promote(a, b) == expected == pol.try_promote(b, a)


def test_low_precision_refusals_say_why_and_the_cast():
    with pytest.raises(PromotionError) as e:
        policy("jax").promote_types(DType.float8_e4m3fn, DType.float16)
    msg = str(e.value)
    assert "f8e4m3fn and f16 under policy 'jax'" in msg and "f8e4m3fn may become nothing else" in msg
    assert "cast f8e4m3fn to float16" in msg and e.value.cast_to is DType.float16
    with pytest.raises(PromotionError, match="cast i4 to int8"):
        policy("jax").promote_types(DType.int4, DType.int8)


def test_strict_mode_low_precision(x64):
    """Strict: a new type meets only itself, a Python int, and (for floats) a Python float."""
    pol = policy("jax-strict")
    assert pol.try_promote(DType.bool, DType.int4) is None and pol.try_promote(DType.int64, DType.float8_e4m3fn) is None
    assert pol.promote_types(DType.int4, "i*") is DType.int4 and pol.promote_types(DType.float8_e4m3fn, "f*") is \
        DType.float8_e4m3fn


def test_weak_defaults():
    """A weak value keeps its width when it leaves the program (a weakly typed int16 array is an int16);
    a Python scalar's is the default type of its kind."""
    assert policy("jax").materialize(weak(DType.int16)) is DType.int16
    assert policy("jax").materialize(policy("jax").literals.type_of(1)) is DType.int64
    assert policy("jax-x32").materialize(weak(DType.int64)) is DType.int32
    assert policy("jax-x32").materialize(policy("jax-x32").literals.type_of(1)) is DType.int32
    assert policy("jax").literals.type_of(3) == Weak(DType.int64)
    assert policy("jax").literals.type_of(True) is DType.bool
    assert policy("jax-x32").literals.type_of(1.5) == Weak(DType.float32)
    assert policy("jax-x32").canonical(DType.int64) is DType.int32


def test_strict_errors_name_the_cast():
    with pytest.raises(PromotionError) as e:
        policy("jax-strict").promote_types(DType.int8, DType.int16)
    msg = str(e.value)
    assert "i8 and i16" in msg and "'jax-strict'" in msg and "cast i8 to int16" in msg
    assert e.value.cast_to is DType.int16
    with pytest.raises(PromotionError, match="jax.lax requires operands of the same dtype"):
        policy("jax-lax").promote_types(DType.int32, weak(DType.int64))


def test_jax_has_no_max_dtypes():
    with pytest.raises(PromotionError, match="index is not a dtype of policy 'jax'"):
        policy("jax").promote_types(DType.index, DType.int8)


# ---------------------------------------------------------------- n-ary result_type, weak arrays of every width

import itertools  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

import latticecast as lc  # noqa: E402

_PY_VALUES = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}


def _live(*args):
    """``jax.dtypes.result_type(*args, return_weak_type_flag=True)`` as a type; ``None`` for a refusal,
    ``"KeyError"`` for JAX's own failure on all-weak narrow integers."""
    try:
        d, w = jax.dtypes.result_type(*args, return_weak_type_flag=True)
    except jax.dtypes.TypePromotionError:
        return None
    except KeyError:
        return "KeyError"
    d = DType.parse(np.dtype(d))
    return Weak(d) if w else d


def _mine(pol, *types):
    try:
        return pol.result_type(*types)
    except PromotionError:
        return None


def _nary_mismatches(pol, labels, arity):
    """Every ``arity``-tuple of ``labels`` (dtypes and Python values) through jax.dtypes.result_type and the
    policy's result_type."""
    def ours(x):
        return pol.literals.type_of(x) if isinstance(x, (bool, int, float, complex)) else DType.parse(np.dtype(x))
    bad = []
    for combo in itertools.product(labels, repeat=arity):
        live, mine = _live(*combo), _mine(pol, *(ours(x) for x in combo))
        if live != mine:
            bad.append((combo, live, mine))
    return bad


@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_result_type_matches_jax_on_every_three_dtypes_and_python_scalars(mode):
    """jnp.result_type joins all operands at once; the policy's n-ary rule is JAX's, on every 3-tuple of
    JAX's dtypes and the four Python scalar types (a weak result is the default type, still weak)."""
    pol = policy("jax" if mode == "x64" else "jax-x32")
    labels = [d.np_dtype for d in pol.dtypes] + list(_PY_VALUES.values())
    with jax.enable_x64(mode == "x64"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _nary_mismatches(pol, labels, 3) == []


def _weak_width_mismatches(pol, arity, labels):
    """Weakly typed arrays of every width, dimensioned arrays and Python scalars, traced abstractly: JAX's
    result_type and its ``+`` against the policy's result_type and promote_types."""
    sds = [jax.ShapeDtypeStruct((), (t.dtype if isinstance(t, Weak) else t).np_dtype, weak_type=isinstance(t, Weak))
           for t in labels]
    bad = []

    def traced(*xs):
        values = list(xs) + list(_PY_VALUES.values())
        types = list(labels) + [pol.literals.type_of(v) for v in _PY_VALUES.values()]
        for idx in itertools.product(range(len(values)), repeat=arity):
            live, mine = _live(*(values[i] for i in idx)), _mine(pol, *(types[i] for i in idx))
            if live == "KeyError":  # JAX's default_types has no kind 'V' (all-weak int1..uint4): its own bug
                assert all(isinstance(types[i], Weak) and types[i].dtype.np_dtype.kind == "V" for i in idx)
                assert mine == Weak(pol.default_int) or mine == Weak({DType.int64: DType.uint64,
                                                                      DType.int32: DType.uint32}[pol.default_int])
                continue
            if live != mine:
                bad.append(([types[i] for i in idx], live, mine))
        return xs[0]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        jax.eval_shape(traced, *sds)
    return bad


@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_weak_arrays_of_every_width_match_jax_in_every_pair(mode):
    pol = policy("jax" if mode == "x64" else "jax-x32")
    labels = list(pol.dtypes) + [Weak(d) for d in pol.dtypes if d is not DType.bool]
    with jax.enable_x64(mode == "x64"):
        assert _weak_width_mismatches(pol, 2, labels) == []


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_weak_arrays_of_every_width_match_jax_in_every_triple(mode):
    """Every 3-tuple of dtypes, weak arrays of every width and Python scalars (about 300,000 per mode)."""
    pol = policy("jax" if mode == "x64" else "jax-x32")
    labels = list(pol.dtypes) + [Weak(d) for d in pol.dtypes if d is not DType.bool]
    with jax.enable_x64(mode == "x64"):
        assert _weak_width_mismatches(pol, 3, labels) == []


def test_a_weak_result_keeps_the_width_of_its_operands_in_ops(x64):
    """``+`` of two weak int8 arrays is a weak int8 (lattice_result_type), where jnp.result_type says int64."""
    a = jax.ShapeDtypeStruct((), jnp.int8, weak_type=True)
    out = jax.eval_shape(jnp.add, a, a)
    assert out.weak_type and out.dtype == jnp.int8
    pol = policy("jax")
    assert pol.promote_types(weak(DType.int8), weak(DType.int8)) == weak(DType.int8)
    assert pol.promote_types(weak(DType.int8), weak(DType.int16)) == weak(DType.int16)
    assert pol.promote_types(weak(DType.int8), DType.uint8) is DType.uint8
    assert pol.result_type(weak(DType.int8), weak(DType.int8)) == weak(DType.int64)


NUMPY_SCALARS = [np.bool_(True), np.int8(1), np.int16(1), np.int32(1), np.int64(1), np.uint8(1), np.uint16(1),
                 np.uint32(1), np.uint64(1), np.float16(1), np.float32(1), np.float64(1), np.complex64(1),
                 np.complex128(1)]


@pytest.mark.parametrize("mode", ["x64", "x32"])
def test_numpy_scalars_are_strong_as_in_jax(mode):
    """Every NumPy scalar type against an array of every JAX dtype: jnp.result_type and the result of +,
    traced, equal lc.result_type and the policy's promotion of the scalar's own dtype."""
    pol = policy("jax" if mode == "x64" else "jax-x32")
    bad = []
    with jax.enable_x64(mode == "x64"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for d in pol.dtypes:
            array = jax.ShapeDtypeStruct((2,), d.np_dtype)
            for s in NUMPY_SCALARS:
                live = _live(array, s)
                try:
                    mine = lc.result_type(np.zeros(2, d.np_dtype), s, policy=pol)
                except PromotionError:
                    mine = None
                if live != mine:
                    bad.append((d, type(s).__name__, "result_type", live, mine))
                try:
                    added = jax.eval_shape(lambda x: x + s, array)
                    op = Weak(DType.parse(added.dtype)) if added.weak_type else DType.parse(added.dtype)
                except (TypeError, jax.dtypes.TypePromotionError):
                    op = None
                if op != pol.try_promote(d, pol.numpy_values.scalar_type(s)):
                    bad.append((d, type(s).__name__, "+", op))
    assert bad == []
    assert lc.result_type(np.ones(2, np.float32), np.float64(0)) is DType.float64  # not the Python float it subclasses
