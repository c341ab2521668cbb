"""The ``latticecast`` command line: every subcommand's output, every format, every error path.

Most tests run ``main([...])`` in-process and read what it printed; one group runs
the installed console script in a subprocess, as a user would. Expected values
come from the seeds (the MAX table's four errata cells, the 68 and 350 failing
triples, the JAX docs' shaded cells) or are computed through the library by a
different route than the command takes, never from the command's own output.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import latticecast
from latticecast import DType, policy, weak
from latticecast.promotion.audit import audit
from latticecast.cli import info_cmd, main
from latticecast.cli.compare import same_result
from latticecast.cli.dot import dag_to_dot, quote
from latticecast.evidence import evidence, seed_table
from latticecast.policies import Decision, Policy, TablePolicy, register_policy, registry
from latticecast.policies.jax import JaxPolicy
from latticecast.promotion.tables import PromotionTable
from latticecast.promotion.weak import PType, Weak

SEED_TABLES = Path(latticecast.__file__).parent / "evidence" / "seed_tables"
MAX_ERRATA = {("b", "index"), ("b", "address"), ("i8", "index"), ("i8", "address")}
JAX_DTYPES_RST_ORDER = "b1,u1,u2,u4,u8,i1,i2,i4,i8,bf,f2,f4,f8,c4,c8"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr that says what is wrong, no traceback."""
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("latticecast: error: ")
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], (f, lines[0])


def read_csv_table(text: str) -> tuple[list[str], dict[tuple[str, str], str], set[tuple[str, str]]]:
    """Column labels, cell values and marked cells (a trailing ``*`` on a marked value) of CSV output."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0][1:]
    cells: dict[tuple[str, str], str] = {}
    marks: set[tuple[str, str]] = set()
    for row in rows[1:]:
        for col, value in zip(header, row[1:]):
            # A weak type ends in '*' itself (i*): it is marked only when a second '*' follows.
            weak_name = value.rstrip("*") in ("i", "f", "c", "u", "b")
            marked = value.endswith("**") if weak_name else value.endswith("*")
            if marked:
                value = value[:-1]
                marks.add((row[0], col))
            cells[(row[0], col)] = value
    return header, cells, marks


def read_diff_csv(text: str) -> tuple[list[str], dict[tuple[str, str], str], dict[tuple[str, str], str],
                                        set[tuple[str, str]]]:
    """The header and, per cell, this side's value, the other side's and whether it differs, of
    ``table --vs Q --format csv`` (one row per cell, one column per side)."""
    rows = list(csv.reader(io.StringIO(text)))
    mine = {(r[0], r[1]): r[2] for r in rows[1:]}
    theirs = {(r[0], r[1]): r[3] for r in rows[1:]}
    marks = {(r[0], r[1]) for r in rows[1:] if r[4] == "1"}
    return rows[0], mine, theirs, marks


def numpy_policy_available() -> bool:
    return importlib.util.find_spec("latticecast.policies.numpy") is not None


def graphviz_available() -> bool:
    return importlib.util.find_spec("graphviz") is not None and shutil.which("dot") is not None


# -- policies made for the tests (registered under names no real policy uses) ------------


class _TablePolicy(TablePolicy):
    """A policy defined by a seed table alone (no lattice)."""

    source = "a seed table, for the CLI tests"
    table_name = ""

    @property
    def promotion_table(self) -> PromotionTable:  # type: ignore[override]
        return seed_table(self.table_name)


class _AnvilKnownTable(_TablePolicy):
    name = "cli-test-anvil-known"
    title = "anvil's known-type table, as a table policy"
    table_name = "anvil_known"
    dtypes = tuple(seed_table("anvil_known").rows)


class _MaxPublishedTable(_TablePolicy):
    name = "cli-test-max-published"
    title = "MAX's table as published, as a table policy"
    table_name = "max"
    dtypes = tuple(seed_table("max").rows)


class _JaxStrongResults(JaxPolicy):
    """JAX, but a weak result is reported as the dtype it materialises to (as NumPy's table does)."""

    name = "cli-test-jax-strong"
    title = "JAX with weak results materialised"

    def join(self, a: PType, b: PType, why_not: str | None = None) -> Decision:
        d = super().join(a, b, why_not)
        return replace(d, result=self.weak_default(d.result)) if isinstance(d.result, Weak) else d


class _JaxIntsAre32(_JaxStrongResults):
    """As above, but a weak int materialises as int32: i* . i* differs from JAX's in the end."""

    name = "cli-test-jax-int32"
    title = "JAX with weak ints materialised as int32"

    def weak_default(self, t: Weak) -> DType:
        return DType.int32 if t.dtype.is_integral() else super().weak_default(t)


@pytest.fixture
def cli_test_policies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the policies above for one test; the registry is restored afterwards, so no
    other test (nor ``latticecast policies``) sees them."""
    monkeypatch.setattr(registry, "_FACTORIES", dict(registry._FACTORIES))
    monkeypatch.setattr(registry, "_INSTANCES", dict(registry._INSTANCES))
    for cls in (_AnvilKnownTable, _MaxPublishedTable, _JaxStrongResults, _JaxIntsAre32):
        register_policy(cls.name, cls)


# -- table -------------------------------------------------------------------------------


def test_table_text_shows_every_type_and_the_join(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "table", "--policy", "jax", "--wide")   # one grid, the policy's spellings
    assert code == 0 and err == ""
    lines = out.splitlines()
    names = ["b", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "bf16", "f16", "f32", "f64",
             "c64", "c128", "u1", "u2", "u4", "int1", "i2", "i4", "f4e2m1fn", "f6e2m3fn", "f6e3m2fn", "f8e3m4",
             "f8e4m3", "f8e8m0fnu", "f8e4m3b11fnuz", "f8e4m3fn", "f8e4m3fnuz", "f8e5m2", "f8e5m2fnuz",
             "i*", "f*", "c*"]
    assert lines[0].split() == names
    rows = {ln.split()[0]: ln.split()[1:] for ln in lines[1:]}
    assert list(rows) == names
    col = names.index
    assert rows["i16"][col("f32")] == "f32"      # the design note's headline question
    assert rows["u64"][col("i8")] == "f*"        # the lattice's u64 -> f* edge
    assert rows["bf16"][col("f16")] == "f32"     # bf16 and f16 meet at f32
    assert rows["i*"][col("u8")] == "u8"         # a Python int defers
    assert rows["i64"][col("f8e4m3fn")] == "f8e4m3fn"  # through f*: every integer promotes to a float8
    assert rows["f8e4m3fn"][col("f16")] == "-"   # JAX: 8-bit floats do not support implicit promotion
    assert rows["i4"][col("i8")] == "-" and rows["i4"][col("i*")] == "i4"
    assert "marks the cells" not in out and "differ" not in out   # no marks without --vs


def test_table_undefined_cells_are_dashes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "array-api", "--types", "i8,f32,u8")
    assert code == 0
    rows = {ln.split()[0]: ln.split()[1:] for ln in out.splitlines()[1:]}
    assert rows["i8"] == ["i8", "-", "i16"]
    assert rows["f32"] == ["-", "f32", "-"]


def test_table_types_accepts_every_spelling_and_drops_duplicates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "jax", "--types", "i16,int16,s2,bf16,i*,float32,bf", "--wide")
    assert code == 0
    assert out.splitlines()[0].split() == ["i16", "bf16", "i*", "f32"]
    code, out, _ = run(capsys, "table", "--policy", "jax", "--types", "e4m3fn,f8e4m3fn,bf")  # the short codes too
    assert out.splitlines()[0].split() == ["e4m3fn", "bf"]


def test_table_types_in_byte_notation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--types", "i1,i8,u8", "--notation", "bytes", "--format", "csv")
    assert code == 0
    header, cells, _ = read_csv_table(out)
    assert header == ["i8", "i64", "u64"]
    assert cells[("i64", "u64")] == "f*"


def test_table_labels_use_the_policys_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "anvil", "--types", "bool,int8,weak int8", "--format", "csv")
    assert code == 0
    header, cells, _ = read_csv_table(out)
    assert header == ["i1", "i8", "i8?"]
    assert cells[("i1", "i8?")] == "i8?"   # a known bool takes the ambiguous type (seed's rule)


@pytest.mark.parametrize("name", ["jax", "max", "anvil", "array-api", "jax-lax"])
def test_table_csv_holds_the_policys_promotions(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = run(capsys, "table", "--policy", name, "--format", "csv")
    assert code == 0
    pol = policy(name)
    header, cells, marks = read_csv_table(out)
    assert header == [pol.type_name(t) for t in pol.types]
    assert not marks
    for a in pol.types:
        for b in pol.types:
            try:
                expected = pol.type_name(pol.promote_types(a, b))
            except latticecast.PromotionError:
                expected = "-"
            assert cells[(pol.type_name(a), pol.type_name(b))] == expected


def test_table_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "max", "--types", "i8,u64,index", "--format", "markdown",
                       "--vs", "seed")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "| | i8 | u64 | index |"
    assert set(lines[1]) <= set("|-")
    # a differing cell is bold with both values: i8 . index is one of MAX's errata
    assert lines[2] == "| **i8** | i8 | f16 | **f16/index** |"
    assert lines[4] == "| **index** | f16 | u64 | index |"
    assert lines[-1] == "A bold cell differs: max/seed."


def test_table_html_is_a_page_whose_differing_cells_show_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "max", "--types", "b,i8,index", "--format", "html",
                       "--vs", "seed")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>") and "<style>" in out
    differing = set(re.findall(r'<td class="diff[^"]*" data-row="([^"]+)" data-col="([^"]+)" data-this="([^"]+)" '
                               r'data-other="([^"]+)"', out))
    assert differing == {("b", "index", "u64", "i64"), ("i8", "index", "f16", "index")}
    assert out.count('<td class="') == 9


def test_table_writes_to_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "jax.csv"
    code, out, _ = run(capsys, "table", "--format", "csv", "-o", str(target))
    assert code == 0 and out == ""
    header, cells, _ = read_csv_table(target.read_text())
    assert cells[("i16", "f32")] == "f32" and cells[("i4", "f8e5m2")] == "-"
    assert len(header) == 35


def test_table_vs_seed_marks_exactly_maxs_errata(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "max", "--vs", "seed", "--format", "csv")
    assert code == 0
    header, cells, published, marks = read_diff_csv(out)
    assert header == ["row", "column", "max", "seed", "differs"]
    assert marks == MAX_ERRATA
    assert cells[("b", "index")] == "u64"      # the policy's value, and the published int64 beside it
    assert published[("b", "index")] == "i64"
    code, out, _ = run(capsys, "table", "--policy", "max", "--vs", "seed")
    assert "4 of 256 cells differ from seed table max; all 4 are documented errata" in out
    assert "a differing cell shows max/seed" in out
    assert " f16/index" in out          # both values in the differing cell


def test_table_vs_seed_with_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "jax", "--vs", "seed")
    assert code == 0
    assert "jax: no cell of 324 differs from seed table design_jax_numpy" in out
    assert "*" not in out.replace("i*", "").replace("f*", "").replace("c*", "")


def test_table_vs_another_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "table", "--policy", "jax", "--vs", "jax-x32", "--types", "i8,u32,i32,i*",
                       "--format", "csv")
    assert code == 0
    _, cells, other, marks = read_diff_csv(out)
    assert other[("u32", "i32")] == "i32"
    # x64 off: u32 . i32 = i32 instead of i64 (JAX avoids making 64-bit types), and i* is 32-bit
    assert ("u32", "i32") in marks and ("i32", "u32") in marks
    assert ("i8", "i8") not in marks and ("i8", "i32") not in marks
    assert ("i*", "i*") in marks
    assert cells[("u32", "i32")] == "i64"
    code, out, _ = run(capsys, "table", "--policy", "max", "--vs", "jax-strict", "--types", "i8,index")
    assert out.splitlines()[-1] == "max: 3 of 4 cells differ from policy jax-strict"   # errata: only vs seed


@pytest.mark.usefixtures("cli_test_policies")
def test_table_vs_compares_materialised_dtypes_when_one_side_is_weak(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The other policy answers int64 where JAX answers i*: the same dtype in the end, so not marked.
    code, out, _ = run(capsys, "table", "--policy", "jax", "--vs", "cli-test-jax-strong", "--format", "csv",
                       "--types", "all")
    assert code == 0
    _, cells, _, marks = read_diff_csv(out)
    assert cells[("i*", "i*")] == "i*" and cells[("u64", "i8")] == "f*"
    assert marks == set()
    # ... but marked where the weak value would end up as another dtype (int32 here).
    code, out, _ = run(capsys, "table", "--policy", "jax", "--vs", "cli-test-jax-int32", "--format", "csv",
                       "--types", "all")
    _, _, _, marks = read_diff_csv(out)
    assert marks == {("i*", "i*"), ("b", "i*"), ("i*", "b")}


def test_same_result_rules() -> None:
    jax = policy("jax")
    assert same_result(weak(DType.int64), DType.int64, jax, jax)
    assert not same_result(weak(DType.int64), DType.int32, jax, jax)
    assert not same_result(weak(DType.int64), weak(DType.int32), jax, jax)   # both weak: compared as is
    assert same_result(None, None, jax, jax)
    assert not same_result(DType.int8, None, jax, jax)


@pytest.mark.skipif(not numpy_policy_available(), reason="latticecast.policies.numpy is not written yet")
def test_table_jax_vs_numpy_marks_the_cells_the_jax_docs_shade(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed jax-type-promotion-table.rst shades the cells where JAX differs from NumPy."""
    code, out, _ = run(capsys, "table", "--policy", "jax", "--vs", "numpy", "--types", JAX_DTYPES_RST_ORDER,
                       "--notation", "bytes", "--format", "csv")
    assert code == 0
    _, _, _, marks = read_diff_csv(out)
    shaded = seed_table("jax_promotion_table_marks")
    jax = policy("jax")
    checked = 0
    for (r, c), flag in shaded.cells.items():
        if DType.bfloat16 in (r, c):
            continue  # the docs shade every bfloat16 cell, NumPy having no bfloat16
        cell = (jax.type_name(r), jax.type_name(c))
        assert (cell in marks) == (flag == "d"), cell
        checked += 1
    assert checked == 14 * 14


# -- table errors ----------------------------------------------------------------------------


@pytest.mark.parametrize("argv, fragments", [
    (["table", "--policy", "nope"], ["unknown policy 'nope'", "jax", "max"]),
    (["table", "--vs", "nope"], ["unknown policy 'nope'"]),
    (["table", "--types", "i8,zz"], ["unknown type 'zz'", "int16"]),
    (["table", "--types", "index"], ["--types: index is not a dtype of policy 'jax'"]),
    (["table", "--types", ""], ["--types needs a comma-separated list"]),
    (["table", "--types", "i8,,u8"], ["empty entry"]),
    (["table", "--policy", "jax-x32", "--vs", "seed"], ["no published seed table"]),
])
def test_table_errors(capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]) -> None:
    assert_usage_error(*run(capsys, *argv), *fragments)


def test_table_unwritable_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_usage_error(*run(capsys, "table", "-o", str(tmp_path / "no" / "such" / "dir.txt")), "cannot write")


@pytest.mark.parametrize("argv", [["table", "--format", "xml"], ["table", "stray"], [], ["frobnicate"],
                                  ["lattice", "--format", "jpeg"], ["audit"]])
def test_argparse_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "usage: latticecast" in err and "error:" in err and "Traceback" not in err


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("table", "lattice", "audit", "verify", "explain", "policies", "demo"):
        assert command in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.splitlines()[0] == f"latticecast {latticecast.__version__}"


# -- lattice -----------------------------------------------------------------------------------


def parse_dot(text: str) -> tuple[dict[str, str], set[str], set[tuple[str, str]]]:
    """Node labels by id, the ids of dashed nodes, and the edges as label pairs."""
    labels = dict(re.findall(r'^\s*(n\d+) \[label="([^"]*)"', text, re.MULTILINE))
    dashed = set(re.findall(r'^\s*(n\d+) \[label="[^"]*".*style=dashed', text, re.MULTILINE))
    edges = {(labels[a], labels[b]) for a, b in re.findall(r"^\s*(n\d+) -> (n\d+);", text, re.MULTILINE)}
    return labels, dashed, edges


def expected_edges(pol: Policy) -> set[tuple[str, str]]:
    assert pol.lattice is not None
    return {(pol.type_name(a), pol.type_name(b)) for a, bs in pol.lattice.hasse_edges().items() for b in bs}


def test_lattice_dot_is_the_generating_dag_of_jax(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lattice", "--policy", "jax", "--format", "dot")
    assert code == 0
    assert out.startswith('digraph "jax" {') and out.rstrip().endswith("}")
    labels, dashed, edges = parse_dot(out)
    assert sorted(labels.values()) == sorted(policy("jax").type_name(t) for t in policy("jax").types)
    assert {labels[n] for n in dashed} == {"i*", "f*", "c*"}
    # The design note's figure, edge for edge (and no transitive shortcut such as i8 -> i32).
    low = {t for t in policy("jax").dtypes if t.is_low_precision}
    assert edges == {("b", "i*"), ("i*", "u8"), ("i*", "i8"), ("u8", "u16"), ("u8", "i16"),
                     ("u16", "u32"), ("u16", "i32"), ("u32", "u64"), ("u32", "i64"), ("u64", "f*"),
                     ("i8", "i16"), ("i16", "i32"), ("i32", "i64"), ("i64", "f*"), ("f*", "bf16"),
                     ("f*", "f16"), ("f*", "c*"), ("bf16", "f32"), ("f16", "f32"), ("f32", "f64"),
                     ("f32", "c64"), ("f64", "c128"), ("c*", "c64"), ("c64", "c128")} | \
        {("f*" if t.is_float() else "i*", policy("jax").type_name(t)) for t in low}
    assert "rankdir=BT" in out and "dashed: weakly typed" in out
    # the low-precision sinks are grouped under the one node they come from, so the picture stays readable
    assert 'label="only from f*"' in out and 'label="only from i*"' in out and "[style=invis]" in out


@pytest.mark.parametrize("name", ["max", "anvil", "array-api", "jax-strict"])
def test_lattice_dot_other_policies(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    target = tmp_path / f"{name}.dot"
    code, out, _ = run(capsys, "lattice", "--policy", name, "-o", str(target))
    assert code == 0 and out == ""
    _, dashed, edges = parse_dot(target.read_text())
    pol = policy(name)
    assert edges == expected_edges(pol)
    assert bool(dashed) == any(isinstance(t, Weak) for t in pol.lattice.nodes)  # type: ignore[union-attr]
    if name == "max":
        assert ("index", "u64") in edges and ("address", "u64") in edges and ("u64", "f16") in edges


@pytest.mark.usefixtures("cli_test_policies")
def test_lattice_of_a_table_policy_is_the_dag_its_audit_finds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lattice", "--policy", "cli-test-anvil-known")
    assert code == 0
    _, _, edges = parse_dot(out)
    table_policy, anvil = policy("cli-test-anvil-known"), policy("anvil")
    assert anvil.lattice is not None
    # anvil's known-type table is anvil's lattice (the policy spells types the design note's way)
    assert edges == {(table_policy.type_name(a), table_policy.type_name(b))
                     for a, bs in anvil.lattice.hasse_edges().items() for b in bs}
    assert ("u64", "i64") in edges
    assert "the DAG that generates its table" in out


@pytest.mark.usefixtures("cli_test_policies")
def test_lattice_of_a_table_that_is_not_a_lattice_draws_its_promotion_graph(
        capsys: pytest.CaptureFixture[str]) -> None:
    """MAX's published table is not commutative: a . b and b . a that differ are drawn as non-lattice cells."""
    code, out, _ = run(capsys, "lattice", "--policy", "cli-test-max-published")
    assert code == 0
    assert "promotion graph (not a lattice)" in out and "color=orange" in out


def test_lattice_of_numpy_draws_its_promotion_graph_with_the_cells_that_break_the_laws(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lattice", "--policy", "numpy")
    assert code == 0
    nodes, _, edges = parse_dot(out)
    assert "not a lattice" in out and "fillcolor=orange" in out and "u8 . i8 = i16" in out
    assert ("u8", "i16") in edges and ("i8", "i16") in edges     # u8 . i8 = i16
    assert "f8e4m3fn" not in nodes.values()                    # the common types by default


def test_dot_quotes_labels() -> None:
    assert quote('a"b\\c') == '"a\\"b\\\\c"'
    text = dag_to_dot({'x"y': ["z"]}, name="t", title="t")
    assert 'label="x\\"y"' in text and "n0 -> n1;" in text


@pytest.mark.skipif(not graphviz_available(), reason="needs the graphviz package and the dot program")
def test_lattice_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "jax.svg"
    code, out, _ = run(capsys, "lattice", "--policy", "jax", "--format", "svg", "-o", str(target))
    assert code == 0 and out == ""
    svg = target.read_text()
    assert "<svg" in svg
    texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    assert {"i*", "f*", "bf16", "c128"} <= texts
    lattice = policy("jax").lattice
    assert lattice is not None
    assert svg.count('class="edge"') == sum(len(up) for up in lattice.hasse_edges().values())   # invisible: none


@pytest.mark.skipif(not graphviz_available(), reason="needs the graphviz package and the dot program")
def test_lattice_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "max.png"
    code, out, _ = run(capsys, "lattice", "--policy", "max", "--format", "png", "-o", str(target))
    assert code == 0 and out == ""
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_lattice_png_needs_an_output_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(*run(capsys, "lattice", "--format", "png"), "-o FILE")


def test_lattice_png_without_the_graphviz_package(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)   # import graphviz now raises ImportError
    target = tmp_path / "x.png"
    assert_usage_error(*run(capsys, "lattice", "--format", "png", "-o", str(target)),
                       "pip install graphviz", "--format svg or --format dot")
    assert not target.exists()


def test_lattice_png_without_the_dot_program(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))            # no dot on PATH
    assert_usage_error(*run(capsys, "lattice", "--format", "png", "-o", str(tmp_path / "x.png")),
                       "dot program", "apt-get install graphviz", "--format svg or --format dot")


@pytest.mark.parametrize("missing", ["dot", "package", "engine"])
def test_lattice_svg_without_graphviz_is_drawn_by_latticecast(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    argv = ["lattice", "--policy", "jax", "--format", "svg", "-o", str(tmp_path / "x.svg")]
    if missing == "dot":
        monkeypatch.setenv("PATH", str(tmp_path))
    elif missing == "package":
        monkeypatch.setitem(sys.modules, "graphviz", None)
    else:
        argv += ["--engine", "latticecast"]              # asked for, with or without Graphviz
    code, out, err = run(capsys, *argv)
    assert code == 0 and out == "" and err == ""
    svg = (tmp_path / "x.svg").read_text()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="latticecast-lattice"')
    texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    lattice = policy("jax").lattice
    assert lattice is not None
    assert {policy("jax").type_name(t) for t in lattice.nodes} <= texts          # every type is drawn
    assert "only from f*" in texts and "only from i*" in texts                  # the groups of sinks
    # every cover is an arrow, except that one arrow into a group's box stands for its members'
    edges = sum(len(up) for up in lattice.hasse_edges().values())
    grouped = svg.count("<title>f* \u2192 ") + svg.count("<title>i* \u2192 ")
    assert svg.count('class="edge cover"') == edges - sum(
        len(m.group(1).split(", ")) - 1 for m in re.finditer(r"<title>[fi]\* \u2192 ([^<]*)</title>", svg)) and grouped


# -- audit --------------------------------------------------------------------------------------


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_audit_maxs_published_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "audit", str(SEED_TABLES / "max.csv"))
    assert code == 1 and err == ""  # not a lattice: exit 1, as verify
    assert "16 types, 256 cells, 4096 triples" in out
    assert "commutative: no, 4 pairs differ:" in out
    assert "bool . index = int64 but index . bool = uint64" in out
    assert "associative: no, 68 of 4096 triples differ" in out
    assert "  lattice: no" in out


def test_audit_reads_the_files_byte_notation(capsys: pytest.CaptureFixture[str]) -> None:
    # JAX's docs table, in JAX's byte codes (the file says so): not associative without weak types.
    code, out, _ = run(capsys, "audit", str(SEED_TABLES / "jax_promotion_table.csv"))
    assert code == 1
    assert "15 types, 225 cells, 3375 triples" in out
    assert "associative: no, 64 of 3375 triples differ" in out
    assert "(u8 . i1) . bf = f8 but u8 . (i1 . bf) = bf" in out   # the file's own spelling


def test_audit_a_lattice_with_labels_that_are_not_dtypes(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    path = write(tmp_path, "chain.md", "| | low | mid | high | side |\n|---|---|---|---|---|\n"
                                      "| low | low | mid | high | - |\n| mid | mid | mid | high | - |\n"
                                      "| high | high | high | high | - |\n| side | - | - | - | side |\n")
    code, out, _ = run(capsys, "audit", path)
    assert code == 0
    assert "commutative: yes" in out and "associative: yes (all 64 triples)" in out
    assert "lattice: yes, a partial lattice generated by 2 edges:" in out
    assert "    low -> mid\n    mid -> high\n" in out


def test_audit_rows_in_another_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "t.csv", ",a,b\nb,b,b\na,a,b\n")
    code, out, _ = run(capsys, "audit", path)
    assert code == 0 and "a -> b" in out


def test_audit_notation_decides_what_the_labels_mean(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Under byte codes i8 is int64, so 'int64' in a cell is the row i8; under bit codes i8 is int8
    # (the same type as the row int8), so the labels stay text and 'int64' is not a row at all.
    path = write(tmp_path, "t.csv", ",int8,i8\nint8,int8,int64\ni8,int64,i8\n")
    code, out, _ = run(capsys, "audit", path, "--notation", "bytes")
    assert code == 0
    assert "lattice: yes" in out and "int8 -> i8" in out
    code, out, _ = run(capsys, "audit", path)          # default: bits (no '# notation' comment)
    assert code == 1 and "closed: no" in out and "lattice: no" in out
    code, out, _ = run(capsys, "audit", write(tmp_path, "b.csv", "# notation: bytes\n" + Path(path).read_text()))
    assert "lattice: yes" in out


def test_audit_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "audit", str(SEED_TABLES / "max.csv"), "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["types"][:3] == ["bool", "int8", "int16"]
    assert data["cells"] == 256 and data["defined_cells"] == 256 and data["complete"] is True
    assert data["commutative"] is False and len(data["non_commutative"]) == 4
    assert {"a": "bool", "b": "index", "a.b": "int64", "b.a": "uint64"} in data["non_commutative"]
    assert data["associative"] is False
    assert data["triples"] == 4096 and data["non_associative_triples"] == 68
    assert data["lattice"] is False and data["generator"] is None and data["lattice_problems"]
    code, out, _ = run(capsys, "audit", str(SEED_TABLES / "anvil_known.csv"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["lattice"] is True and data["associative"] is True
    assert data["generator"]["i1"] == ["i8", "ui8"] and data["generator"]["f64"] == []


@pytest.mark.parametrize("text, fragments", [
    (",a,b\na,a,b\nb,b\n", [":3: row has 1 cells, the header has 2 columns"]),
    (",a,a\na,a,a\n", [":1: column 'a' appears twice"]),
    (",a,b\na,a,b\na,b,b\n", [":3: row 'a' appears twice"]),
    ("# only a comment\n", ["empty table"]),
    (",a,b\n", ["header but no rows"]),
    (",a,b\na,a,b\nc,b,b\n", ["not square", "rows only: c", "columns only: b"]),
])
def test_audit_malformed_files(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str,
                               fragments: list[str]) -> None:
    path = write(tmp_path, "bad.csv", text)
    assert_usage_error(*run(capsys, "audit", path), path, *fragments)


def test_audit_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(tmp_path / "missing.csv")
    assert_usage_error(*run(capsys, "audit", path), path, "cannot read table file")


# -- verify --------------------------------------------------------------------------------------


def test_verify_jax(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "jax")
    assert code == 0
    assert out.count("=> commutative: yes; associative: yes; lattice: yes") == 3   # policy, seed, measured
    assert "== published: seed table design_jax_numpy ==" in out
    assert "the policy gives the same dtype as this table in all 324 cells" in out
    assert "== measured: jax_x64_add (jnp.add in jax 0.10.2" in out
    assert "the policy gives the same dtype as this table in all 1225 cells" in out
    assert out.rstrip().endswith("result: policy jax is a (partial) lattice")


def test_verify_max_lists_the_published_tables_faults_and_the_errata(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "max")
    published = out[out.index("== published: seed table max =="):]
    assert ("=> commutative: no (4 pairs with a.b != b.a); associative: no (68 of 4096 triples fail); "
            "lattice: no") in published
    assert "the policy differs from this table in 4 of 256 cells, all documented errata:" in published
    for why in evidence("max").errata.values():
        assert why in published
    assert "b . index: published i64, policy u64" in published
    # MAX's Python scalars are not lattice nodes (a scalar takes the other operand's dtype, two
    # scalars never promote): the lattice is judged on the 16 dtypes, and the exit code says it is one.
    lattice = out[out.index("== the lattice: the policy's 16 dtypes"):out.index("== published")]
    assert "=> commutative: yes; associative: yes; lattice: yes" in lattice
    assert "Python scalars (i*, f*) are not lattice nodes in max" in lattice
    assert out.rstrip().endswith("result: policy max is a (partial) lattice")
    assert code == 0


def test_verify_anvil_says_the_literal_reading_is_not_associative(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "anvil")
    assert code == 0
    literal = out[out.index("read literally"):]
    assert "associative: no, 350 of 10648 triples differ" in literal
    assert "=> commutative: yes; associative: no (350 of 10648 triples fail); lattice: no" in literal
    assert "in 52 cells only weakness differs" in literal
    known = out[out.index("== published: seed table anvil_known =="):out.index("read literally")]
    assert "=> commutative: yes; associative: yes; lattice: yes" in known


def test_verify_jax_lax_erratum_and_partial_lattice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "jax-lax")
    assert code == 0
    assert "lattice: yes (a partial lattice: some pairs have no promotion)" in out
    assert "b . b: published -, policy b (erratum: the seed table was made with lax.add" in out


def test_verify_a_policy_without_seed_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "jax-x32")
    assert code == 0 and "(policy jax-x32 has no published seed table)" in out


@pytest.mark.usefixtures("cli_test_policies")
def test_verify_exit_1_for_a_table_that_is_not_a_lattice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "cli-test-max-published")
    assert code == 1
    assert "associative: no (68 of 4096 triples fail)" in out


@pytest.mark.skipif(not numpy_policy_available(), reason="latticecast.policies.numpy is not written yet")
def test_verify_numpy_is_not_a_lattice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--policy", "numpy")
    assert code == 1 and "is NOT a (partial) lattice" in out


def test_verify_unknown_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(*run(capsys, "verify", "--policy", "nump"), "unknown policy 'nump'")


# -- explain -----------------------------------------------------------------------------------


def test_explain_shows_the_lattice_paths(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "int16", "bf16", "--policy", "jax")
    assert code == 0
    assert out.splitlines()[0].startswith("i16 . bf16 under jax") and out.splitlines()[0].endswith("= bf16")
    assert "  i16 -> i32 -> i64 -> f* -> bf16" in out.splitlines()


def test_explain_max_and_anvil(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "i8", "u64", "--policy", "max")
    assert code == 0 and out.splitlines()[0].endswith("= f16")
    code, out, _ = run(capsys, "explain", "i1?", "i8", "--policy", "anvil")
    assert code == 0 and out.splitlines()[0].endswith("= i8")
    assert "rule: ambiguous meets known" in out


def test_explain_byte_notation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "i1", "i8", "--notation", "bytes")
    assert code == 0 and out.startswith("i8 . i64 under jax")


def test_explain_an_undefined_promotion_names_the_cast(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "i8", "f32", "--policy", "array-api")
    assert code == 0
    assert ": undefined" in out.splitlines()[0] and "cast i8 to float32" in out


@pytest.mark.parametrize("argv, fragments", [
    (["explain", "foo", "i8"], ["unknown type 'foo'"]),
    (["explain", "index", "i8", "--policy", "jax"], ["index is not a dtype of policy 'jax'"]),
    (["explain", "i8", "i8", "--policy", "nope"], ["unknown policy 'nope'"]),
])
def test_explain_errors(capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]) -> None:
    assert_usage_error(*run(capsys, *argv), *fragments)


# -- policies ------------------------------------------------------------------------------------


def test_policies_lists_every_policy_with_title_and_lattice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "policies")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["policy", "lattice", "title"]
    rows = {ln.split()[0]: ln for ln in lines[1:]}
    assert set(rows) >= set(latticecast.policies())
    expected = {"jax": "yes", "jax-lax": "yes (partial)", "max": "yes (dtypes)", "anvil": "yes", "numpy": "no"}
    for name in latticecast.policies():
        try:
            pol = policy(name)
        except ModuleNotFoundError:
            assert "(not available in this installation)" in rows[name]
            assert f"policy {name!r} is registered but its module" in err
            continue
        assert pol.title in rows[name]
        columns = rows[name][len(name):].strip()
        scope = pol.lattice_scope
        report = audit(pol.table(scope))
        lattice = "yes" if report.is_lattice else "no"
        assert columns.startswith(expected.get(name, lattice))
        assert ("(dtypes)" in columns) == (tuple(scope) != tuple(pol.types))


# -- demo ------------------------------------------------------------------------------------------


def test_demo_module_exists() -> None:
    import latticecast.demo

    assert callable(latticecast.demo.main)


def test_demo_dispatches_with_its_arguments(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import latticecast.demo

    seen: list[list[str]] = []

    def fake(argv: list[str]) -> int:
        seen.append(list(argv))
        return 3

    monkeypatch.setattr(latticecast.demo, "main", fake)
    assert main(["demo", "--fast", "x", "-h"]) == 3
    assert seen == [["--fast", "x", "-h"]]


def test_demo_exit_from_its_parser_becomes_the_return_code(monkeypatch: pytest.MonkeyPatch) -> None:
    import latticecast.demo

    def fake(argv: list[str]) -> int:
        raise SystemExit(0)

    monkeypatch.setattr(latticecast.demo, "main", fake)
    assert main(["demo", "--help"]) == 0


# -- error boundary ---------------------------------------------------------------------------------


def test_unexpected_exceptions_are_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(info_cmd, "run_policies", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["policies"])


@pytest.mark.usefixtures("cli_test_policies")
def test_a_missing_policy_module_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> Policy:
        raise ModuleNotFoundError("No module named 'latticecast.policies.cli_test_gone'",
                                  name="latticecast.policies.cli_test_gone")

    register_policy("cli-test-gone", missing)
    assert_usage_error(*run(capsys, "verify", "--policy", "cli-test-gone"),
                       "module latticecast.policies.cli_test_gone is not available")

    def broken_import() -> Policy:
        raise ModuleNotFoundError("No module named 'somedep'", name="somedep")

    register_policy("cli-test-broken", broken_import)
    with pytest.raises(ModuleNotFoundError):   # a policy's own missing dependency is a bug: it surfaces
        main(["verify", "--policy", "cli-test-broken"])


# -- the installed console script --------------------------------------------------------------------


def console_script() -> str:
    here = Path(sys.executable).parent / "latticecast"
    found = str(here) if here.exists() else shutil.which("latticecast")
    if found is None:
        pytest.fail("the latticecast console script is not installed (pip install -e .)")
    return found


def test_console_script_table(tmp_path: Path) -> None:
    proc = subprocess.run([console_script(), "table", "--policy", "max", "--vs", "seed", "--format", "csv"],
                          check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    _, _, _, marks = read_diff_csv(proc.stdout)
    assert marks == MAX_ERRATA


def test_console_script_verify_exit_code() -> None:
    proc = subprocess.run([console_script(), "verify", "--policy", "numpy"], check=False, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1
    assert "is NOT a (partial) lattice" in proc.stdout
    proc = subprocess.run([console_script(), "verify", "--policy", "max"], check=False, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0
    assert "68 of 4096 triples fail" in proc.stdout


def test_console_script_error_is_one_line_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text("| | a | b |\n|---|---|---|\n| a | a |\n")
    proc = subprocess.run([console_script(), "audit", str(bad)], check=False, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"latticecast: error: {bad}:3: row has 1 cells, the header has 2 columns\n"


@pytest.mark.parametrize("name, table, cells", [
    ("jax-strict", "jax_strict_add", 1225), ("jax-x32", "jax_x32_add", 1225), ("numpy", "numpy_promote_types", 1225),
    ("tensorflow", "tensorflow_lowp_multiply", 364), ("torch", "torch_result_type", 900)])
def test_verify_shows_the_measured_tables(capsys: pytest.CaptureFixture[str], name: str, table: str,
                                          cells: int) -> None:
    """Every policy with live measurements shows them, and where the policy departs (PyTorch's
    complex32, which latticecast lacks) the departure is a documented known gap."""
    code, out, _ = run(capsys, "verify", "--policy", name)
    assert code in (0, 1)
    measured = out[out.index(f"== measured: {table} ("):]
    if name == "torch":
        assert "the policy differs from this table in 2 of 900 cells, all known gaps:" in measured
        assert "f16 . c*: published complex32, policy c64 (known gap: PyTorch gives complex32" in measured
    else:
        assert f"the policy gives the same dtype as this table in all {cells} cells" in measured
