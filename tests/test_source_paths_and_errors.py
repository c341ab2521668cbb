"""``lc.compile`` and ``lc.parse`` take a file's path as well as text and bytes, and every CLI error
that points into a file has one format: ``file:line:col: error: message``, the line, a caret (issue 28).

The rule that tells a path from text (:func:`~latticecast.dialect_utils.parsing.is_source_path`): an
``os.PathLike``, or a ``str`` of one line that ends in ``.mlir`` or ``.mlirbc``; ``bytes`` are contents.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import latticecast as lc
from latticecast.cli.main import main
from latticecast.cli.opt import main as opt_main
from latticecast.dialect_utils.parsing import is_source_path

MAIN = """\
func.func @main(%x: tensor<2xi32>, %y: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.multiply %x, %y : tensor<2xi32>
  return %0 : tensor<2xi32>
}
"""
BAD = "func.func @main(%a: tensor<4xi16>) -> tensor<4xi16> {\n  %0 = stablehlo.add %a, %zz : tensor<4xi16>\n}\n"


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "model.mlir"
    path.write_text(MAIN)
    return path


@pytest.mark.parametrize("kind", ["str", "path", "text", "bytes", "bytecode-file"])
def test_compile_takes_a_path_text_or_bytes(program: Path, kind: str) -> None:
    source: object = {"str": str(program), "path": program, "text": MAIN, "bytes": MAIN.encode()}.get(kind)
    if kind == "bytecode-file":
        import io

        buf = io.BytesIO()
        lc.parse(program).operation.write_bytecode(buf)
        source = program.with_suffix(".mlirbc")
        source.write_bytes(buf.getvalue())
    model = lc.compile(source)   # type: ignore[arg-type]
    (out,) = model(np.array([2, 3], np.int32), np.array([4, 5], np.int32))
    assert out.tolist() == [8, 15]


def test_parse_takes_a_path_and_names_it_in_locations(program: Path) -> None:
    for source in (program, str(program)):
        module = lc.parse(source)
        assert "stablehlo.multiply" in str(module)
        assert str(program) in str(module.body.operations[0].location)
    bad = program.with_name("bad.mlir")
    bad.write_text(BAD)
    with pytest.raises(lc.MLIRParseError, match=rf"{bad}:2:26: error: use of undeclared SSA value name"):
        lc.parse(bad)
    with pytest.raises(lc.MLIRParseError, match=rf"{bad}:2:26"):
        lc.compile(str(bad))


def test_a_missing_file_is_an_error_that_says_how_paths_are_told_from_text(tmp_path: Path) -> None:
    missing = tmp_path / "model.mlir"
    for call in (lc.compile, lc.parse):
        with pytest.raises(lc.SourceFileError, match="No such file or directory .*ending in .mlir or .mlirbc"):
            call(str(missing))
    assert issubclass(lc.SourceFileError, OSError) and issubclass(lc.SourceFileError, lc.LatticecastError)


def test_the_path_rule() -> None:
    assert is_source_path("model.mlir") and is_source_path("dir/model.mlirbc") and is_source_path(Path("x"))
    assert not is_source_path(MAIN) and not is_source_path(MAIN.encode()) and not is_source_path("model.txt")
    assert not is_source_path("module {}\n// model.mlir")       # two lines: text, whatever its end
    with pytest.raises(TypeError, match="path of a .mlir/.mlirbc file"):
        lc.compile(3.5)   # type: ignore[arg-type]


# -- one format for located CLI errors ---------------------------------------------------------------


def test_compare_reports_a_parse_error_once_with_its_line_and_caret(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "huge.mlir"
    bad.write_text(BAD)
    assert main(["compare", str(bad), "--vs", "numpy"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"{bad}:2:26: error: use of undeclared SSA value name",
                                "  %0 = stablehlo.add %a, %zz : tensor<4xi16>", " " * 25 + "^"]
    assert err.count("error") == 1 and "latticecast: error" not in err


@pytest.mark.parametrize("tool", ["latticecast", "latticecast-opt"])
def test_a_policy_file_error_points_at_its_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str], tool: str) -> None:
    table = tmp_path / "my.csv"
    table.write_text(",i8,i16\ni8,i8,i16\ni16,i16,i17\n")
    if tool == "latticecast":
        code = main(["table", "--policy-file", str(table)])
    else:
        program = tmp_path / "m.mlir"
        program.write_text(MAIN)
        code = opt_main([str(program), "--implicit-cast", "--policy-file", str(table)])
    lines = capsys.readouterr().err.splitlines()
    assert code == (2 if tool == "latticecast" else 1)
    assert lines[0].startswith(f"{table}:3:9: error: unknown type 'i17'")
    assert lines[1:] == ["i16,i16,i17", " " * 8 + "^"]


def test_an_error_with_no_place_in_a_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--policy", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("latticecast: error: unknown policy 'nope'") and err.count("\n") == 1


def test_no_traceback_from_the_console_scripts(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    for argv in (["latticecast", "compare", str(bad), "--vs", "numpy"], ["latticecast-opt", str(bad)]):
        done = subprocess.run([str(Path(sys.executable).parent / argv[0]), *argv[1:]], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr
        assert done.stderr.splitlines()[0] == f"{bad}:2:26: error: use of undeclared SSA value name"
