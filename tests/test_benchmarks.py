"""The benchmarks run (tiny sizes, no timing asserted): ``python3 dev.py bench`` must not rot."""

from __future__ import annotations

import functools
import re
import shutil
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

targets = pytest.importorskip("targets")
binding_floor = pytest.importorskip("binding_floor")


def _check(rows) -> None:
    for row in rows:
        assert isinstance(row, targets.Row)
        assert row.what and row.value and row.jax and row.floor and isinstance(row.met, bool)


def test_the_chains_build_the_same_program_as_jax() -> None:
    _check(targets.chains_vs_jax(40, 1))
    _, _, ours = targets.build_latticecast(40, True)
    _, theirs = targets.lower_jax(40, True)
    # latticecast converts each input once, JAX converts at every op
    assert ours.count("stablehlo.convert") < theirs.count("stablehlo.convert")
    assert ours.count("stablehlo.multiply") == theirs.count("stablehlo.multiply") == 10


def test_the_other_measurements_run_at_a_small_size() -> None:
    _check(targets.pass_vs_cse(200, 1))
    _check(targets.audit_thousand(60))
    _check(targets.many_inputs(10, 20, repeats=1))
    (row,) = targets.round_trip(1, 5)
    _check([row])
    assert "the dispatcher it calls" in row.floor and row.jax.endswith("x)")
    _check(targets.million_literals(200))
    _check(targets.lift_and_compare(1, 1))


def test_the_table_shows_the_binding_floor_and_rows_as_multiples_of_it() -> None:
    floor = binding_floor.measure(200, 1)
    assert 0 < floor.type_us < floor.per_op_us and floor.create_us > 0
    row = targets.floor_row(floor)
    assert "Operation.create" in row.what and f"{floor.per_op_us:.2f} us/op" in row.value
    rows = targets.chains_vs_jax(40, 1, True) + targets.pass_vs_cse(200, 1, True)
    _check(rows)
    assert all(r.floor.split(";")[0].endswith("x") for r in rows)  # "2.3x", a multiple of the floor
    assert all(r.floor == "not measured" for r in targets.chains_vs_jax(40, 1))
    chain, _, build = targets.chains_vs_jax(40, 1, True)
    assert "the target is" in build.floor  # as a multiple of the floor measured beside the build
    assert chain.jax.endswith("x)") and build.jax.endswith("x)")  # JAX's time beside ours, and the ratio
    assert "us/op" in build.jax and targets.JAX_US_PER_OP
    # both forms of the table name every column
    assert "latticecast" in targets.text_row(chain, "NO") and "x floor" in targets.text_row(chain, "NO")
    assert targets.markdown_row(chain, "NO").count("|") == 7


before_after = pytest.importorskip("before_after")
ROOT = Path(__file__).resolve().parent.parent


# -- the guard: python3 dev.py bench --against REF (no timing asserted) -------------------------------

def test_a_row_is_divided_by_the_floor_sampled_beside_each_of_its_samples() -> None:
    # two samples of 2 ms and 4 ms per 1,000 ops, each beside a floor of 1 and 4 us/op: 2x and 1x, median 1.5x
    assert targets.x_floor([0.002, 0.004], 1000, [1.0, 4.0]) == "1.5x"
    assert targets.x_floor([0.002], 1000, [None]) == "not measured"
    assert targets.floor_beside(False) is None and targets.floor_beside(True) > 0


def test_the_decision_rule_on_synthetic_timings() -> None:
    judge = before_after.judge
    assert before_after.spread([2.0, 2.0, 2.0]) == 0 and before_after.spread([1.0, 1.5, 2.0]) == pytest.approx(2 / 3)
    same = judge([1.0, 1.1, 0.9], [1.05, 0.95, 1.0])
    assert same.ratio == pytest.approx(1.0) and same.band == pytest.approx(0.2) and same.word == "within noise"
    slower = judge([1.0, 1.02, 0.98], [1.3, 1.31, 1.29])  # 30% slower, both sides within 4% of themselves
    assert slower.slower and not slower.faster and slower.word == "SLOWER"
    assert judge([1.3, 1.31, 1.29], [1.0, 1.02, 0.98]).word == "faster"
    # the same 30% inside a noisier base: not judged slower (the band is the base's 60% spread) ...
    assert not judge([1.0, 1.6, 1.0], [1.3, 1.31, 1.29]).slower
    # ... nor when the later tree's own repeats are that noisy: the band is the larger spread of the two
    noisy_after = judge([1.0, 1.01, 0.99], [1.3, 2.0, 1.2])
    assert noisy_after.band == pytest.approx(0.8 / 1.3) and not noisy_after.slower
    assert judge([1.0, 1.0, 1.0], [1.02, 1.02, 1.02]).slower  # a quiet machine: a steady 2% shows
    # a deterministic measure (a peak RSS) differs by its resolution only: under 1% is never judged
    rss = judge([190.4, 190.4, 190.4], [190.9, 190.9, 190.9])
    assert rss.band == before_after.MIN_BAND and rss.word == "within noise"
    # a busy spell on the later tree's medians, while its fastest sample matches the base's: not judged slower
    busy = judge([1.0, 1.0, 1.2], [1.0, 1.5, 1.5])
    assert busy.ratio == 1.5 > 1 + busy.band and busy.fastest == 1.0 and busy.word == "within noise"
    with pytest.raises(ValueError, match="at least 3 repeats"):
        judge([1.0, 1.0], [1.0, 1.0, 1.0])


@functools.cache
def _dev():
    spec = importlib.util.spec_from_file_location("latticecast_dev_bench", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    return dev


def test_dev_bench_against_builds_the_comparison_and_refuses_a_missing_ref() -> None:
    dev = _dev()
    assert dev.bench_command(["--quick"]) == ["benchmarks/run_all.py", "--quick"]
    compare = ["benchmarks/before_after.py", "main", "--quick", "--prog", "dev.py bench --against"]
    assert dev.bench_command(["--against", "main", "--quick"]) == compare
    assert dev.bench_command(["--quick", "--against=main"]) == compare
    for bad in (["--against"], ["--against="], ["--against", "--quick"]):
        proc = subprocess.run([sys.executable, str(ROOT / "dev.py"), "bench", *bad], capture_output=True, text=True)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert "bench --against needs the git revision" in proc.stderr and "--against main" in proc.stderr


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["--against", "--against=", "--against=main", "main", "HEAD~1", "--quick",
                                 "--rounds", "3", "--only", "chain", "-", "--", ""]), max_size=6))
def test_dev_bench_command_on_any_arguments(argv: list[str]) -> None:
    """Any arguments: the table's script, the comparison with a REF, or exit status 2 (no traceback)."""
    try:
        command = _dev().bench_command(argv)
    except SystemExit as e:
        assert e.code == 2 and any(a == "--against" or a.startswith("--against=") for a in argv)
        return
    if command[0] == "benchmarks/run_all.py":
        assert command[1:] == argv and not any(a.startswith("--against") for a in argv)
    else:
        assert command[0] == "benchmarks/before_after.py" and command[1] and not command[1].startswith("-")
        assert command[-2:] == ["--prog", "dev.py bench --against"]


@pytest.mark.parametrize(("argv", "message"), [
    (["HEAD", "--rounds", "2"], "--rounds must be at least 3"),
    (["HEAD", "--only", "no such row"], "matches no measure"),
    (["HEAD", "--quick", "--only", "sharded"], "matches no measure of --quick"),
    (["HEAD", "--scale", "0"], "--scale must be above 0"),
])
def test_before_after_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        before_after.main(argv + ["--prog", "dev.py bench --against"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("usage: dev.py bench --against")


def test_before_after_names_an_unknown_ref_and_a_missing_git(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert before_after.main(["no-such-revision", "--quick", "--prog", "dev.py bench --against"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dev.py bench --against: error: 'no-such-revision' is not a commit")
    assert "git log --oneline" in err and "Traceback" not in err
    monkeypatch.setattr(before_after.shutil, "which", lambda name: None)
    assert before_after.main(["main", "--quick"]) == 2
    assert "git is not on PATH" in capsys.readouterr().err


def _worktrees() -> str:
    return subprocess.run(["git", "-C", str(ROOT), "worktree", "list", "--porcelain"], capture_output=True,
                          text=True, check=True).stdout


def test_the_temporary_worktree_is_removed_on_exit_and_on_an_error() -> None:
    with before_after.checkout("HEAD") as src:
        assert (src / "latticecast" / "__init__.py").is_file() and src != ROOT / "src"
        assert str(src.parent) in _worktrees()
        line = before_after.describe("HEAD", src)
        assert line.startswith("HEAD = ") and str(src / "latticecast" / "__init__.py") in line
    assert not src.parent.exists() and str(src.parent) not in _worktrees()
    with pytest.raises(KeyError):
        with before_after.checkout("HEAD") as src:
            raise KeyError("interrupted")
    assert not src.parent.exists() and str(src.parent) not in _worktrees()
    assert before_after.describe(None, ROOT / "src").endswith(str(ROOT / "src" / "latticecast" / "__init__.py"))


def test_before_after_refuses_a_tree_it_does_not_import(tmp_path) -> None:
    (tmp_path / "src").mkdir()  # no latticecast here: the child would import another tree's
    audit = next(m for m in before_after.MEASURES if m.name.startswith("audit"))
    with pytest.raises(before_after.MeasureFailed, match="latticecast was imported from"):
        before_after.run(audit, tmp_path / "src", 10, tmp_path / "unused")
    with pytest.raises(before_after.BenchError, match="no importable latticecast"):
        before_after.describe("HEAD", tmp_path / "src")


def test_every_measure_runs_on_this_tree_at_a_tiny_size(tmp_path) -> None:
    """Each row of the guard measures (one sample, tiny programs): none rots as the code moves."""
    module = tmp_path / "step.mlir"
    before_after.write_jax_module(module, 1)
    for m in before_after.MEASURES:
        size = m.sized(0.002) if m.per != "layers" else 1
        rows = before_after.run(m, ROOT / "src", size, module)
        assert rows and all(value > 0 and unit in ("s", "MB") for _, value, unit in rows), m.name


def test_head_against_itself_is_judged_by_the_decision_rule(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny real run, HEAD's clean checkout against this tree, on one cheap row: each side imports
    its own tree, and the verdict and exit status are the decision function's (no timing asserted)."""
    real, verdicts = before_after.judge, []

    def spy(before, after):
        verdicts.append(real(before, after))
        return verdicts[-1]

    monkeypatch.setattr(before_after, "judge", spy)
    code = before_after.main(["HEAD", "--only", "audit", "--scale", "0.05", "--rounds", "3"])
    out = capsys.readouterr().out
    before_line, after_line = out.splitlines()[:2]
    assert before_line.startswith("before: HEAD = ") and "latticecast-before-after-" in before_line
    assert after_line.endswith(str(ROOT / "src" / "latticecast" / "__init__.py"))
    assert verdicts and all(isinstance(v, before_after.Verdict) for v in verdicts)
    row = next(line for line in out.splitlines() if line.startswith("audit of a lattice table (50 types)"))
    assert row.rstrip().endswith(verdicts[-1].word)
    assert code == (1 if verdicts[-1].slower else 0)
    assert "latticecast-before-after-" not in _worktrees()


def test_the_chain_s_parts_and_their_floors_add_up(capsys) -> None:
    chain_parts = pytest.importorskip("chain_parts")
    assert chain_parts.main(["--ops", "50", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for part in ("build", "clone", "implicit-cast", "verify", "print", "total"):
        assert any(line.startswith(part) for line in out.splitlines()), part
    assert "JAX / the floor" in out and "JAX / the least Python" in out
    assert "reading also what implicit-cast cannot skip" in out


def test_the_cache_measurement_refuses_sizes_that_do_not_grow(capsys) -> None:
    inputs_cache = pytest.importorskip("inputs_cache")
    with pytest.raises(SystemExit):
        inputs_cache.main(["--small", "100", "--large", "100"])
    assert "--small must be positive and below --large" in capsys.readouterr().err


def test_the_cache_measurement_names_valgrind_when_it_is_missing(capsys, monkeypatch) -> None:
    inputs_cache = pytest.importorskip("inputs_cache")
    monkeypatch.setattr(inputs_cache.shutil, "which", lambda name: None)
    assert inputs_cache.main(["--small", "10", "--large", "20"]) == 2
    assert "valgrind is not on PATH: install it" in capsys.readouterr().err


def test_the_chain_s_parts_refuse_an_empty_chain(capsys) -> None:
    chain_parts = pytest.importorskip("chain_parts")
    with pytest.raises(SystemExit):
        chain_parts.main(["--ops", "0"])
    assert "--ops and --repeats must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("name, module, fails", [
    ("compare --from", "cli/main.py", "latticecast compare --from failed on this tree: nothing is measured"),
    ("latticecast-opt --implicit-cast", "cli/opt/__init__.py", "latticecast-opt failed on this tree"),
])
def test_a_cli_row_refuses_a_tree_whose_command_fails(tmp_path: Path, name: str, module: str, fails: str) -> None:
    # a tree whose command exits non-zero (1eccc12 has no compare --from): its usage error is not a time
    src = tmp_path / "src"
    for package in ("latticecast", "latticecast/cli", "latticecast/cli/opt"):
        (src / package).mkdir(parents=True, exist_ok=True)
        (src / package / "__init__.py").write_text("")
    (src / "latticecast" / module).write_text("def main(args):\n    return 2\n")
    measure = next(m for m in before_after.MEASURES if name in m.name)
    with pytest.raises(before_after.MeasureFailed, match=fails):
        before_after.run(measure, src, 1, tmp_path / "step.mlir")


def test_the_instruction_counts_refuse_bad_options_and_name_valgrind(capsys, monkeypatch) -> None:
    instructions = pytest.importorskip("instructions")
    with pytest.raises(SystemExit):
        instructions.main(["--ops", "10"])
    assert "--ops must be at least 100" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        instructions.main(["--tolerance", "1.5"])
    assert "--tolerance must be at least 0 and below 1" in capsys.readouterr().err
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None if name == "valgrind" else "/bin/" + name)
    assert instructions.main([]) == 2
    assert "valgrind not on PATH: install it" in capsys.readouterr().err


def test_the_instruction_table_judges_beyond_the_control_s_move() -> None:
    instructions = pytest.importorskip("instructions")
    before = {("plain", "build"): 100.0, ("plain", "read walk (control)"): 100.0, ("plain", "implicit-cast"): 100.0}
    # the control moved 2%: a part 1.5% up is within it, 3% up is slower; 0.3% with a still control is the same
    lines, slower = instructions.table(before, {("plain", "build"): 101.5, ("plain", "read walk (control)"): 102.0,
                                                ("plain", "implicit-cast"): 103.0}, 0.005)
    assert slower == ["plain chain: implicit-cast"] and "band 2.0%" in lines[0]
    lines, slower = instructions.table(before, {("plain", "build"): 100.3, ("plain", "read walk (control)"): 100.0,
                                                ("plain", "implicit-cast"): 99.0}, 0.005)
    assert slower == [] and "band 0.5%" in lines[0]
    assert lines[1].endswith("the same") and lines[3].endswith("fewer") and lines[2].endswith("control")
    lines, slower = instructions.table(None, before, 0.005)
    assert slower == [] and len(lines) == 4 and "instructions/op" in lines[0]
    lines, _ = instructions.table(None, {(instructions.MODULE, "lift"): 34_000.0}, 0.005)
    assert lines[1].startswith("JAX module: lift ")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None or shutil.which("setarch") is None,
                    reason="valgrind and setarch count the instructions")
def test_the_instruction_counts_of_this_tree_are_made_twice_and_agree(capsys) -> None:
    instructions = pytest.importorskip("instructions")
    assert instructions.main(["--ops", "200"]) == 0
    out = capsys.readouterr().out
    for chain in instructions.CHAINS:
        for part in ("build", "implicit-cast", "read walk (control)"):
            assert f"{chain} chain: {part}" in out
    for part in ("read walk (control)", "implicit-cast", "lift", "compare"):  # JAX's module, per op of it
        assert f"JAX module: {part}" in out
    for part in ("read walk (control)", "implicit-cast"):  # the many-inputs graph, per input
        assert f"many inputs: {part}" in out


def test_the_instruction_counts_name_each_way_they_can_fail(monkeypatch, tmp_path, capsys) -> None:
    instructions = pytest.importorskip("instructions")
    texts = [str(tmp_path / f"{n}.mlir") for n in range(3)]

    def finished(code: int, stderr: str = ""):
        return lambda *a, **k: subprocess.CompletedProcess(a, code, "", stderr)

    monkeypatch.setattr(instructions.subprocess, "run", finished(1, "==1== callgrind\nValueError: boom\n"))
    with pytest.raises(instructions.CountError, match="the program failed under callgrind: ValueError: boom"):
        instructions.counts(tmp_path, "pass", False, (10, 110), texts)
    with pytest.raises(instructions.CountError, match="the chain could not be built: ValueError: boom"):
        instructions.write_texts(tmp_path, False, (10, 110), texts)
    with pytest.raises(instructions.CountError, match="JAX's module could not be written: ValueError: boom"):
        instructions.write_texts(tmp_path, False, (2, 6), texts, module=True)
    with pytest.raises(instructions.CountError, match="the many-inputs graph could not be built: ValueError: boom"):
        instructions.write_texts(tmp_path, False, (10, 110), texts, inputs=True)
    monkeypatch.setattr(instructions.subprocess, "run", finished(0))  # valgrind ran, but dumped nothing
    with pytest.raises(instructions.CountError, match="callgrind wrote 0 dumps, not 6: is time.sleep named"):
        instructions.counts(tmp_path, "pass", False, (10, 110), texts)
    (tmp_path / "cg.out.1").write_text("events: Ir\n")
    with pytest.raises(instructions.CountError, match="cg.out.1 has no totals line"):
        instructions._total(tmp_path / "cg.out.1")
    made = iter(range(100))
    monkeypatch.setattr(instructions, "counts", lambda src, kind, *a: {
        part: 1000.0 + next(made) for part in instructions.PARTS[kind]})
    with pytest.raises(instructions.CountError, match="two counts of the same code differ .*not deterministic"):
        instructions.measure(tmp_path, (10, 110), {"plain": texts, "literal": texts, instructions.MODULE: texts,
                                                   instructions.INPUTS: texts})


def test_the_instruction_counts_name_an_unknown_revision_before_counting(monkeypatch, capsys) -> None:
    instructions = pytest.importorskip("instructions")
    monkeypatch.setattr(instructions.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(instructions, "measure", lambda *a: pytest.fail("counted before the revision was checked"))
    assert instructions.main(["--against", "no-such-revision-anywhere"]) == 2
    assert "'no-such-revision-anywhere' is not a commit" in capsys.readouterr().err


@pytest.mark.parametrize("literal", [False, True])
def test_the_least_python_does_the_chain_s_work(literal: bool) -> None:
    python_floor = pytest.importorskip("python_floor")
    least = python_floor.sample(40, literal)
    checked = python_floor.sample(40, literal, checked=True)
    _, _, ours = targets.build_latticecast(40, literal)
    # the same legal program as latticecast's: each input converted once, the shared literal, every op
    for op in ("stablehlo.convert", "stablehlo.constant", "stablehlo.add", "stablehlo.multiply",
               "stablehlo.subtract"):
        assert least.text.count(op) == checked.text.count(op) == ours.count(op), op
    assert least.text.count("stablehlo.constant") == (1 if literal else 0)
    assert min(least.build, least.legalize, least.verify, least.print) > 0
    assert least.total == pytest.approx(least.build + least.legalize + least.verify + least.print)


def test_the_chain_rows_quote_the_least_python() -> None:
    literal, plain, _ = targets.chains_vs_jax(40, 1)
    for row in (literal, plain):
        assert re.search(r"the least Python \d+\.\d\dx, reading what implicit-cast must( \(below 10x\))? \d+\.\d\dx\)$", row.jax)
    (cse,) = targets.pass_vs_cse(200, 1)
    assert "the least Python's pass: " in cse.floor and len(re.findall(r"\d+\.\d\dx cse", cse.floor)) == 3
    assert re.search(r"reading what implicit-cast must: \d+\.\d\dx cse", cse.floor)


def test_the_least_python_refuses_a_module_it_left_illegal(monkeypatch) -> None:
    python_floor = pytest.importorskip("python_floor")
    from jaxlib.mlir import ir

    monkeypatch.setattr(python_floor, "legalize", lambda *a: None)  # nothing converted: mixed operand types
    with pytest.raises(ir.MLIRError, match="requires the same element type for all operands"):
        python_floor.sample(8)


def test_the_least_python_lift_does_the_lift_s_work() -> None:
    lift_floor = pytest.importorskip("lift_floor")
    from bench_lift import module_text

    import latticecast as lc
    from latticecast.dialect_utils.context import make_context
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.passes import LiftOptions, run_lift
    from latticecast.passes.infer_types import compare

    text, ctx = module_text(1), make_context(lenient=True)
    least = lift_floor.sample(text, ctx)
    module = parse_module(text, ctx, lenient=True)
    lifted = run_lift(module, LiftOptions(policy=lc.policy(lift_floor.SOURCE)))
    assert lifted.program is not None
    changes = compare(lifted.program, lc.policy(lift_floor.SOURCE), lc.policy(lift_floor.OTHER)).changes
    # the same converts taken out and the same literals made weak as lift-implicit-casts, on JAX's module
    assert (least.lifted, least.literals, least.differ) == (lifted.lifted, lifted.literals, len(changes))
    assert least.lifted > 0 and least.literals > 0 and least.lift > 0 and least.compare > 0
    source, _ = lift_floor.tables(ctx)
    again = parse_module(text, ctx, lenient=True)
    with ctx:
        lift_floor.lift(again.operation, source)
    assert str(again).count("stablehlo.convert") == str(module).count("stablehlo.convert")
    # checking what lift must, the sketch writes exactly the module lift-implicit-casts writes
    checked = lift_floor.sample(text, ctx, checked=True)
    assert (checked.lifted, checked.literals, checked.differ) == (least.lifted, least.literals, least.differ)
    again = parse_module(text, ctx, lenient=True)
    with ctx:
        lift_floor.lift(again.operation, source, checked=True)
    assert str(again) == str(module)


def test_the_lift_row_quotes_the_least_python(capsys) -> None:
    _, in_process = targets.lift_and_compare(1, 1)
    assert re.search(r"the least Python \d+\.\d\dx, checking what lift must \d+\.\d\dx", in_process.jax)
    assert re.search(r"against implicit-cast deciding the lifted program's promotions: \d+\.\d\dx", in_process.jax)
    lift_floor = pytest.importorskip("lift_floor")
    with pytest.raises(SystemExit):
        lift_floor.main(["--layers", "0"])
    assert "--layers and --repeats must be at least 1" in capsys.readouterr().err
