"""The public promotion API: the design card's examples, errors, folding, explanations."""

import pytest

import latticecast as lc
from latticecast import DType, PromotionError, weak


def test_design_card_examples():
    assert lc.promote_types(DType.int16, DType.float32) is DType.float32
    assert lc.promote_types(weak(DType.int64), DType.uint8) is DType.uint8
    assert lc.promote_types(DType.int8, DType.uint64, policy="max") is DType.float16
    assert lc.implicit_cast_type(DType.int8, DType.uint8) is DType.int16
    with pytest.raises(lc.PromotionError):
        lc.policy("array_api").promote_types(DType.int32, DType.float32)
    assert {"jax", "jax-x32", "jax-strict", "jax-lax", "max", "array-api", "anvil", "numpy", "torch",
            "tensorflow"} <= set(lc.policies())


def test_policies_is_a_plain_function_and_the_package_a_plain_module():
    import importlib
    import sys
    import types

    from latticecast.policies.registry import policies
    assert lc.policies is policies and isinstance(policies, types.FunctionType)
    package = sys.modules["latticecast.policies"]
    assert type(package) is types.ModuleType and not callable(package)
    from latticecast.policies import Policy, policy
    assert Policy is lc.Policy and policy is lc.policy
    # importing a policy's module later leaves the function in place
    importlib.import_module("latticecast.policies.tensorflow")
    assert isinstance(lc.policies, types.FunctionType) and "tensorflow" in lc.policies()


def test_promotion_error_is_a_type_error_naming_types_policy_and_cast():
    with pytest.raises(TypeError) as e:
        lc.promote_types(DType.int32, DType.float32, policy="array-api")
    err = e.value
    assert isinstance(err, PromotionError)
    assert err.lhs is DType.int32 and err.rhs is DType.float32 and err.policy == "array-api"
    assert err.cast_to is DType.float32
    assert "cast i32 to float32" in str(err) and "stablehlo.convert to f32" in str(err)


def test_names_are_accepted_everywhere():
    assert lc.promote_types("s2", "f4") is DType.float32
    assert lc.promote_types("i*", "u8") is DType.uint8
    assert lc.implicit_cast_type("i8", "u64") is DType.float64


def test_implicit_cast_type_materialises_weak_results():
    assert lc.implicit_cast_type("i*", "f*") is DType.float64
    assert lc.implicit_cast_type("i*", "f*", policy="jax-x32") is DType.float32


def test_result_type_is_each_systems_own_rule_and_a_table_without_one_folds_or_refuses(tmp_path):
    assert lc.result_type(DType.int8, DType.uint8, DType.float16) is DType.float16
    assert lc.result_type(DType.uint8, DType.int8, DType.int16, weak(DType.int64)) is DType.int16
    assert lc.result_type(DType.int8, DType.uint8, DType.float16, policy="numpy") is DType.float16  # np.result_type
    assert lc.result_type(DType.int8, DType.uint8, DType.float16, policy="numpy",
                          left_to_right=True) is DType.float32
    # a table says nothing of many operands: it folds where the order cannot matter, and refuses otherwise
    path = tmp_path / "numpy_like.csv"
    pol = lc.policy("numpy")
    path.write_text(pol.table(["i8", "u8", "f16", "i16", "f32"]).render("csv", namer=lambda t: t.name))
    table = lc.Policy.from_table(path)
    with pytest.raises(PromotionError, match="not associative.*left_to_right=True"):
        lc.result_type(DType.int8, DType.uint8, DType.float16, policy=table)
    assert lc.result_type(DType.int8, DType.uint8, DType.float16, policy=table, left_to_right=True) is DType.float32
    with pytest.raises(ValueError):
        lc.result_type()


def test_default_policy_context():
    with lc.default_policy("max"):
        assert lc.implicit_cast_type(DType.int8, DType.uint64) is DType.float16
    assert lc.implicit_cast_type(DType.int8, DType.uint64) is DType.float64


def test_unknown_policy_lists_the_policies():
    with pytest.raises(lc.UnknownPolicyError) as e:
        lc.policy("fortran")
    assert "unknown policy 'fortran'" in str(e.value) and "jax-strict" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_policy_aliases():
    assert lc.policy("array_api") is lc.policy("array-api")
    assert lc.policy("jax_x32").name == "jax-x32"
    assert lc.policy("lax").name == "jax-lax"


def test_explain_shows_the_path_to_the_join():
    text = lc.explain(DType.int8, DType.uint64)
    assert "i8 -> i16 -> i32 -> i64 -> f*" in text and "u64 -> f*" in text
    assert "materialises as float64" in text
    text = lc.explain(DType.int8, DType.uint64, policy="max")
    assert "= f16" in text and "u64 -> f16" in text
    text = lc.explain(DType.int32, DType.float32, policy="array-api")
    assert "undefined" in text and "no cross-kind promotion" in text
    # Python scalars are not nodes of the Array API's or MAX's lattices: their rule is explained
    assert "rule: a Python scalar takes the array's dtype" in lc.explain("i*", "u8", policy="array-api")
    assert "takes the dtype of the graph value" in lc.explain("f*", "bf16", policy="max")


def test_register_policy():
    from latticecast.policies.max_seed import MaxPolicy

    class Tiny(MaxPolicy):
        name = "tiny-max"
        title = "a MAX variant for a test"

    lc.register_policy("tiny-max", Tiny, replace=True)
    assert lc.policy("tiny-max").promote_types(DType.int8, DType.int16) is DType.int16
    with pytest.raises(ValueError, match="already registered"):
        lc.register_policy("jax", Tiny)
