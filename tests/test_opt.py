"""latticecast-opt: argument handling, exit codes, one-line errors, and its helper modules.

The lit suite (lit_tests/) checks what the tool does to IR; these tests check the
command line around it: how flags become a pipeline, which mistakes are usage
errors (exit 2) and which are failures (exit 1), that every error is one line
without a traceback, and the MLIR semantics of --verify-diagnostics and
--split-input-file in isolation.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from latticecast.cli import opt
from latticecast.errors import PassFailure
from latticecast.cli.opt.args import UsageError, parse_args
from latticecast.cli.opt.args import PassFlag, compose_pipeline
from latticecast.passes import ImplicitCastOptions, MLIRPass, Pipeline
from latticecast.passes.runner import merge_diagnostics, one_line_error
from latticecast.cli.opt.split import OUTPUT_SEPARATOR, split_input
from latticecast.cli.opt.verify import parse_expectations, verify_diagnostics
from latticecast.dialect_utils.diagnostics import Diagnostic

MIXED = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

LOSSY = """\
func.func @f(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
"""


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.mlir"
    path.write_text(MIXED)
    return path


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = opt.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- how the command line becomes a pipeline -------------------------------------------


def test_short_pass_flags_compose_in_order() -> None:
    config = parse_args(["in.mlir", "--implicit-cast", "--policy", "max", "--canonicalize", "--cse"])
    assert config.pipeline == Pipeline.parse("builtin.module(implicit-cast{policy=max},canonicalize,cse)")
    assert config.input == "in.mlir"


def test_order_of_pass_flags_is_kept() -> None:
    config = parse_args(["--cse", "--implicit-cast", "x.mlir", "--canonicalize"])
    assert config.pipeline == Pipeline.parse("builtin.module(cse,implicit-cast,canonicalize)")


def test_single_dash_long_options_as_in_llvm_tools() -> None:
    config = parse_args(["-implicit-cast", "-policy=numpy", "-split-input-file", "-mlir-print-op-generic", "x"])
    assert config.pipeline == Pipeline.parse("builtin.module(implicit-cast{policy=numpy})")
    assert config.split_input_file and config.print_generic


def test_diagnose_lossy_bare_means_warning_and_does_not_swallow_the_input() -> None:
    config = parse_args(["--implicit-cast", "--diagnose-lossy", "input.mlir"])
    assert config.pipeline == Pipeline.parse("builtin.module(implicit-cast{diagnose-lossy=warning})")
    assert config.input == "input.mlir"


def test_diagnose_lossy_level_as_next_word_or_after_equals() -> None:
    assert parse_args(["--implicit-cast", "--diagnose-lossy", "remark"]).pipeline == \
        Pipeline.parse("builtin.module(implicit-cast{diagnose-lossy=remark})")
    assert parse_args(["--implicit-cast", "--diagnose-lossy=error"]).pipeline == \
        Pipeline.parse("builtin.module(implicit-cast{diagnose-lossy=error})")


def test_options_written_on_the_flag_come_after_the_global_ones() -> None:
    # ImplicitCastOptions.parse lets a later key win, so the flag's own policy wins.
    config = parse_args(["--implicit-cast=policy=numpy", "--policy", "max"])
    assert config.pipeline == Pipeline.parse("builtin.module(implicit-cast{policy=max policy=numpy})")


def test_upstream_pass_options() -> None:
    config = parse_args(["--implicit-cast", "--canonicalize=max-iterations=3"])
    assert config.pipeline == Pipeline.parse("builtin.module(implicit-cast,canonicalize{max-iterations=3})")


def test_no_pipeline_is_a_round_trip() -> None:
    assert parse_args([]).pipeline is None
    assert parse_args([]).input == "-"


def test_value_after_double_dash_is_positional() -> None:
    assert parse_args(["--", "-weird-name.mlir"]).input == "-weird-name.mlir"


def test_compose_and_first_pass() -> None:
    pipeline = compose_pipeline([PassFlag("cse"), PassFlag("implicit-cast", "policy=max")],
                                ImplicitCastOptions(diagnose_lossy="warning"))
    assert pipeline == Pipeline((MLIRPass("cse"), ImplicitCastOptions(policy="max", diagnose_lossy="warning")))
    assert pipeline.first_pass == "cse"
    assert Pipeline.parse("builtin.module(implicit-cast{policy=jax},canonicalize)").first_pass == "implicit-cast"
    assert Pipeline.parse("builtin.module()").first_pass is None
    assert Pipeline.parse("implicit-cast,cse").first_pass == "implicit-cast"


def test_flags_become_the_pipeline_without_text(tmp_path: Path) -> None:
    """The pipeline is built from the flags' values: a policy file's path may hold spaces, commas and
    braces, and the pipeline prints from the options' fields, in text that reads back to the same pipeline."""
    from latticecast.policies.base import Policy

    table = tmp_path / "my tables, {v2}" / "small.csv"
    table.parent.mkdir()
    table.write_text(Path(__file__).parent.joinpath("..", "lit_tests", "policies", "Inputs", "small_lattice.csv")
                     .read_text())
    config = parse_args(["--implicit-cast", "--policy-file", str(table), "--diagnose-lossy=error", "--cse"])
    assert config.pipeline is not None
    first = config.pipeline.elements[0]
    assert isinstance(first, ImplicitCastOptions) and first.diagnose_lossy.value == "error"
    assert isinstance(first.policy, Policy) and first.policy.table_path is not None
    assert f'policy-file="{table}"' in str(config.pipeline)
    again = Pipeline.parse(str(config.pipeline))
    assert str(again) == str(config.pipeline)
    assert again.pass_names == ("implicit-cast", "cse")


@pytest.mark.parametrize("argv, fragment", [
    (["--pass-pipeline=builtin.module(cse)", "--canonicalize"], "--pass-pipeline cannot be combined"),
    (["--policy", "max"], "--policy is an option of implicit-cast"),
    (["--pass-pipeline=builtin.module(implicit-cast)", "--policy", "max"], "implicit-cast{policy=...}"),
    (["a.mlir", "b.mlir"], "unrecognized arguments: b.mlir"),
    (["--mlir-print-everything"], "unrecognized option --mlir-print-everything"),
])
def test_usage_errors(argv: list[str], fragment: str) -> None:
    with pytest.raises(UsageError, match=".*") as info:
        parse_args(argv)
    assert fragment in str(info.value)


# -- exit codes and one-line errors ------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["--policy", "max"],
    ["a.mlir", "b.mlir"],
    ["--pass-pipeline=builtin.module(cse)", "--cse"],
])
def test_usage_errors_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(argv, capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("latticecast-opt: error: ")


@pytest.mark.parametrize("extra, fragment", [
    (["--no-such-pass"], "'no-such-pass' does not refer to a registered pass or pass pipeline"),
    (["--pass-pipeline=builtin.module(implicit-cast{policy=max)"], "unbalanced"),
    (["--pass-pipeline=builtin.module(implicit-cast{colour=red})"], "implicit-cast has no option 'colour'"),
    (["--pass-pipeline=builtin.module(canonicalize{bogus=1})"], "no such option bogus"),
    (["--implicit-cast", "--diagnose-lossy=loud"], "diagnose-lossy must be one of off, remark, warning, error"),
    (["--implicit-cast", "--lower-dtypes=maybe"], "lower-dtypes must be true or false"),
])
def test_bad_pipelines_exit_1_with_one_line(mixed: Path, extra: list[str], fragment: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main([str(mixed), *extra], capsys)
    assert code == 1
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    flag = extra[-1].split("=")[0]  # a flag's bad value is named by the flag; a pipeline's by the pipeline
    assert err.startswith(("latticecast-opt: error: invalid pass pipeline", f"latticecast-opt: error: {flag} ")), err
    assert fragment in err


def test_unknown_policy_lists_the_policies(mixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import latticecast as lc
    code, _, err = run_main([str(mixed), "--implicit-cast", "--policy", "jaxx"], capsys)
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert "unknown policy 'jaxx'" in err
    assert ", ".join(lc.policies()) in err


def test_missing_input_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main([str(tmp_path / "nope.mlir")], capsys)
    assert code == 1 and out == ""
    assert err.strip() == f"latticecast-opt: error: cannot open input file '{tmp_path / 'nope.mlir'}': " \
                          "No such file or directory"


def test_unwritable_output(mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no-such-dir" / "out.mlir"
    code, _, err = run_main([str(mixed), "--implicit-cast", "-o", str(target)], capsys)
    assert code == 1
    assert err.startswith("latticecast-opt: error: cannot write output file") and len(err.splitlines()) == 1


def test_output_file_written_on_success_only(mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "out.mlir"
    assert run_main([str(mixed), "--implicit-cast", "-o", str(out_file)], capsys)[0] == 0
    assert "stablehlo.convert" in out_file.read_text()
    failed = tmp_path / "failed.mlir"
    assert run_main([str(mixed), "-o", str(failed)], capsys)[0] == 1  # mixed ops, no implicit-cast
    assert not failed.exists()


def test_parse_error_is_located_with_its_source_line_and_a_caret(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """As mlir-opt's source manager prints it: one located line, the source line, a caret."""
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    code, out, err = run_main([str(bad)], capsys)
    assert code == 1 and out == ""
    assert err.splitlines() == [f"{bad}:1:14: error: expected non-function type", "func.func @f( {", " " * 13 + "^"]


def test_verifier_rejects_mixed_ops_without_the_pass(mixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main([str(mixed)], capsys)
    assert code == 1 and out == ""
    assert err.splitlines()[0] == f"{mixed}:2:8: error: op requires the same element type for all operands and results"
    assert err.splitlines()[1:3] == [MIXED.splitlines()[1], " " * 7 + "^"]
    assert err.splitlines()[3].startswith("hint: 'stablehlo.add' mixes element types")   # and the fix


def test_pass_warnings_are_printed_on_success(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lossy.mlir"
    path.write_text(LOSSY)
    code, out, err = run_main([str(path), "--implicit-cast", "--diagnose-lossy"], capsys)
    assert code == 0
    assert "stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf16>" in out
    assert err.startswith(f"{path}:2:8: warning: 'stablehlo.add' op implicit promotion of i32 to f16 can lose magnitude")


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(["--help"], capsys)
    assert code == 0 and "--implicit-cast" in out and "--verify-diagnostics" in out
    code, out, _ = run_main(["--version"], capsys)
    assert code == 0 and out.startswith("latticecast-opt ")


def test_verify_diagnostics_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.mlir"
    good.write_text(MIXED.replace('  %0 = "stablehlo.add"',
                                  "  // expected-error@+1 {{no implicit promotion of i16 and f32}}\n"
                                  '  %0 = "stablehlo.add"'))
    assert run_main([str(good), "--verify-diagnostics", "--implicit-cast", "--policy", "array-api"], capsys)[0] == 0
    code, _, err = run_main([str(good), "--verify-diagnostics", "--implicit-cast"], capsys)  # jax: no error
    assert code == 1
    assert err.strip() == f'{good}:2:6: error: expected error "no implicit promotion of i16 and f32" was not produced'


def test_split_input_file_keeps_going_and_joins_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "split.mlir"
    path.write_text(MIXED + "// -----\n" + MIXED.replace("@f", "@g").replace("tensor<4xi16>", "tensor<4xf32>"))
    code, out, err = run_main([str(path), "--split-input-file"], capsys)
    assert code == 1  # the first chunk does not verify without implicit-cast
    assert err.splitlines()[0] == f"{path}:2:8: error: op requires the same element type for all operands and results"
    assert len(err.splitlines()) == 4  # its source line, caret and hint; nothing for the second chunk
    assert err.splitlines()[3].startswith("hint: ")
    assert out.startswith(OUTPUT_SEPARATOR) and "func.func @g" in out


# -- as a program: a subprocess, no traceback -------------------------------------------


def test_subprocess_exit_codes_and_no_traceback(tmp_path: Path, mixed: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  %0 = stablehlo.frobnicate : tensor<f32>\n}\n")
    cmd = [sys.executable, "-m", "latticecast.cli.opt"]
    parse = subprocess.run(cmd + [str(bad)], capture_output=True, text=True)
    assert parse.returncode == 1 and parse.stdout == ""
    assert parse.stderr.startswith(f"{bad}:2:") and "Traceback" not in parse.stderr
    usage = subprocess.run(cmd + ["--policy", "max"], capture_output=True, text=True)
    assert usage.returncode == 2 and "Traceback" not in usage.stderr
    stdin = subprocess.run(cmd + ["-", "--implicit-cast"], input=MIXED, capture_output=True, text=True)
    assert stdin.returncode == 0, stdin.stderr
    assert "stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>" in stdin.stdout
    stdin_error = subprocess.run(cmd, input=MIXED, capture_output=True, text=True)
    assert stdin_error.returncode == 1
    assert stdin_error.stderr.startswith("<stdin>:2:8: error: ")


# -- helper modules ---------------------------------------------------------------------


def test_split_input_keeps_line_numbers() -> None:
    chunks = split_input("a\nb\n// -----\nc\n  // ----- trailing\nd", enabled=True)
    assert [c.first_line for c in chunks] == [1, 4, 6]
    assert [c.text for c in chunks] == ["a\nb", "c", "d"]  # no padding: 'c' knows it is line 4
    assert split_input("a\n// -----\nb", enabled=False)[0].text == "a\n// -----\nb"


def test_one_line_error_drops_the_echo_and_caret() -> None:
    mlir = ("MLIR Textual PassPipeline Parser:1:1: error: 'foo' does not refer to a registered pass or "
            "pass pipeline\nfoo\n^")
    assert one_line_error(ValueError(mlir)) == "'foo' does not refer to a registered pass or pass pipeline"
    assert one_line_error(ValueError("<Pass-Options-Parser>: no such option x\n\nfailed to add `cse`")) == \
        "no such option x; failed to add `cse`"


def _diag(line: int, message: str, severity: str = "error", file: str | None = "t.mlir") -> Diagnostic:
    return Diagnostic(severity, message, file, line, 1)


def test_expectations_follow_mlir_designators() -> None:
    text = "\n".join([
        "op one",                                      # 1
        "// expected-error@above {{one}}",             # 2 -> line 1
        "// expected-remark@below {{three}}",          # 3 -> line 5 (the next non-designator line)
        "// expected-warning@+2 {{five}}",             # 4 -> line 6
        "op three",                                    # 5
        "op five // expected-note {{here}}",           # 6 -> line 6
        "// expected-error@-6 {{zero}}",               # 7 -> line 1
        "// expected-error@unknown {{nowhere}}",       # 8 -> unknown location
        "// expected-error-re {{a {{[0-9]+}} b}}",     # 9
    ])
    found = parse_expectations(text, "t.mlir")
    assert not found.problems
    assert [(e.severity, e.line) for e in found.expected] == [
        ("error", 1), ("remark", 5), ("warning", 6), ("note", 6), ("error", 1), ("error", 0), ("error", 9)]
    assert found.expected[5].unknown
    diags = [_diag(1, "the one"), _diag(5, "number three", "remark"), _diag(6, "line five", "warning"),
             _diag(6, "look here", "note"), _diag(1, "zero"), _diag(0, "nowhere at all", file=None),
             _diag(9, "a 42 b")]
    assert verify_diagnostics(diags, found) == []


def test_verify_reports_in_mlir_words() -> None:
    text = "op\n// expected-warning@-1 {{careful}}\n// expected-error {{missing}}\nop"
    report = verify_diagnostics([_diag(1, "be careful", "error"), _diag(4, "surprise")],
                                parse_expectations(text, "t.mlir"))
    assert report == [
        "t.mlir:2:4: error: 'error' diagnostic emitted when expecting a 'warning'",
        "t.mlir:4:1: error: unexpected error: surprise",
        't.mlir:2:4: error: expected warning "careful" was not produced',
        't.mlir:3:4: error: expected error "missing" was not produced',
    ]


def test_regex_parts_only_with_re_suffix() -> None:
    plain = parse_expectations("x // expected-error {{a {{.*}} b}}", "t.mlir")
    assert verify_diagnostics([_diag(1, "a {{.*}} b")], plain) == []   # literal text
    regex = parse_expectations("x // expected-error-re {{a {{.*}} b}}", "t.mlir")
    assert verify_diagnostics([_diag(1, "a xyz b")], regex) == []
    broken = parse_expectations("x // expected-error-re {{a {{(}} b}}", "t.mlir")
    assert broken.problems and "invalid regex" in broken.problems[0]
    unterminated = parse_expectations("x // expected-error-re {{a {{b}}", "t.mlir")
    assert unterminated.problems == ["t.mlir:1:6: error: found start of regex with no end '}}'"]


def test_notes_are_checked_as_diagnostics() -> None:
    with_note = Diagnostic("error", "bad", "t.mlir", 1, 1, notes=(Diagnostic("note", "see this", "t.mlir", 1, 1),))
    found = parse_expectations("x // expected-error {{bad}}", "t.mlir")
    assert verify_diagnostics([with_note], found) == ["t.mlir:1:1: error: unexpected note: see this"]


def test_merge_keeps_the_mlir_copy_of_pass_errors_once() -> None:
    pass_diags = [Diagnostic("warning", "w", "t.mlir", 1, 2), Diagnostic("error", "e", "t.mlir", 3, 4)]
    mlir_errors = [Diagnostic("error", "e", "t.mlir", 3, 4, notes=(Diagnostic("note", "n", "t.mlir", 3, 4),)),
                   Diagnostic("error", "verifier", "t.mlir", 5, 6)]
    merged = merge_diagnostics(pass_diags, mlir_errors)
    assert [d.format() for d in merged] == ["t.mlir:1:2: warning: w", "t.mlir:3:4: error: e",
                                            "t.mlir:5:6: error: verifier"]
    assert merged[1].notes  # the MLIR copy, with its note


def test_op_dump_notes_are_ignored_when_verifying() -> None:
    from latticecast.cli.opt.report import without_op_dumps
    dump = Diagnostic("note", 'see current operation: %0 = "stablehlo.add"(%a, %b)', "t.mlir", 1, 1)
    other = Diagnostic("note", "declared here", "t.mlir", 1, 1)
    error = Diagnostic("error", "bad", "t.mlir", 1, 1, notes=(dump, other))
    assert without_op_dumps([error])[0].notes == (other,)


# -- bytecode and portable artifacts -------------------------------------------------------


def test_emit_bytecode_round_trips(mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run_main([str(mixed), "--implicit-cast"], capsys)
    assert code == 0 and "stablehlo.convert" in text
    bc = tmp_path / "out.mlirbc"
    assert run_main([str(mixed), "--implicit-cast", "--emit-bytecode", "-o", str(bc)], capsys)[0] == 0
    data = bc.read_bytes()
    assert data.startswith(b"ML\xefR")
    code, again, err = run_main([str(bc)], capsys)  # bytecode in, text out: the same module
    assert code == 0 and err == "" and again == text
    assert run_main([str(bc), "--implicit-cast"], capsys)[1] == text  # legal: left alone
    assert run_main([str(bc), "--split-input-file"], capsys)[0] == 1  # text-only options say so


def test_a_portable_artifact_is_read_as_the_stablehlo_it_holds(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from jaxlib.mlir.dialects import stablehlo

    from latticecast.dialect_utils.parsing import parse_module

    text = ("module {\n  func.func public @main(%arg0: tensor<2xi16>, %arg1: tensor<2xf32>) -> tensor<2xf32> {\n"
            "    %0 = stablehlo.convert %arg0 : (tensor<2xi16>) -> tensor<2xf32>\n"
            "    %1 = stablehlo.add %0, %arg1 : tensor<2xf32>\n    return %1 : tensor<2xf32>\n  }\n}\n")
    artifact = tmp_path / "model.vhlo"
    artifact.write_bytes(stablehlo.serialize_portable_artifact(parse_module(text), "1.0.0"))
    code, out, err = run_main([str(artifact), "--implicit-cast", "--policy", "numpy"], capsys)
    assert code == 0 and err == "" and out == text
    artifact.write_bytes(artifact.read_bytes()[:60])
    code, out, err = run_main([str(artifact)], capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"{artifact}: error: cannot read the StableHLO portable artifact") and len(err.splitlines()) == 1


# -- mlir-opt's instrumentation flags -------------------------------------------------------


@pytest.mark.parametrize("verify_each", [True, False])
def test_verify_each_decides_whether_a_pass_s_invalid_ir_is_caught(verify_each: bool) -> None:
    """--verify-each (default on) reaches the PassManager: a pass that leaves a function returning
    the wrong type fails the run when it is on and gets through when it is off."""
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.context import make_context
    from latticecast.passes import PipelineRunner
    from latticecast.dialect_utils.parsing import parse_module

    context = make_context(lenient=True)
    module = parse_module(MIXED, context, lenient=True)
    runner = PipelineRunner(Pipeline.parse("implicit-cast"), context, verify_each=verify_each)

    def retype_the_add(op: ir.Operation, pass_: object) -> None:
        add = op.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations[1]
        with op.context, op.location:
            add.results[0].set_type(ir.RankedTensorType.get([4], ir.IntegerType.get_signless(8)))

    runner.pm.add(retype_the_add, name="RetypeTheAdd", argument="retype-the-add")
    if verify_each:
        with pytest.raises(PassFailure, match="requires the same element type for all operands and results"):
            runner.run(module.operation)
    else:
        runner.run(module.operation)
        assert "tensor<4xi8>" in str(module.operation.get_asm(print_generic_op_form=True))
    runner.close()


@pytest.mark.parametrize("argv, field, value", [
    (["--mlir-print-ir-after=cse,canonicalize", "--mlir-print-ir-after", "implicit-cast"], "after",
     ("cse", "canonicalize", "implicit-cast")),
    (["-mlir-print-ir-before=cse"], "before", ("cse",)),
    (["--mlir-print-ir-after-change"], "after_change", True),
])
def test_ir_printing_flags_are_read_as_mlir_opt_reads_them(argv: list[str], field: str, value: object) -> None:
    config = parse_args(["in.mlir", "--implicit-cast", "--cse", *argv])
    assert config.pipeline == Pipeline.parse("builtin.module(implicit-cast,cse)")  # not misread as passes
    assert config.ir_printing is not None and getattr(config.ir_printing, field) == value


def test_a_pass_list_flag_needs_its_passes() -> None:
    with pytest.raises(UsageError, match=r"--mlir-print-ir-after needs the passes"):
        parse_args(["in.mlir", "--implicit-cast", "--mlir-print-ir-after"])
    with pytest.raises(UsageError, match=r"pass names separated by commas"):
        parse_args(["in.mlir", "--implicit-cast", "--mlir-print-ir-after=cse,,x"])


def test_only_the_selected_passes_dumps_are_kept() -> None:
    from latticecast.cli.opt.args import IRPrinting
    from latticecast.cli.opt.ir_printing import keep_dumps

    text = ("// -----// IR Dump After ImplicitCastPass: implicit-cast //----- //\nA\n\n"
            "// -----// IR Dump After CSEPass: cse //----- //\nB\n"
            "// -----// IR Dump Before CSEPass: cse //----- //\nC\n")
    assert keep_dumps(text, IRPrinting(after=("cse",))) == "// -----// IR Dump After CSEPass: cse //----- //\nB\n"
    assert keep_dumps(text, IRPrinting(before=("cse",))).splitlines()[-1] == "C"


def test_option_text_errors_name_the_problem() -> None:
    """Quoted option values: an unclosed quote, and a path that cannot be written back in quotes."""
    from latticecast.passes import PassOptionError
    from latticecast.passes.options import _quoted

    with pytest.raises(PassOptionError, match=r"unbalanced quotes in options 'policy-file=\"a b.csv'"):
        ImplicitCastOptions.parse('policy-file="a b.csv')
    with pytest.raises(PassOptionError, match="an option value cannot hold a double quote"):
        _quoted('tables/"v2".csv')
    assert _quoted("plain.csv") == "plain.csv" and _quoted("a b,{c}.csv") == '"a b,{c}.csv"'


def test_a_pipeline_of_objects_refuses_what_is_not_a_pass() -> None:
    from latticecast.passes import PipelineError

    with pytest.raises(PipelineError, match="a pipeline element is a pass's options, an MLIRPass or a pass name, "
                                            "not int"):
        Pipeline.of_passes("cse", 3)  # type: ignore[arg-type]  # the mistake under test
    with pytest.raises(PipelineError, match=r"move them out of foo\(\.\.\.\)"):
        Pipeline.parse("func.func(foo(lift-implicit-casts))")
