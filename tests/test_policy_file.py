"""A user-defined policy from a CSV promotion table: Policy.from_table, through the builder, the pass
(latticecast-opt --policy-file) and the latticecast CLI (table, explain, audit --policy-file)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import latticecast as lc
from latticecast import DType, Graph, Policy, TensorType, weak
from latticecast.cli.main import main
from latticecast.cli.opt import main as opt_main
from latticecast.passes import ImplicitCastOptions
from latticecast.promotion.weak import ptype_name

SMALL = Path(__file__).resolve().parent.parent / "lit_tests" / "policies" / "Inputs" / "small_lattice.csv"
"""The lit test's table: bool -> i* -> int8, uint8 -> int16 -> int32 -> float32; i* -> f* -> float16 -> float32;
f* -> bfloat16 (see its comments)."""


def write(tmp_path: Path, text: "str | bytes", name: str = "t.csv") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


# -- the policy ---------------------------------------------------------------------------------------


def test_from_table_decides_by_the_table() -> None:
    pol = Policy.from_table(SMALL)
    assert pol.name == "small_lattice.csv" and isinstance(pol, Policy)
    assert pol.dtypes == (DType.bool, DType.int8, DType.uint8, DType.int16, DType.int32, DType.float16,
                          DType.bfloat16, DType.float32)
    assert pol.promote_types(DType.int8, DType.uint8) is DType.int16
    assert pol.promote_types(DType.int16, DType.float16) is DType.float32   # float16 under JAX
    assert pol.promote_types(weak(DType.int64), DType.uint8) is DType.uint8  # a Python int is i*
    assert pol.decide(DType.int8, DType.uint8).rule == f"the promotion table {SMALL}"
    with pytest.raises(lc.PromotionError, match=r"no implicit promotion of bf16 and f32 under policy "
                                                r"'small_lattice.csv': the cell at .*small_lattice.csv:\d+:\d+ is empty"):
        pol.promote_types(DType.bfloat16, DType.float32)
    with pytest.raises(lc.PromotionError, match="int64 is not a dtype of policy 'small_lattice.csv'"):
        pol.promote_types(DType.int64, DType.int8)
    assert pol.audit().is_lattice and Policy.from_table(SMALL) is pol  # read once while the file is unchanged
    assert Policy.from_table(SMALL, name="mine").name == "mine"


def test_the_refused_cell_is_named_by_line_and_column(tmp_path: Path) -> None:
    pol = Policy.from_table(write(tmp_path, "# comment\n,int8,float32\nint8,int8,\nfloat32,,float32\n"))
    assert pol.decide(DType.int8, DType.float32).why_not == f"the cell at {tmp_path / 't.csv'}:3:11 is empty"
    assert pol.decide(DType.float32, DType.int8).why_not == f"the cell at {tmp_path / 't.csv'}:4:9 is empty"


@pytest.mark.parametrize("name", ["jax", "jax-strict", "jax-lax", "max", "max-python", "array-api", "anvil",
                                  "numpy", "torch"])
def test_an_exported_table_loads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    """`latticecast table --format csv` writes the format, so a built-in policy can be exported, edited and
    loaded back; it decides every pair of its types as the policy does."""
    path = str(tmp_path / f"{name}.csv")
    assert main(["table", "--policy", name, "--format", "csv", "-o", path]) == 0
    source, loaded = lc.policy(name), Policy.from_table(path)
    assert [ptype_name(t) for t in loaded.types] == [ptype_name(t) for t in source.types]
    for a in source.types:  # a weak type is read back as i*/f*/c* (PyTorch's f* is a weak float32)
        for b in source.types:
            mine, theirs = loaded.try_promote(a, b), source.try_promote(a, b)
            assert (mine and ptype_name(mine)) == (theirs and ptype_name(theirs)), (a, b)


def test_tensorflows_table_is_not_symmetric(tmp_path: Path) -> None:
    """Two Python scalars in TensorFlow: the first one decides, so its export is refused as a policy table."""
    path = str(tmp_path / "tf.csv")
    assert main(["table", "--policy", "tensorflow", "--format", "csv", "-o", path]) == 0
    with pytest.raises(lc.TableFormatError, match=r"tf.csv:\d+:\d+: f\* . i\* is f32 but i\* . f\* at \d+:\d+ is "
                                                  r"empty; a promotion table is symmetric"):
        Policy.from_table(path)


@pytest.mark.parametrize("text, located, fix", [
    (b",int8,int16\nint8,int8,int16\nint16,int16,\xffint16\n", ":3:13:", "not UTF-8 (byte 0xff); save the table as UTF-8"),
    (",int8,int9\nint8,int8,int8\nint9,int8,int9\n", ":1:7:", "unknown type 'int9'; did you mean int8?"),
    (",int8,int16\nint8,int8,int16\nint16,int16,flaot32\n", ":3:13:", "unknown type 'flaot32'; did you mean float32?"),
    (",int8,int16\nint8,int8,int16\nint16,int8,int16\n", ":3:7:",
     "i16 . i8 is i8 but i8 . i16 at 2:11 is i16; a promotion table is symmetric: make the two cells the same"),
    (",int8,int16\nint8,int8,int16\n", ":1:7:", "column i16 has no row; the table must be square: add a row"),
    (",int8\nint8,int8\nint16,int16\n", ":3:1:", "row i16 has no column; the table must be square"),
    (",int8,int16\nint8,int8\nint16,int16,int16\n", ":2:10:",
     "row 'int8' has 1 cells, the header has 2 columns; give one cell per column"),
    (",int8,int16\nint8,int8,int16,int16\n", ":2:17:", "row 'int8' has 3 cells"),
    ("int8,int16\nint8,int8,int16\n", ":1:1:", "the header starts with the type 'int8'"),
    (",int8\nint8,int32\n", ":2:6:", "i32 is not one of the table's types; add a row and a column for it"),
    (",int8,i8\n", ":1:7:", "column 'i8' is the type of column 1:2 again"),
    (",int8\nint8,int8\ni8,int8\n", ":3:1:", "row 'i8' is the type of the row on line 2 again"),
    ("# only comments\n\n", ":1:1:", "empty policy table"),
    (',int8\nint8,"int8\n', ":2:6:", "a quote that is never closed"),
])
def test_bad_files_are_one_located_line_with_the_fix(tmp_path: Path, text: "str | bytes", located: str,
                                                     fix: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(lc.TableFormatError) as info:
        Policy.from_table(path)
    message = str(info.value)
    assert message.startswith(path + located), message
    assert fix in message and "\n" not in message
    assert isinstance(info.value, lc.LatticecastError) and isinstance(info.value, ValueError)


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(lc.TableFormatError, match="missing.csv: cannot read the policy table: No such file"):
        Policy.from_table(tmp_path / "missing.csv")


def test_quoted_cells_and_a_corner_label(tmp_path: Path) -> None:
    pol = Policy.from_table(write(tmp_path, 'lhs\\rhs, "int8" ,int16\nint8,int8,"int16"\nint16,int16,int16\n'))
    assert pol.promote_types(DType.int8, DType.int16) is DType.int16


# -- through the builder, the pass and the CLIs ---------------------------------------------------------


def test_the_builder_follows_the_table() -> None:
    pol = Policy.from_table(SMALL)
    with Graph("small", input_types=[TensorType(DType.int16, [3]), TensorType(DType.float16, [3]),
                                     TensorType(DType.int8, [3])], policy=pol) as g:
        x, h, i = g.inputs
        y = x * h + 1          # float32 here (float16 under JAX); the literal is weak
        z = i + 5              # int8: a Python int takes the strong type
        assert y.dtype is DType.float32 and z.dtype is DType.int8
        with pytest.raises(lc.DomainError, match="does not say what true division of i8 computes in"):
            i / i
        g.output(y, z)
    assert "stablehlo.convert %arg0 : (tensor<3xi16>) -> tensor<3xf32>" in g.mlir()
    out_y, out_z = g.compile()(np.array([1, 2, 3], np.int16), np.array([0.5, 0.5, 0.5], np.float16),
                               np.array([1, 2, 3], np.int8))
    assert out_y.dtype == np.float32 and out_y.tolist() == [1.5, 2.0, 2.5]
    assert out_z.dtype == np.int8 and out_z.tolist() == [6, 7, 8]
    with Graph("refused", input_types=[TensorType(DType.bfloat16, [2]), TensorType(DType.float32, [2])],
               policy=pol) as g2:
        with pytest.raises(lc.PromotionError, match="the cell at .*small_lattice.csv"):
            g2.inputs[0] + g2.inputs[1]


def test_the_pass_option_reads_and_writes_the_file() -> None:
    options = ImplicitCastOptions.parse(f"policy-file={SMALL} diagnose-lossy=warning")
    assert options.policy is Policy.from_table(SMALL)
    assert str(options).startswith(f"policy-file={SMALL} ")
    assert ImplicitCastOptions.parse(str(options)) == options
    assert ImplicitCastOptions.parse(f"policy-file={SMALL} policy=max").policy.name == "max"  # the last one wins
    with pytest.raises(lc.LatticecastError, match="policy-file: .*nope.csv: cannot read the policy table"):
        ImplicitCastOptions.parse("policy-file=nope.csv")


MIXED = """func.func @f(%a: tensor<4xi16>, %b: tensor<4xf16>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_latticecast_opt_policy_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mlir = write(tmp_path, MIXED, "in.mlir")
    assert opt_main([mlir, "--implicit-cast", "--policy-file", str(SMALL)]) == 0
    out, err = capsys.readouterr()
    assert "stablehlo.convert %arg1 : (tensor<4xf16>) -> tensor<4xf32>" in out and err == ""
    bad = write(tmp_path, ",int8,int9\nint8,int8,int8\nint9,int8,int9\n", "bad.csv")
    assert opt_main([mlir, "--implicit-cast", "--policy-file", bad]) == 1   # a file that cannot be used: 1
    out, err = capsys.readouterr()
    # located in the file, as every CLI error in a file: the line and a caret under the column
    assert out == "" and err == (f"{bad}:1:7: error: unknown type 'int9'; did you mean int8?\n"
                                 ",int8,int9\n      ^\n")
    assert opt_main([mlir, "--implicit-cast", "--policy-file", str(SMALL), "--policy", "max"]) == 2
    assert "give --policy or --policy-file, not both" in capsys.readouterr().err
    assert opt_main([mlir, "--policy-file", str(SMALL)]) == 2
    assert "--policy-file is an option of implicit-cast; add --implicit-cast" in capsys.readouterr().err


def test_latticecast_table_explain_audit_policy_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "--policy-file", str(SMALL), "--types", "i8,u8,f16,bf16", "--wide"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2].split() == ["u8", "i16", "u8", "f32", "-"]
    assert main(["explain", "int16", "float16", "--policy-file", str(SMALL)]) == 0
    assert "i16 . f16 under small_lattice.csv (the promotion table" in capsys.readouterr().out
    assert main(["audit", "--policy-file", str(SMALL)]) == 0            # a (partial) lattice
    assert "lattice: yes, a partial lattice" in capsys.readouterr().out
    numpy = str(tmp_path / "numpy.csv")
    assert main(["table", "--policy", "numpy", "--format", "csv", "-o", numpy]) == 0
    assert main(["audit", "--policy-file", numpy]) == 1                 # not associative: exit 1
    assert "lattice: no" in capsys.readouterr().out
    bad = write(tmp_path, ",int8,int16\nint8,int8,int16\nint16,int8,int16\n", "bad.csv")
    for command in (["table"], ["explain", "i8", "i16"], ["audit"], ["lattice"]):
        assert main([*command, "--policy-file", bad]) == 2
        assert capsys.readouterr().err == (f"{bad}:3:7: error: i16 . i8 is i8 but i8 . i16 at 2:11 is "
                                           "i16; a promotion table is symmetric: make the two cells the same\n"
                                           "int16,int8,int16\n      ^\n")
    assert main(["table", "--policy", "max", "--policy-file", str(SMALL)]) == 2
    assert main(["audit", str(SMALL), "--policy-file", str(SMALL)]) == 2
    assert "usage: latticecast audit" in capsys.readouterr().err
