"""The JAX policies against the seed tables and against live JAX (x64, x32, strict, lax)."""

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from jax_oracle import jax_promote
from latticecast import DType, PromotionError, policy, weak
from latticecast.evidence import evidence, measured_table, seed_table
from latticecast.weak import Weak


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
    assert policy("jax").materialize(weak(DType.int16)) is DType.int64
    assert policy("jax-x32").materialize(weak(DType.int16)) is DType.int32
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
