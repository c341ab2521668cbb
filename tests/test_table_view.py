"""``latticecast table`` as a person reads it (issue 28): text that fits the terminal (100 columns by
default) in bands of short codes with a legend, ``--wide`` for one grid, and one HTML writer whose
pages honour every flag as the text does.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from latticecast import policy
from latticecast.cli.main import main
from latticecast.cli.table_view import FROM_CODE, compact


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def bands(text: str) -> dict[str, dict[str, str]]:
    """The cells of a banded text table: row code -> column code -> cell (every band joined)."""
    cells: dict[str, dict[str, str]] = {}
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("(columns"):
            header = None
            continue
        if header is None:
            header = line.split()
            continue
        parts = line.split()
        if "=" in line or len(parts) != len(header) + 1:   # the legend and notes follow the table
            break
        cells.setdefault(parts[0], {}).update(zip(header, parts[1:]))
    return cells


@pytest.mark.parametrize("name", ["jax", "numpy", "torch", "max-python", "tensorflow"])
def test_every_table_fits_100_columns_by_default_and_keeps_every_cell(capsys: pytest.CaptureFixture[str],
                                                                     name: str) -> None:
    out = run(capsys, "table", "--policy", name)
    assert max(len(line) for line in out.splitlines()) <= 100
    pol = policy(name)
    cells = bands(out)
    codes = [compact(pol.type_name(t)) for t in pol.types]
    assert list(cells) == codes and all(list(row) == codes for row in cells.values())
    for a in pol.types[::3]:
        for b in pol.types[::4]:
            result = pol.try_promote(a, b)
            want = "-" if result is None else compact(pol.type_name(result))
            assert cells[compact(pol.type_name(a))][compact(pol.type_name(b))] == want


def test_jaxs_35_types_take_three_bands_of_short_codes_and_a_legend(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "jax")
    assert re.findall(r"^\(columns (\d+)-(\d+) of 35\)$", out, re.M) == [("1", "13"), ("14", "30"), ("31", "35")]
    assert "e4m3fn" in out and "f8e4m3fn" not in out.split("bf=bfloat16")[0]   # codes in the table
    legend = out[out.index("b=bool"):]
    for code, name in (("bf", "bfloat16"), ("e4m3fn", "float8_e4m3fn"), ("e4m3b11", "float8_e4m3b11fnuz"),
                       ("i*", "weak\xa0int64"), ("u64", "uint64")):
        assert f"{code}={name}" in legend
    assert "-: no promotion" in out and "Python scalars" in out


def test_the_terminals_width_is_used_where_known(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    narrow = run(capsys, "table", "--policy", "jax")
    assert max(len(line) for line in narrow.splitlines()) <= 60 and narrow.count("(columns") > 3
    monkeypatch.setenv("COLUMNS", "250")
    wide = run(capsys, "table", "--policy", "jax")
    assert "(columns" not in wide and max(len(line) for line in wide.splitlines()) <= 250   # one band


def test_wide_is_one_grid_in_the_policys_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "jax", "--wide")
    assert len(out.splitlines()[0]) > 400 and "(columns" not in out and "f8e4m3b11fnuz" in out.splitlines()[0]
    assert "bfloat16" not in out                                  # no legend: today's layout


def test_types_narrow_the_table_and_take_the_codes_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "table", "--policy", "jax", "--types", "bf,e4m3fn,i8,f*")
    assert out.splitlines()[0].split() == ["bf", "e4m3fn", "i8", "f*"] and "(columns" not in out
    assert bands(out)["i8"]["e4m3fn"] == "e4m3fn" and bands(out)["bf"]["e4m3fn"] == "-"
    assert set(FROM_CODE) >= {"bf", "e4m3fn", "e5m2fz", "e8m0fu"}


def test_only_diffs_means_the_same_in_text_and_html(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["table", "--policy", "torch", "--vs", "jax", "--types", "u16,i8,f32,f*"]
    text = run(capsys, *argv, "--only-diffs")
    listed = [tuple(line.split()) for line in text.splitlines()[1:]]
    page = run(capsys, *argv, "--only-diffs", "--format", "html")
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>",
                      page[page.index('id="diffs"'):])
    assert [tuple(" ".join(html.unescape(c).split()) for c in row) for row in rows] == \
        [(f"{a} {dot} {b}", x, y) for a, dot, b, x, y in listed]
    assert 'id="heat"' not in page                              # only the differing pairs, as in text
    full = run(capsys, *argv, "--format", "html")
    assert 'id="heat"' in full and full != page                 # was byte-identical before
    assert page.count('class="lc-figure"') == 1 and "direct promotions" in page   # the picture of the differences


@pytest.mark.parametrize("vs", [None, "jax"])
def test_every_html_form_is_a_full_page_with_title_legend_and_sticky_header(capsys: pytest.CaptureFixture[str],
                                                                           vs: str | None) -> None:
    argv = ["table", "--policy", "numpy", "--format", "html"] + (["--vs", vs] if vs else [])
    page = run(capsys, *argv)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    title = re.search(r"<title>([^<]+)</title>", page)
    assert title and title.group(1).startswith("numpy")
    assert 'id="legend"' in page and "position: sticky" in page and 'class="lc-scroll"' in page
    assert "<svg" in page and "<pre>" not in page                # a picture, never raw DOT text


def test_html_honours_types_and_wide(capsys: pytest.CaptureFixture[str]) -> None:
    page = run(capsys, "table", "--policy", "jax", "--types", "i8,bf16,f8e4m3fn", "--format", "html")
    heads = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', page)
    assert heads == ["i8", "bf", "e4m3fn"]
    wide = run(capsys, "table", "--policy", "jax", "--types", "i8,bf16,f8e4m3fn", "--format", "html", "--wide")
    assert re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', wide) == ["i8", "bf16", "f8e4m3fn"]


def test_html_pictures_need_no_graphviz(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    page = run(capsys, "table", "--policy", "torch", "--vs", "jax", "--format", "html")
    assert page.count('class="latticecast-lattice"') == 3       # the differences, then each policy
