"""latticecast-opt follows mlir-opt's remaining conventions (issue 28).

``--mlir-print-ir-after-failure`` prints the IR after the pass that failed (and nothing when none
fails); ``--version`` names jaxlib, MLIR and StableHLO; ``--list-passes`` lists every pass the
installed jaxlib registers, each one MLIR's registry accepts, with its options; a mixed-dtype input
run without a pass gets one line naming the op and ``--implicit-cast``; ``-q`` and ``-v``.
IR dumps come from MLIR's C++ on file descriptor 2, so these tests capture at that level (capfd).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jaxlib.mlir import passmanager

from latticecast.cli import opt
from latticecast.cli.opt.registered import RegisteredPass, registered_passes, versions
from latticecast.dialect_utils.context import make_context

MIXED = """\
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

REFUSED = """\
func.func @f(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    out, err = capfd.readouterr()
    return code, out, err


def test_print_ir_after_failure_prints_the_ir_the_failing_pass_left(capfd: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    path = write(tmp_path, "refused.mlir", REFUSED)
    code, out, err = run(capfd, path, "--implicit-cast", "--policy", "array-api", "--cse",
                         "--mlir-print-ir-after-failure")
    assert code == 1 and out == ""
    headers = re.findall(r"^// -----// IR Dump .*$", err, re.M)
    assert headers == ["// -----// IR Dump After ImplicitCastPass Failed: implicit-cast //----- //"]
    dump = err[err.index(headers[0]):]
    assert '"stablehlo.add"(%arg0, %arg1) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf32>' in dump
    assert "no implicit promotion of i8 and u64 under policy 'array-api'" in err


def test_print_ir_after_failure_prints_nothing_when_every_pass_succeeds(capfd: pytest.CaptureFixture[str],
                                                                        tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.mlir", MIXED)
    code, out, err = run(capfd, path, "--implicit-cast", "--cse", "--mlir-print-ir-after-failure")
    assert code == 0 and "stablehlo.convert" in out and "IR Dump" not in err
    # with a pass list too (the dumps then go through the filter): still only the failed pass's
    path = write(tmp_path, "refused.mlir", REFUSED)
    code, _, err = run(capfd, path, "--implicit-cast", "--policy", "array-api", "--mlir-print-ir-after-failure",
                       "--mlir-print-ir-before=implicit-cast")
    assert re.findall(r"IR Dump (\w+ \w+(?: Failed)?)", err) == ["Before ImplicitCastPass",
                                                                "After ImplicitCastPass Failed"]


def test_version_names_jaxlib_mlir_and_stablehlo(capfd: pytest.CaptureFixture[str]) -> None:
    import jaxlib
    from jaxlib.mlir.dialects import stablehlo

    code, out, _ = run(capfd, "--version")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("latticecast-opt ")
    assert f"  jaxlib {jaxlib.__version__}" in lines
    assert f"  StableHLO {stablehlo.get_current_version()} (API {stablehlo.get_api_version()})" in lines
    mlir = next(line for line in lines if line.startswith("  MLIR "))
    assert re.fullmatch(r"  MLIR \d+\.\d+\.\d+\w*", mlir), mlir
    assert dict(versions())["jaxlib"] == jaxlib.__version__


def test_the_main_command_names_the_versions_too(capfd: pytest.CaptureFixture[str]) -> None:
    from latticecast.cli.main import main

    assert main(["--version"]) == 0
    out = capfd.readouterr().out
    assert out.startswith("latticecast ") and "  jaxlib " in out and "  StableHLO " in out


@pytest.fixture(scope="module")
def passes() -> list[RegisteredPass]:
    return registered_passes()


def test_every_listed_pass_is_one_mlirs_registry_accepts(passes: list[RegisteredPass]) -> None:
    names = {p.name for p in passes}
    assert {"canonicalize", "cse", "inline", "symbol-dce", "sccp"} <= names
    assert len(passes) >= 40
    context = make_context()
    for p in passes:
        text = f"builtin.module({p.name})" if p.anchor in ("any", "builtin.module") else \
            f"builtin.module({p.anchor}({p.name}))"
        passmanager.PassManager.parse(text, context)      # raises for a name the registry does not know
        if p.options and not p.options.startswith("("):  # the options as MLIR prints them parse back
            body = f"{p.name}{{{p.options}}}"
            passmanager.PassManager.parse(text.replace(p.name, body, 1), context)
    canonicalize = next(p for p in passes if p.name == "canonicalize")
    assert "max-iterations=10" in canonicalize.options and "top-down=true" in canonicalize.options


def test_the_list_is_cached_and_the_same_from_the_cache(passes: list[RegisteredPass],
                                                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from latticecast.cli.opt import registered

    monkeypatch.setenv("LATTICECAST_CACHE_DIR", str(tmp_path))
    nested = [p for p in passes if p.anchor not in ("any", "builtin.module")][:1]   # one on func.func, where any
    names = {"cse", "canonicalize", "no-such-pass"} | {p.name for p in nested}
    monkeypatch.setattr(registered, "_candidates", lambda libraries: names)
    fresh = registered.registered_passes()
    assert [p.name for p in fresh] == sorted(["canonicalize", "cse", *(p.name for p in nested)])
    for p in nested:
        assert next(f for f in fresh if f.name == p.name).anchor == p.anchor
    monkeypatch.setattr(registered, "_candidates", lambda libraries: pytest.fail("the cache was not used"))
    assert registered.registered_passes() == fresh
    assert len(list(tmp_path.glob("passes-*.json"))) == 1


def test_list_passes_prints_them_with_their_options(capfd: pytest.CaptureFixture[str],
                                                    passes: list[RegisteredPass]) -> None:
    code, out, _ = run(capfd, "--list-passes")
    assert code == 0
    assert "  --implicit-cast: " in out and "MLIR passes jaxlib" in out
    for p in passes:
        assert f"  --{p.name}" in out
    assert re.search(r"  --canonicalize\n      options: .*max-iterations=10", out)
    assert max(len(line) for line in out.splitlines() if "options:" in line) <= 100


def test_mixed_input_without_a_pass_gets_a_one_line_hint(capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.mlir", MIXED)
    code, out, err = run(capfd, path)
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith(f"{path}:2:8: error: ") and lines[2] == "       ^"
    hints = [line for line in lines if line.startswith("hint:")]
    assert hints == [f"hint: 'stablehlo.add' mixes element types (i16, f32): run implicit-cast first "
                     f"(latticecast-opt {path} --implicit-cast)"]
    code, _, err = run(capfd, path, "-q")                         # -q: the error, not the hint
    assert code == 1 and "error:" in err and "hint:" not in err
    code, _, err = run(capfd, path, "--implicit-cast", "--verify-diagnostics")   # a pass was asked for
    assert "hint:" not in err
    # a verifier error that is about types but not about an op that mixes them: no hint
    other = write(tmp_path, "use.mlir", "func.func @f(%a: tensor<4xi16>) -> tensor<4xf32> {\n"
                  "  %0 = stablehlo.add %a, %a : tensor<4xi16>\n  return %0 : tensor<4xf32>\n}\n")
    code, _, err = run(capfd, other)
    assert code == 1 and "error:" in err and "hint:" not in err


def test_verbose_says_what_each_chunk_did(capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "two.mlir", MIXED + "// -----\n" + MIXED)
    code, out, err = run(capfd, path, "--implicit-cast", "--split-input-file", "-v")
    assert code == 0 and out.count("stablehlo.convert") == 2
    assert "2 chunks; pipeline builtin.module(implicit-cast{policy=jax diagnose-lossy=off" in err  # every option
    assert re.search(r"chunk 2 \(line 6\): ok in \d+\.\d+ s", err)
    code, _, err = run(capfd, path, "--implicit-cast", "--split-input-file")
    assert err == ""                                              # the default says nothing on success
    code, _, err = run(capfd, path, "-q", "-v")
    assert code == 2 and "not allowed with argument" in err
