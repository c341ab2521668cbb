"""Property tests: the lattice laws of every lattice policy, and random programs through the pass."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import latticecast as lc
from latticecast import DomainError, DType, Graph, LiteralRangeError, PromotionError, TensorType
from latticecast import ops
from latticecast import GraphError

LATTICE_POLICIES = ["jax", "jax-x32", "jax-strict", "jax-lax", "anvil"]
# MAX's and the Array API's dtypes form lattices; their Python-scalar rules sit outside them
DTYPE_LATTICE_POLICIES = ["max", "array-api"]


def _types(name):
    p = lc.policy(name)
    return p.lattice_types if name in DTYPE_LATTICE_POLICIES else p.types


@pytest.mark.parametrize("name", LATTICE_POLICIES + DTYPE_LATTICE_POLICIES)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_lattice_laws(name, data):
    p = lc.policy(name)
    types = _types(name)
    a, b, c = (data.draw(st.sampled_from(types)) for _ in range(3))
    ab, ba = p.try_promote(a, b), p.try_promote(b, a)
    assert ab == ba  # commutative
    assert p.try_promote(a, a) == a  # idempotent
    bc = p.try_promote(b, c)
    left = None if ab is None else p.try_promote(ab, c)
    right = None if bc is None else p.try_promote(a, bc)
    assert left == right  # associative (both undefined counts as equal)
    if ab is not None:  # an upper bound: joining again changes nothing
        assert p.try_promote(ab, a) == ab and p.try_promote(ab, b) == ab
    lattice = p.lattice
    if ab is not None and a in lattice and b in lattice:
        assert lattice.leq(a, ab) and lattice.leq(b, ab)


@pytest.mark.parametrize("name", ["numpy", "torch", "tensorflow"])
def test_table_policies_are_refuted(name):
    report = lc.policy(name).audit()
    assert not report.is_lattice and report.lattice_problems


BINARY = [("+", lambda a, b: a + b), ("-", lambda a, b: a - b), ("*", lambda a, b: a * b),
          ("max", ops.maximum), ("min", ops.minimum), ("<", lambda a, b: a < b),
          ("&", lambda a, b: a & b), ("where", lambda a, b: ops.where(a > b, a, b))]


@st.composite
def programs(draw, policy):
    p = lc.policy(policy)
    dtypes = [d for d in p.dtypes if d not in (DType.address,) and d.in_stablehlo]  # int1, uint1: no IR type
    n_inputs = draw(st.integers(1, 4))
    inputs = [draw(st.sampled_from(dtypes)) for _ in range(n_inputs)]
    steps = []
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.integers(0, len(BINARY) - 1))
        lhs = draw(st.integers(0, 100))
        rhs = draw(st.one_of(st.integers(0, 100), st.sampled_from([1, 2, -3, 0.5, True])))
        steps.append((op, lhs, rhs))
    return inputs, steps


def _build(policy, inputs, steps):
    g = Graph("random", input_types=[TensorType(d, [3]) for d in inputs], policy=policy)
    with g:
        values = list(g.inputs)
        predicted = []
        for op, lhs, rhs in steps:
            a = values[lhs % len(values)]
            b = values[rhs % len(values)] if isinstance(rhs, int) and not isinstance(rhs, bool) and rhs >= 10 \
                else rhs
            try:
                v = BINARY[op][1](a, b)
            except (PromotionError, DomainError, LiteralRangeError, GraphError):
                continue
            values.append(v)
            predicted.append(v)
        assume(predicted)
        g.output(*predicted[-3:])
    return g, [v.dtype for v in predicted[-3:]]


@pytest.mark.parametrize("policy", lc.policies())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(data=st.data())
def test_random_programs_pass_and_verify(policy, data):
    inputs, steps = data.draw(programs(policy))
    g, predicted = _build(policy, inputs, steps)
    module = g.module
    assert module.operation.verify()
    text = g.mlir()
    assert "latticecast.weak" not in text
    # the output types are those the builder predicted from the policy (MAX's dtypes lowered)
    host = {DType.index: DType.uint64, DType.address: DType.uint64, DType.tensor_float32: DType.float32}
    from latticecast.dialect_utils.types import type_cache
    tc = type_cache(g.context)
    func = module.body.operations[0]
    import jaxlib.mlir.ir as ir
    results = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results
    got = [tc.tensor_info(t)[0] for t in results]
    assert got == [host.get(d, d) for d in predicted]
    # idempotent: a second run changes nothing
    from latticecast.passes import run_pipeline
    run_pipeline(module, f"builtin.module(implicit-cast{{policy={policy}}})")
    assert g.mlir() == text
