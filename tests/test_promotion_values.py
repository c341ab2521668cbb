"""``promote_types`` and ``result_type`` speak like the anchors (issue 16): Python types and values,
arrays and NumPy scalars, each by the policy's rules, checked against JAX and NumPy live."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import latticecast as lc
from latticecast import DType
from latticecast.promotion.weak import Weak


@pytest.mark.parametrize("builtin", [int, float, complex])
@pytest.mark.parametrize("other", ["int8", "uint8", "float16", "bfloat16", "complex64", "bool"])
def test_builtin_types_are_weak_under_jax_as_in_jnp_promote_types(builtin: type, other: str) -> None:
    with jax.enable_x64(True):
        want = jnp.promote_types(builtin, other)
    got = lc.promote_types(builtin, other, policy="jax")
    assert lc.policy("jax").materialize(got) == DType.parse(want)


@pytest.mark.parametrize("builtin", [int, float, complex])
@pytest.mark.parametrize("other", ["int8", "uint8", "float16", "complex64", "bool"])
def test_builtin_types_are_numpys_dtypes_under_numpy(builtin: type, other: str) -> None:
    assert lc.promote_types(builtin, other, policy="numpy") == DType.parse(np.promote_types(builtin, other))


VALUES = [lambda: np.ones(3, np.int8), lambda: np.ones(3, np.float16), lambda: np.uint8(3), lambda: np.float32(2),
          lambda: 2, lambda: 2.5, lambda: 1j, lambda: True, lambda: np.ones(2, np.int64)]


@pytest.mark.parametrize("i", range(len(VALUES)))
@pytest.mark.parametrize("j", range(len(VALUES)))
def test_result_type_of_values_is_numpys(i: int, j: int) -> None:
    a, b = VALUES[i](), VALUES[j]()
    want = np.result_type(a, b)
    got = lc.result_type(a, b, policy="numpy")
    assert lc.policy("numpy").materialize(got) == DType.parse(want)


@pytest.mark.parametrize("i", range(len(VALUES)))
@pytest.mark.parametrize("j", range(len(VALUES)))
def test_result_type_of_values_is_jaxs(i: int, j: int) -> None:
    a, b = VALUES[i](), VALUES[j]()
    with jax.enable_x64(True):
        want = jnp.result_type(a, b)
    got = lc.result_type(a, b, policy="jax")
    assert lc.policy("jax").materialize(got) == DType.parse(want)


def test_a_weakly_typed_jax_array_is_weak() -> None:
    x = jnp.asarray(2.0) * 1            # weak_type=True
    assert lc.result_type(x, DType.bfloat16) == DType.bfloat16 == DType.parse(jnp.result_type(x, jnp.bfloat16))
    assert isinstance(lc.result_type(x), Weak)
    assert not isinstance(lc.result_type(jnp.asarray(np.float32(2.0))), Weak)


def test_explain_says_when_the_mode_has_no_such_type() -> None:
    text = lc.explain("u64", "i8", policy="jax-x32")
    assert text.splitlines()[0] == "u64 is u32 under jax-x32: the policy has no u64"
    assert "i64" not in text
