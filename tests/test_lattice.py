"""Lattice: joins from a DAG, partial lattices, construction errors, and the laws (hypothesis)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latticecast import Lattice, LatticeError, audit
from latticecast.promotion.tables import PromotionTable


def test_python_numeric_tower():
    lat = Lattice({"int": ["float"], "float": ["complex"]})
    assert lat.join("int", "complex") == "complex"
    assert lat.join("float", "float") == "float"
    assert lat.path("int", "complex") == ["int", "float", "complex"]
    assert lat.is_complete


def test_design_note_left_counter_example_is_partial():
    # A -> B, A -> C: B and C have no upper bound
    lat = Lattice({"A": ["B", "C"]})
    assert lat.join("B", "C") is None
    assert lat.join("A", "C") == "C"
    assert not lat.is_complete


def test_design_note_right_counter_example_is_a_construction_error():
    with pytest.raises(LatticeError) as e:
        Lattice({"A": ["C", "D"], "B": ["C", "D"]}, name="bad")
    msg = str(e.value)
    assert "A and B have two least upper bounds, C and D" in msg and "'bad'" in msg


def test_cycles_are_rejected_and_named():
    with pytest.raises(LatticeError, match=r"cycle: (a -> b -> c -> a|b -> c -> a -> b|c -> a -> b -> c)"):
        Lattice({"a": ["b"], "b": ["c"], "c": ["a"], "x": ["a"]})


def test_hasse_edges_drop_transitive_edges():
    lat = Lattice({"a": ["b", "c"], "b": ["c"]})
    assert lat.hasse_edges() == {"a": ("b",), "b": ("c",), "c": ()}


def test_unknown_node_is_a_clear_key_error():
    with pytest.raises(KeyError, match="not a node"):
        Lattice({"a": ["b"]}).join("a", "z")


def test_join_all_and_upper_bounds():
    lat = Lattice({"i8": ["i16"], "u8": ["i16", "u16"], "i16": ["i32"], "u16": ["i32"]})
    assert lat.join_all(["i8", "u8", "u16"]) == "i32"
    assert set(lat.upper_bounds("u8")) == {"u8", "i16", "u16", "i32"}
    with pytest.raises(ValueError):
        lat.join_all([])


@st.composite
def random_dags(draw, max_nodes=9):
    """A random DAG: edges only go from lower to higher index, so it is acyclic."""
    n = draw(st.integers(2, max_nodes))
    edges = {i: sorted(draw(st.sets(st.integers(i + 1, n - 1), max_size=3))) if i < n - 1 else []
             for i in range(n)}
    return edges


def _try_lattice(edges):
    try:
        return Lattice(edges, nodes=list(edges))
    except LatticeError:
        return None


@settings(max_examples=300, deadline=None)
@given(random_dags())
def test_every_random_dag_that_builds_satisfies_the_laws(edges):
    lat = _try_lattice(edges)
    if lat is None:
        # The construction error must be real: some pair has two minimal upper bounds.
        reach = {a: {b for b in edges if _reaches(edges, a, b)} for a in edges}
        assert any(len(_minimal(reach, reach[a] & reach[b])) > 1 for a, b in itertools.combinations(edges, 2))
        return
    nodes = lat.nodes
    for a in nodes:
        assert lat.join(a, a) == a
        for b in nodes:
            assert lat.join(a, b) == lat.join(b, a)
            j = lat.join(a, b)
            if j is not None:
                assert lat.leq(a, j) and lat.leq(b, j)
                # least: below every common upper bound
                assert all(lat.leq(j, c) for c in nodes if lat.leq(a, c) and lat.leq(b, c))
            else:
                assert not any(lat.leq(a, c) and lat.leq(b, c) for c in nodes)
            for c in nodes:
                left = None if j is None else lat.join(j, c)
                bc = lat.join(b, c)
                right = None if bc is None else lat.join(a, bc)
                assert left == right
    report = audit(PromotionTable.from_function(nodes, None, lat.join))
    assert report.is_lattice and report.associative and report.commutative
    # the generator the audit finds is the DAG's transitive reduction
    assert {k: set(v) for k, v in report.generator.items()} == {k: set(v) for k, v in lat.hasse_edges().items()}


def _reaches(edges, a, b):
    stack, seen = [a], set()
    while stack:
        x = stack.pop()
        if x == b:
            return True
        if x not in seen:
            seen.add(x)
            stack.extend(edges[x])
    return False


def _minimal(reach, s):
    return [x for x in s if not any(y != x and x in reach[y] for y in s)]


def test_a_long_chain_builds_without_recursion():
    n = 400  # deeper than Python's default recursion would allow for a recursive closure
    import sys
    assert n * 3 > sys.getrecursionlimit() / 4
    edges = {i: [i + 1] for i in range(n - 1)}
    lat = Lattice(edges)
    assert lat.join(0, n - 1) == n - 1
    assert len(lat.path(0, n - 1)) == n
