"""The JAX policies against the seed tables and against live JAX (x64, x32, strict, lax)."""

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from jax_oracle import jax_promote
from latticecast import DType, PromotionError, policy, weak
from latticecast.evidence import evidence, seed_table
from latticecast.weak import Weak, dtype_of


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


ALL_JAX = [DType.bool, DType.uint8, DType.uint16, DType.uint32, DType.uint64, DType.int8, DType.int16,
           DType.int32, DType.int64, DType.bfloat16, DType.float16, DType.float32, DType.float64,
           DType.complex64, DType.complex128, weak(DType.int64), weak(DType.float64), weak(DType.complex128)]


def test_jax_matches_live_jax_x64(x64):
    pol = policy("jax")
    for a in ALL_JAX:
        for b in ALL_JAX:
            assert pol.promote_types(a, b) == jax_promote(jnp.add, a, b), (a, b)


def test_jax_x32_matches_live_jax_with_x64_off(x32):
    pol = policy("jax-x32")
    for a in ALL_JAX:
        for b in ALL_JAX:
            live = jax_promote(jnp.add, a, b)
            ours = pol.promote_types(a, b)
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


def test_true_division_matches_jnp_true_divide(x64):
    pol = policy("jax")
    for a in ALL_JAX:
        for b in ALL_JAX:
            t = pol.promote_types(a, b)
            live = jax_promote(jnp.true_divide, a, b)
            assert pol.true_divide_type(t) == live, (a, b)


def test_true_division_matches_jnp_true_divide_x32(x32):
    pol = policy("jax-x32")
    for a in ALL_JAX:
        for b in ALL_JAX:
            t = pol.promote_types(a, b)
            assert pol.true_divide_type(t) == jax_promote(jnp.true_divide, a, b), (a, b)


def test_weak_defaults():
    assert policy("jax").materialize(weak(DType.int16)) is DType.int64
    assert policy("jax-x32").materialize(weak(DType.int16)) is DType.int32
    assert policy("jax").literal_type(3) == Weak(DType.int64)
    assert policy("jax").literal_type(True) is DType.bool
    assert policy("jax-x32").literal_type(1.5) == Weak(DType.float32)
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
