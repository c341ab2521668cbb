"""The audit of promotion tables: the seed facts, random lattices, and single-cell corruptions."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latticecast import DType, Lattice, LatticeError, audit, policy
from latticecast.evidence import evidence, seed_table
from latticecast.promotion.tables import PromotionTable, TableFormatError


def test_max_published_table_facts():
    report = audit(seed_table("max"))
    cells = {(a, b) for a, b, _, _ in report.non_commutative}
    assert cells == {(DType.bool, DType.index), (DType.bool, DType.address),
                     (DType.int8, DType.index), (DType.int8, DType.address)}
    assert report.triples == 4096 and report.non_associative == 68
    assert not report.is_lattice


def test_max_table_with_the_four_cells_corrected_is_associative():
    table = seed_table("max")
    fixed = dict(table.cells)
    for a, b in [(DType.bool, DType.index), (DType.bool, DType.address),
                 (DType.int8, DType.index), (DType.int8, DType.address)]:
        fixed[(a, b)] = fixed[(b, a)]
    report = audit(PromotionTable(table.rows, table.columns, fixed))
    assert report.non_associative == 0 and report.commutative and report.is_lattice
    # and the DAG it finds is the one the MAX policy draws from the prose
    assert report.generator == policy("max").lattice.hasse_edges()


def test_anvil_literal_reading_is_not_associative():
    table = evidence("anvil").published[
        "seed tables anvil_known and anvil_ambiguous read literally (ambiguity dropped from ambiguous x known cells)"]
    report = audit(table)
    assert report.commutative
    assert report.triples == 10_648 and report.non_associative == 350
    # the design notes' example: (i1 + i8?) + i16? = i8 but i1 + (i8? + i16?) = i16
    from latticecast.promotion.weak import Weak
    i1, i8a, i16a = DType.bool, Weak(DType.int8), Weak(DType.int16)
    assert table[(table[(i1, i8a)], i16a)] == DType.int8
    assert table[(i1, table[(i8a, i16a)])] == DType.int16


def test_anvil_known_table_alone_is_a_lattice():
    assert audit(seed_table("anvil_known")).is_lattice


def test_numpy_design_table_is_not_associative():
    report = audit(seed_table("design_numpy"))
    assert report.non_associative > 0
    i8, u8, f16 = DType.int8, DType.uint8, DType.float16
    t = seed_table("design_numpy")
    assert t[(t[(i8, u8)], f16)] == DType.float32 and t[(i8, t[(u8, f16)])] == DType.float16


def test_jax_seed_table_is_a_lattice_and_the_generator_is_jax_dag():
    seed = seed_table("design_jax_numpy")
    report = audit(seed)
    assert report.is_lattice and report.is_complete
    # the seed predates JAX's low-precision types: its DAG is JAX's on the seed's 18 types
    assert report.generator == audit(policy("jax").table(seed.rows)).generator
    assert set(policy("jax").lattice.hasse_edges()) - set(report.generator) == \
        {d for d in policy("jax").dtypes if d.bitwidth < 8 and not d.is_bool or (d.is_float() and d.bitwidth <= 8)}


def test_non_square_tables_are_refused():
    with pytest.raises(ValueError, match="not square"):
        audit(seed_table("array_api_mixed"))


def test_not_closed_table():
    table = PromotionTable.parse(",a,b\na,a,c\nb,c,b\n")
    report = audit(table)
    assert report.not_closed and not report.is_lattice and not report.associative
    assert "not a row" in report.summary()


def test_summary_reads_well():
    text = audit(seed_table("max")).summary()
    assert "commutative: no, 4 pairs differ" in text
    assert "associative: no, 68 of 4096 triples differ" in text
    assert "lattice: no" in text


@pytest.mark.parametrize("text, message", [
    (",a,b\na,a\n", "row has 1 cells, the header has 2 columns"),
    (",a,a\na,a,a\n", "column 'a' appears twice"),
    ("", "empty table"),
    (",a,b\n", "no rows"),
    (",a\na,a\na,a\n", "row 'a' appears twice"),
])
def test_malformed_tables_name_the_line(text, message):
    with pytest.raises(TableFormatError, match=message):
        PromotionTable.parse(text, source="t.csv")


def test_markdown_and_whitespace_tables_parse_alike():
    md = "| | a | b |\n|---|---|---|\n| a | a | b |\n| b | b | b |\n"
    ws = "x a b\na a b\nb b b\n"
    assert PromotionTable.parse(md).cells == PromotionTable.parse(",a,b\na,a,b\nb,b,b\n").cells
    assert PromotionTable.parse(ws.replace("x ", "", 1)).cells[("a", "b")] == "b"


@st.composite
def lattice_dags(draw):
    """Random DAGs that are lattices: a random DAG plus a top element."""
    while True:
        n = draw(st.integers(2, 8))
        edges = {i: sorted(draw(st.sets(st.integers(i + 1, n), max_size=2))) for i in range(n)}
        edges[n] = []
        for i in range(n):
            if not edges[i]:
                edges[i] = [n]
        try:
            return Lattice(edges, nodes=list(edges))
        except LatticeError:
            continue


@settings(max_examples=150, deadline=None)
@given(lattice_dags(), st.randoms(use_true_random=False))
def test_a_lattice_table_passes_and_one_corrupted_cell_is_caught(lat, rnd):
    table = PromotionTable.from_function(lat.nodes, None, lat.join)
    assert audit(table).is_lattice
    # corrupt one off-diagonal cell to a different node
    nodes = list(lat.nodes)
    a, b = rnd.sample(nodes, 2)
    wrong = rnd.choice([n for n in nodes if n != table[(a, b)]])
    cells = dict(table.cells)
    cells[(a, b)] = wrong
    report = audit(PromotionTable(table.rows, table.columns, cells))
    assert not report.is_lattice
    assert not report.commutative  # (b, a) still holds the true join
