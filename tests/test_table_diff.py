"""``latticecast table --vs``: comparisons a person can read (issue 16), and the promotion graph of any policy.

The HTML page is opened in a real headless browser (Debian's ``chromium``) where one is installed: its
heat map must render (differing cells coloured, same cells not) and a screenshot must be written.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

import headless
from latticecast import policy
from latticecast.cli.main import main
from latticecast.cli.table_diff import COMMON_TYPES, default_types
from latticecast.promotion.promotion_graph import promotion_graph


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_a_comparison_shows_the_common_types_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--wide")
    header = out.splitlines()[0].split()
    assert header == [policy("torch").type_name(t) for t in default_types(policy("torch"))]
    assert set(header) <= set(COMMON_TYPES) and "f8e4m3fn" not in header
    assert len(out.splitlines()[0]) < 200          # was about 370 columns with every type
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax")
    assert max(len(line) for line in out.splitlines()[:-1]) <= 100    # the last line is the count


def test_a_differing_cell_shows_both_values(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--types", "u16,i8,f32,f*")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:5]}
    assert rows["u16"][1] == "-/i32"               # torch refuses u16 . i8; JAX gives int32
    assert rows["f32"][3] == "f32"                 # the same on both sides: one value
    assert "a differing cell shows torch/jax" in out


def test_only_diffs_lists_pair_this_other(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--types", "u16,i8,f32", "--only-diffs")
    lines = [line.split() for line in out.splitlines()]
    assert lines[0] == ["pair", "torch", "jax"]
    assert ["u16", ".", "i8", "-", "i32"] in lines and ["i8", ".", "u16", "-", "i32"] in lines
    assert len(lines) == 3
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--types", "u16,i8", "--only-diffs",
              "--format", "csv")
    assert list(csv.reader(io.StringIO(out))) == [["pair", "torch", "jax"], ["u16 . i8", "-", "i32"],
                                                  ["i8 . u16", "-", "i32"]]


def test_only_diffs_needs_vs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--only-diffs"]) == 2
    assert "--only-diffs lists the cells that differ from another policy: give --vs Q too" in capsys.readouterr().err


def test_the_csv_has_one_value_column_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--types", "i8,i*", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["row", "column", "torch", "jax", "differs"]
    assert ["i*", "i*", "i64", "i*", "0"] in rows  # a weak result equal to the other side's dtype is no difference
    assert all(not cell.endswith("**") for row in rows for cell in row)   # no marker inside a value


def test_the_text_says_when_it_is_wider_than_the_terminal(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--wide")
    assert re.search(r"the table is \d+ columns wide and the terminal 80: leave out --wide, or use --only-diffs", out)
    monkeypatch.setenv("COLUMNS", "400")
    assert "columns wide" not in run(capsys, "table", "--policy", "torch", "--vs", "jax", "--wide")


# -- the promotion graph ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["jax", "array-api", "max"])
def test_the_promotion_graph_of_a_lattice_policy_is_its_generating_dag(name: str) -> None:
    pol = policy(name)
    assert pol.lattice is not None
    graph = promotion_graph(pol, list(pol.lattice.nodes))
    hasse = pol.lattice.hasse_edges()
    assert {n: set(up) for n, up in graph.covers.items()} == {n: set(up) for n, up in hasse.items()}
    assert not graph.non_lattice and not graph.cycles


def test_the_promotion_graph_marks_refusals_and_cells_that_break_the_lattice_laws() -> None:
    torch = policy("torch")
    graph = promotion_graph(torch, [torch.canonical(t) for t in ("b", "u8", "i8", "u16", "i16", "f32")])
    names = {tuple(torch.type_name(t) for t in pair) for pair in graph.refusals}
    assert ("i8", "u16") in names and ("u8", "u16") in names and ("u16", "f32") not in names
    numpy = policy("numpy")
    graph = promotion_graph(numpy, default_types(numpy))
    cells = {tuple(numpy.type_name(t) for t in cell) for cell in graph.non_lattice}
    assert ("u8", "i8", "i16") in cells            # f16 is above u8 and i8 too, and not above i16
    assert not graph.is_lattice


def test_every_policy_has_a_picture(capsys: pytest.CaptureFixture[str]) -> None:
    from latticecast import policies

    for name in policies():
        out = run(capsys, "lattice", "--policy", name)
        assert out.startswith("digraph") and " -> " in out, name


# -- the HTML page in a real browser -----------------------------------------------------------------


PROBE = """<script>
const cell = (sel) => getComputedStyle(document.querySelector(sel)).backgroundColor;
const out = document.createElement("pre"); out.id = "probe";
out.textContent = JSON.stringify({diff: cell("td.diff:not(.refused)"), refused: cell("td.diff.refused"), same: cell("td.same"),
  cells: document.querySelectorAll("#heat td").length, listed: document.querySelectorAll("#diffs tbody tr").length,
  width: document.querySelector("#heat").getBoundingClientRect().width});
document.body.appendChild(out);
</script>"""


@pytest.mark.skipif(headless.browser() is None, reason="needs a headless browser (apt-get install chromium)")
def test_the_html_page_renders_its_heat_map_in_a_real_browser(tmp_path: Path) -> None:
    page = tmp_path / "torch-vs-jax.html"
    assert main(["table", "--policy", "torch", "--vs", "jax", "--format", "html", "-o", str(page)]) == 0
    seen = headless.probe(page, PROBE, 1600, 1000)
    assert seen["diff"] == "rgb(244, 162, 97)" and seen["refused"] == "rgb(231, 111, 81)"
    assert seen["same"] == "rgb(255, 255, 255)"
    assert seen["cells"] == 19 * 19 and seen["listed"] == 102 and seen["width"] > 400
    data = headless.screenshot(page, tmp_path / "torch-vs-jax.png", 1600, 1000)
    assert len(data) > 50_000                      # a picture of a table, not a blank page
