"""The documentation's pictures and tables, checked as a reader sees them: in headless chromium.

The pages with pictures (the policies page, the guide, the comparison page) are built with Sphinx,
once with Graphviz's ``dot`` on PATH where it is installed and once without it (latticecast then
lays the SVG out itself), and each page is opened in ``chromium --headless``: a script measures
every picture, table box and code block, and the test asserts that the pictures are there, drawn
and in view (not cut off at the page's right edge), that each table scrolls inside its own box
with its header row and first column sticky, and that no code block hides text behind a
horizontal scroll. A screenshot of each page is written (to ``$LATTICECAST_SCREENSHOTS`` when set).
The tests skip without a browser (``apt-get install chromium``).
"""

from __future__ import annotations

import html
import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import latticecast as lc
from headless import browser

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("policies", "guide", "comparison")
WIDTH, HEIGHT = 1400, 1000


needs_browser = pytest.mark.skipif(browser() is None, reason="needs a headless browser (apt-get install chromium)")

PROBE = """<script>
window.addEventListener("load", () => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
                                                                     width: r.width, height: r.height}; };
  const svgs = [...document.querySelectorAll("svg")].filter((s) => s.closest("figure, .latticecast-picture"))
    .map((s) => ({...box(s), texts: s.querySelectorAll("text").length,
                  label: (s.closest("figure").querySelector("figcaption") || {}).textContent || ""}));
  const scrolls = [...document.querySelectorAll(".lc-scroll")].map((d) => ({...box(d),
    scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, overflowX: getComputedStyle(d).overflowX,
    head: getComputedStyle(d.querySelector("thead th")).position,
    first: d.querySelector("tbody th") ? getComputedStyle(d.querySelector("tbody th")).position : "",
    cells: d.querySelectorAll("tbody td").length}));
  const hidden = [...document.querySelectorAll("div.highlight pre, pre.literal-block")]
    .filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent.slice(0, 80));
  const out = document.createElement("pre"); out.id = "probe";
  out.textContent = JSON.stringify({svgs, scrolls, hidden, viewport: window.innerWidth,
                                    page: document.documentElement.scrollWidth});
  document.body.appendChild(out);
});
</script>"""


def build(out: Path, env: dict[str, str]) -> Path:
    """The three pages (and only those: the others are excluded) in ``out``."""
    others = [p.name for p in (ROOT / "docs").glob("*.rst") if p.stem not in (*PAGES, "index")]
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D",
                    "exclude_patterns=" + ",".join(["_build", *others]), str(ROOT / "docs"), str(out)],
                   check=True, capture_output=True, text=True, env=env, timeout=600)
    return out


@pytest.fixture(scope="module", params=["graphviz", "latticecast"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    if browser() is None:
        pytest.skip("needs a headless browser (apt-get install chromium)")
    env = dict(os.environ)
    if request.param == "graphviz":
        from latticecast.cli.render_graph import missing_renderers

        if missing_renderers():
            pytest.skip("Graphviz is not installed: the other build covers latticecast's own layout")
    else:  # no dot on PATH: the pictures are laid out by latticecast
        empty = tmp_path_factory.mktemp("no-dot")
        env["PATH"] = str(empty)
    return request.param, build(tmp_path_factory.mktemp(f"docs-{request.param}"), env)


def probe(page: Path) -> dict[str, object]:
    probed = page.with_name(page.stem + "-probed.html")
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    command = [browser() or "", "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={WIDTH},{HEIGHT}",
               "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=180, check=True).stdout
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    seen: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return seen


def screenshot(page: Path, name: str) -> Path:
    where = Path(os.environ.get("LATTICECAST_SCREENSHOTS") or page.parent)
    where.mkdir(parents=True, exist_ok=True)
    shot = where / f"{name}.png"
    subprocess.run([browser() or "", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, timeout=180, check=True)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (WIDTH, HEIGHT)
    assert len(data) > 40_000                      # a page with pictures, not a blank one
    return shot


def in_view(item: dict[str, float], viewport: float) -> bool:
    return item["width"] > 100 and item["height"] > 60 and item["left"] >= 0 and item["right"] <= viewport + 1


@needs_browser
def test_the_policies_page_shows_every_lattice_and_scrolls_its_tables(built: tuple[str, Path]) -> None:
    engine, out = built
    seen = probe(out / "policies.html")
    svgs, scrolls, viewport = seen["svgs"], seen["scrolls"], seen["viewport"]
    assert isinstance(svgs, list) and isinstance(scrolls, list) and isinstance(viewport, (int, float))
    assert len(svgs) == len(lc.policies())                        # one picture per policy
    assert all(in_view(s, viewport) and s["texts"] >= 5 for s in svgs), svgs
    assert seen["page"] <= viewport                               # nothing widens the page
    assert len(scrolls) == len(lc.policies())                     # one table per policy, each in its box
    jax = scrolls[0]
    assert jax["cells"] == 35 * 35 and jax["scrollWidth"] > jax["clientWidth"] and jax["overflowX"] == "auto"
    assert all(s["right"] <= viewport + 1 and s["head"] == "sticky" and s["first"] == "sticky" for s in scrolls)
    screenshot(out / "policies.html", f"docs-policies-{engine}")


@needs_browser
def test_the_guide_shows_jaxs_lattice_and_wraps_its_code(built: tuple[str, Path]) -> None:
    engine, out = built
    seen = probe(out / "guide.html")
    svgs = seen["svgs"]
    assert isinstance(svgs, list) and len(svgs) == 1 and in_view(svgs[0], seen["viewport"])  # type: ignore[arg-type]
    assert "promotion lattice" in svgs[0]["label"]
    assert seen["hidden"] == []                                   # no code line cut off behind a scroll
    screenshot(out / "guide.html", f"docs-guide-{engine}")


@needs_browser
def test_the_comparison_page_shows_each_pair_as_a_picture_and_a_heat_map(built: tuple[str, Path]) -> None:
    engine, out = built
    seen = probe(out / "comparison.html")
    svgs, scrolls, viewport = seen["svgs"], seen["scrolls"], seen["viewport"]
    assert isinstance(svgs, list) and isinstance(scrolls, list) and isinstance(viewport, (int, float))
    pairs = len(re.findall(r"\.\. latticecast-comparison::", (ROOT / "docs" / "comparison.rst").read_text()))
    assert len(svgs) == pairs and len(scrolls) == pairs and pairs >= 3
    assert all(in_view(s, viewport) for s in svgs), svgs
    assert all(s["right"] <= viewport + 1 and s["head"] == "sticky" and s["cells"] > 100 for s in scrolls)
    text = (out / "comparison.html").read_text(encoding="utf-8")
    assert 'class="diff' in text and "direct promotions" in text
    screenshot(out / "comparison.html", f"docs-comparison-{engine}")
