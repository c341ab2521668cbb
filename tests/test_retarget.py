"""``latticecast compare --from``, ``latticecast retarget`` and ``lc.retarget`` (issue 24).

The repro of the issue (a JAX module with x64: ``t * 0.5`` and ``t + u`` for int32 ``t`` and uint32
``u``) is lowered here, from this file, so its Python lines are this file's. A retargeting is checked
against a real system: a program JAX lowered with x64 off, retargeted to policy ``jax`` (x64 on),
computes what JAX computes with x64 on.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import headless  # noqa: E402
import jax_corpus as jc  # noqa: E402

import latticecast as lc  # noqa: E402
from latticecast.cli.main import main  # noqa: E402
from latticecast.retargeting.report import build_report, render_text  # noqa: E402
from latticecast.retargeting.run import differences, draw_inputs  # noqa: E402

TORCH_DIR = Path(__file__).parent / "data" / "torch_mlir"


def repro(debug: bool) -> str:
    with jax.enable_x64(True):
        lowered = jax.jit(lambda t, u: (t * 0.5, t + u)).lower(np.arange(4, dtype=np.int32),
                                                                np.arange(4, dtype=np.uint32))
    return lowered.as_text(debug_info=debug)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- compare ----------------------------------------------------------------------------------------


def test_the_repro_compare_without_from_says_the_ir_is_legalised(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.mlir"
    path.write_text(repro(False))
    code, out, err = cli(capsys, "compare", str(path), "--policy", "torch", "--vs", "jax")
    assert code == 2 and out == ""
    assert "already written as stablehlo.convert ops (it has been legalised)" in err and "--from" in err
    assert "0 ops differ" not in out + err and "same dtype" not in out + err


def test_the_repro_lists_both_ops_with_their_python_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.mlir"
    path.write_text(repro(True))
    code, out, _ = cli(capsys, "compare", str(path), "--from", "jax", "--vs", "torch")
    assert code == 0
    lines = out.splitlines()
    here = Path(__file__).name
    mul = next(i for i, line in enumerate(lines) if "'stablehlo.multiply': jax f64, torch f32" in line)
    add = next(i for i, line in enumerate(lines) if "'stablehlo.add': jax i64, torch refuses it" in line)
    for i in (mul, add):
        assert here in lines[i] and re.search(r"\[.*j\.mlir:\d+:\d+\]", lines[i])   # Python and MLIR lines
        assert "lambda t, u: (t * 0.5, t + u)" in lines[i + 1]                      # the Python source line
    assert lines[mul + 2].strip() == "^~~~~~~"                                      # under `t * 0.5`
    assert lines[add + 2].strip() == "^~~~~"                                        # under `t + u`
    assert "Promotion for uint16, uint32, uint64 types is not supported" in out
    assert "2 ops differ in dtype between jax and torch (1 refused); lifted under jax: 3 converts, 1 weak literal" in out


def test_compare_from_without_locations_names_mlir_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.mlir"
    path.write_text(repro(False))
    code, out, _ = cli(capsys, "compare", str(path), "--from", "jax", "--vs", "torch")
    assert code == 0
    assert f"{path}:6:10: 'stablehlo.multiply': jax f64, torch f32" in out
    assert f"{path}:9:10: 'stablehlo.add': jax i64, torch refuses it" in out


def test_compare_from_on_a_module_with_nothing_to_lift_says_so(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.mlir"
    path.write_text(jax.jit(lambda x: x * x).lower(np.ones(3, np.float32)).as_text())
    code, out, _ = cli(capsys, "compare", str(path), "--from", "jax", "--vs", "torch")
    assert code == 0 and "found no promotion of 'jax' to take out" in out and "0 ops differ" not in out


def test_compare_from_and_policy_must_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.mlir"
    path.write_text(repro(False))
    code, _, err = cli(capsys, "compare", str(path), "--from", "jax", "--policy", "torch", "--vs", "numpy")
    assert code == 2 and "give the policy once" in err


def test_the_torch_mlir_direction(capsys: pytest.CaptureFixture[str]) -> None:
    """torch-mlir's `(a * 0.5 + 1) * 3` for int32 `a`: float32 in PyTorch, float64 in JAX with x64."""
    path = TORCH_DIR / "mul_i32_float_scalar_chain.mlir"
    code, out, _ = cli(capsys, "compare", str(path), "--from", "torch", "--vs", "jax")
    assert code == 0
    assert out.count("torch f32, jax f64") == 3 and "@main outputs: torch (f32), jax (f64)" in out
    code, out, _ = cli(capsys, "compare", str(TORCH_DIR / "add_f16_zero_d_f32.mlir"), "--from", "torch", "--vs", "jax")
    assert "'stablehlo.add': torch f16, jax f32" in out          # PyTorch's 0-d rule; JAX has none


# -- retarget ---------------------------------------------------------------------------------------


X32_PROGRAMS = {
    "int_times_float": (lambda t: t * 0.5, (np.arange(4, dtype=np.int32),)),
    "int_plus_float_array": (lambda t, x: t + x * 0.1, (np.arange(4, dtype=np.int32), np.ones(4, np.float32))),
    "uint8_and_int8": (lambda a, b: a + b, (np.arange(4, dtype=np.uint8), np.arange(4, dtype=np.int8))),
    "true_division_by_a_float": (lambda a: a / 3.0, (np.arange(5, dtype=np.int32),)),
    "literal_chain": (lambda a, x: (a * 3 + 1) * 0.25 + x, (np.arange(3, dtype=np.int16), np.ones(3, np.float32))),
}


@pytest.mark.parametrize("name", sorted(X32_PROGRAMS))
def test_retargeting_to_x64_computes_what_jax_computes_with_x64(name: str) -> None:
    """A real system as the oracle: lowered by JAX with x64 off, lifted under jax-x32 and legalised under
    jax (x64 on), the program computes exactly what JAX computes with x64 on, dtypes included. (Not
    ``a / 3``: JAX writes the int 3 of a true division as the float 3.0 it becomes, so the IR reads as
    ``a / 3.0``, which is float64 with x64 where ``a / 3`` is float32.)"""
    fn, args = X32_PROGRAMS[name]
    text = jax.jit(fn).lower(*args).as_text()
    r = lc.retarget(text, from_="jax-x32", to="jax")
    with jax.enable_x64(True):
        expected = [np.asarray(v) for v in jax.tree.leaves(jax.jit(fn)(*args))]
    got = lc.compile(r.module)(*args)
    assert [g.dtype for g in got] == [e.dtype for e in expected]
    assert all(np.array_equal(g, e) for g, e in zip(got, expected))


def test_retarget_writes_the_program_and_refuses_what_the_target_refuses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.mlir"
    path.write_text(repro(True))
    out_file = tmp_path / "out.mlir"
    code, out, err = cli(capsys, "retarget", str(path), "--from", "jax", "--to", "torch", "-o", str(out_file))
    assert code == 1 and not out_file.exists()
    assert re.search(r"test_retarget\.py:\d+:\d+: error: 'stablehlo.add' op no implicit promotion of i32 and u32 "
                     r"under policy 'torch'", err)
    assert "lambda t, u" in err and "^" in err                       # the source line and a caret
    code, out, err = cli(capsys, "retarget", str(path), "--from", "jax", "--to", "jax-x32", "-o", str(out_file))
    assert code == 0 and "2 ops differ in dtype between jax and jax-x32" in out
    legal = out_file.read_text()
    t = np.array([1, -2, 3, 7], np.int32)
    u = np.array([1, 2, 3, 4], np.uint32)
    half, total = lc.compile(legal)(t, u)
    assert half.dtype == np.float32 and total.dtype == np.int32      # JAX with x64 off: f32 and i64 -> i32
    assert np.array_equal(half, t * np.float32(0.5)) and np.array_equal(total, (t + u.astype(np.int64)).astype(np.int32))


def test_retarget_without_output_prints_the_program_and_the_report_on_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.mlir"
    path.write_text(jax.jit(lambda t: t * 0.5).lower(np.arange(4, dtype=np.int32)).as_text())
    code, out, err = cli(capsys, "retarget", str(path), "--from", "jax-x32", "--to", "jax")
    assert code == 0 and "stablehlo.multiply" in out and "tensor<4xf64>" in out
    assert "'stablehlo.multiply': jax-x32 f32, jax f64" in err


@pytest.fixture(scope="module")
def block() -> jc.Lowered:
    program = next(p for p in jc.programs() if p.name == "mixed_block")
    return jc.lower(program, "x32")


def test_retarget_run_on_the_mixed_block(block: jc.Lowered, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "block.mlir"
    path.write_text(block.text_debug)
    code, out, _ = cli(capsys, "retarget", str(path), "--from", "jax-x32", "--to", "torch", "--run")
    assert code == 0
    assert re.search(r"jax_corpus\.py:\d+: 'stablehlo.multiply': jax-x32 f32, torch bf16", out)
    assert 'x = x * params["scale"]' in out
    table = out[out.index("ran both on the same inputs (drawn from seed 0)"):]
    assert re.search(r"result\s+f32\[6,8\]\s+f32\[6,8\]\s+\S+\s+\S+\s+48/48", table)
    assert re.search(r"values first differ at \S+jax_corpus\.py:\d+: 'stablehlo.broadcast_in_dim' \(f32\[6,8\] under "
                     r"jax-x32, bf16\[6,8\] under torch", table)


def test_retarget_run_under_the_same_policy_finds_no_difference(block: jc.Lowered) -> None:
    r = lc.retarget(block.text, from_="jax-x32", to="jax-x32")
    assert str(r.module) == block.text                               # the law, through retarget
    run = r.run(block.runs[0][0])
    assert run.identical and run.first is None and run.compared > 50
    assert all(jc.close(o, e) for o, e in zip(lc.compile(r.module)(*block.runs[0][0]), block.runs[0][1]))


def test_retarget_run_reads_inputs_from_npz(block: jc.Lowered, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "block.mlir"
    path.write_text(block.text)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, *block.runs[0][0])
    code, out, _ = cli(capsys, "retarget", str(path), "--from", "jax-x32", "--to", "torch", "--run",
                       "--inputs", str(inputs))
    assert code == 0 and "ran both on the same inputs (given)" in out
    bad = tmp_path / "bad.npz"
    np.savez(bad, np.ones(2))
    code, _, err = cli(capsys, "retarget", str(path), "--from", "jax-x32", "--to", "torch", "--run",
                       "--inputs", str(bad))
    assert code != 0 and "error:" in err and "Traceback" not in err


def test_differences_count_and_measure() -> None:
    a = np.array([0.1, 2.0, np.nan, 0.0])
    b = np.array([0.1, 2.0, np.nan, 1.0], np.float32)
    max_abs, max_rel, differing, total = differences(a, b)
    assert (differing, total) == (2, 4) and max_abs == 1.0 and max_rel == np.inf
    assert differences(np.arange(3), np.arange(3).astype(np.uint64))[2] == 0
    assert [x.shape for x in draw_inputs([lc.TensorType(lc.DType.bool, [2, 3])])] == [(2, 3)]


def test_report_names_python_lines_through_the_api() -> None:
    r = lc.retarget(repro(True), from_="jax", to="torch", source_name="j.mlir")
    text = render_text(build_report(r.comparison, r.lifted, r.text, "j.mlir", lifted=r.lift))
    assert Path(__file__).name in text and "t * 0.5" in text
    with pytest.raises(lc.LatticecastError, match="refuses the program"):
        r.module


# -- the HTML page ----------------------------------------------------------------------------------


PROBE = """<script>
const out = document.createElement("pre"); out.id = "probe";
const mark = document.querySelector("mark");
out.textContent = JSON.stringify({rows: document.querySelectorAll("tbody tr").length,
  marked: mark ? mark.textContent : null, markColor: mark ? getComputedStyle(mark).backgroundColor : null,
  headers: [...document.querySelectorAll("th")].map(t => t.textContent),
  overflow: document.documentElement.scrollWidth > window.innerWidth});
document.body.appendChild(out);
</script>"""


def test_the_html_report_is_one_page(block: jc.Lowered, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "block.mlir"
    path.write_text(block.text_debug)
    page = tmp_path / "report.html"
    code, _, _ = cli(capsys, "retarget", str(path), "--from", "jax-x32", "--to", "torch", "--run", "--format", "html",
                     "--report", str(page))
    assert code == 0
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.count("<html") == 1 and "<script" not in html
    assert "Ops that differ" in html and "Run on the same inputs" in html and "Where values first differ" in html
    assert '<mark>x * params[&quot;scale&quot;]</mark>' in html


@pytest.mark.skipif(headless.browser() is None, reason="needs a headless browser (apt-get install chromium)")
def test_the_html_report_renders_in_a_real_browser(block: jc.Lowered, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "block.mlir"
    path.write_text(block.text_debug)
    page = tmp_path / "report.html"
    assert cli(capsys, "retarget", str(path), "--from", "jax-x32", "--to", "torch", "--run", "--format", "html",
               "--report", str(page))[0] == 0
    seen = headless.probe(page, PROBE, 1400, 1000)
    assert seen["rows"] >= 9 and seen["marked"] == 'x * params["scale"]'
    assert seen["markColor"] == "rgb(255, 224, 138)" and not seen["overflow"]
    assert "max abs diff" in seen["headers"] and "differing" in seen["headers"]
    data = headless.screenshot(page, tmp_path / "report.png", 1400, 1000)
    assert len(data) > 30_000


def test_differences_of_0d_uint64_values() -> None:
    """Found by api_fuzz: a 0-d uint64 (object) difference is a Python int, which has no astype."""
    assert differences(np.array(2**64 - 1, np.uint64), np.array(0, np.uint64))[2:] == (1, 1)
    assert differences(np.array(True), np.array(True))[2:] == (0, 1)


def test_inputs_are_not_drawn_for_a_dynamic_dimension() -> None:
    """Found by api_fuzz: a program with a symbolic dimension says which input needs its arrays given."""
    from latticecast import DType, TensorType

    with pytest.raises(lc.LatticecastError, match=r"input #1 .* dynamic dimension.*give the arrays"):
        draw_inputs([TensorType(DType.int32, [2]), TensorType(DType.float16, [2, "n"])])
