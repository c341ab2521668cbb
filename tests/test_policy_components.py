"""A policy is its decisions plus components; tables, audits and explanations are functions over it."""

from __future__ import annotations

import functools
import gc

import numpy as np
import pytest

from latticecast import DomainError, DType, Graph, LiteralRangeError, TensorType, policies, policy, weak
from latticecast.policies import LatticePolicy, Policy
from latticecast.policies.components import LiteralRules, NumpyValueRules, OpTypeRules
from latticecast.policies.jax import JaxPolicy
from latticecast.policies.views import explain_promotion, policy_audit, policy_table


@pytest.mark.parametrize("name", policies())
def test_every_component_belongs_to_its_policy_and_is_made_once(name: str) -> None:
    pol = policy(name)
    for component, kind in ((pol.literals, LiteralRules), (pol.numpy_values, NumpyValueRules),
                            (pol.op_types, OpTypeRules)):
        assert isinstance(component, kind) and component.policy is pol
    assert pol.literals is pol.literals and pol.op_types is pol.op_types


@pytest.mark.parametrize("name", policies())
def test_the_views_are_what_the_policy_delegates_to(name: str) -> None:
    pol = policy(name)
    assert pol.audit() is policy_audit(pol)  # made once per policy, owned by views
    assert pol.table().cells == policy_table(pol).cells
    a, b = pol.dtypes[0], pol.dtypes[-1]
    assert pol.explain(a, b) == explain_promotion(pol, a, b)


def test_the_policy_keeps_only_its_core_and_the_documented_delegations() -> None:
    moved = ("literal_type", "literal_problem", "check_literal", "constant_problem", "numpy_scalar",
             "weak_array_type", "weak_array_problem", "check_weak_array", "true_divide_type",
             "true_divide_operands", "sum_type", "numpy_values_are_weak", "float_literals_overflow_to_inf",
             "is_associative", "is_commutative")
    assert [m for m in moved if hasattr(Policy, m)] == []


def test_one_component_changes_one_fact() -> None:
    class InfJax(JaxPolicy):
        name = "jax-with-inf-literals"

        @functools.cached_property
        def literals(self) -> LiteralRules:
            return LiteralRules(self, overflow_to_inf=True)

    jax, inf = policy("jax"), InfJax()
    with pytest.raises(LiteralRangeError, match="Unsafe cast"):
        jax.literals.check(1e10, DType.float16)
    inf.literals.check(1e10, DType.float16)  # becomes inf
    assert inf.op_types.true_divide(DType.int8) is jax.op_types.true_divide(DType.int8) is DType.float32
    assert inf.table().cells == jax.table().cells


def test_a_lattice_with_default_components_divides_in_the_promoted_type() -> None:
    class Chain(LatticePolicy):
        name, title, source = "chain", "a chain", "this test"
        dtypes = (DType.int8, DType.int16, DType.float32)
        weak_types = (weak(DType.int16),)
        default_int, default_float, default_complex = DType.int16, DType.float32, None
        edges = {weak(DType.int16): [DType.int8], DType.int8: [DType.int16], DType.int16: [DType.float32]}

    chain = Chain()
    assert chain.op_types.true_divide(DType.int8) is DType.int8  # integers divide as integers
    assert chain.op_types.sum(DType.int8) is DType.int16  # widened to the default integer
    assert chain.literals.type_of(3) == weak(DType.int16) and chain.literals.type_of(True) is DType.bool
    assert chain.numpy_values.weak is False
    assert chain.numpy_values.array_type(DType.int16) == weak(DType.int16)
    assert "out of range" in chain.numpy_values.array_problem(np.array([1, 300]), DType.int8)
    assert policy_audit(chain).is_lattice
    with pytest.raises(DomainError):
        policy("array-api").op_types.true_divide(DType.int32)


def test_op_decisions_have_one_memo_and_it_goes_with_its_policy() -> None:
    from latticecast.promotion import op_rules

    class ShortLived(JaxPolicy):
        name = "short-lived"

    pol = ShortLived()
    add = op_rules.STABLEHLO["stablehlo.add"]
    with Graph("g", input_types=[TensorType(DType.int8, [2]), TensorType(DType.uint8, [2])], policy=pol) as g:
        g.output(g.inputs[0] + g.inputs[1])
    first = op_rules.decide(pol, add, [DType.int8, DType.uint8])  # the builder made it: the pass finds it
    key = id(pol)
    assert g.op_decisions is op_rules.decisions_of(pol) is op_rules._DECIDED[key]
    assert op_rules._DECIDED[key] == {("stablehlo.add", (DType.int8, DType.uint8), None): first}
    del pol, g
    gc.collect()
    assert key not in op_rules._DECIDED
