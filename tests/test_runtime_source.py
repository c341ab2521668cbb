"""Malformed MLIR text: a clear error with the parser's file:line:col, no jaxlib traceback."""

from __future__ import annotations

import numpy as np
import pytest

from latticecast.runtime import Diagnostic, MLIRParseError, compile
from latticecast.runtime.source import canonical_digest, parse_runnable_module, source_digest

TYPE_MISMATCH = """module {
  func.func public @main(%x: tensor<4xi16>) -> tensor<4xf32> {
    %0 = stablehlo.add %x, %x : tensor<4xi16>
    return %0 : tensor<4xf32>
  }
}"""

pytestmark = pytest.mark.usefixtures("fresh_cache")


def test_parse_error_has_file_line_col_and_the_source_line() -> None:
    with pytest.raises(MLIRParseError) as e:
        compile(TYPE_MISMATCH)
    msg = str(e.value)
    assert msg.startswith("cannot parse <input> as MLIR:\n<input>:4:12: error: use of value '%0'")
    # the line and a caret at col 12, as every latticecast error prints them (Diagnostic.source_lines)
    assert "\n    return %0 : tensor<4xf32>\n" + " " * 11 + "^\n" in msg
    assert "<input>:3:5: note: prior use here" in msg
    first = e.value.diagnostics[0]
    assert first == Diagnostic(
        "error", "use of value '%0' expects different type than prior uses: 'tensor<4xf32>' vs "
        "'tensor<4xi16>'", "<input>", 4, 12, notes=(Diagnostic("note", "prior use here", "<input>", 3, 5),))
    assert e.value.__cause__ is None and e.value.__suppress_context__  # no jaxlib traceback
    assert isinstance(e.value, ValueError)


def test_source_name_is_used_in_positions() -> None:
    with pytest.raises(MLIRParseError, match=r"cannot parse model\.mlir as MLIR:\nmodel\.mlir:1:26: error: expected non-function type"):
        compile("module { func.func @main( }", source_name="model.mlir")


def test_bytes_text_and_empty_text() -> None:
    with pytest.raises(MLIRParseError, match="<input>:4:12"):
        compile(TYPE_MISMATCH.encode())
    with pytest.raises(MLIRParseError, match="empty"):
        compile("   \n")
    with pytest.raises(MLIRParseError, match="not UTF-8"):
        compile(b"\xff\xfe module")


def test_mixed_dtype_ops_get_the_implicit_cast_hint() -> None:
    text = """func.func @main(%x: tensor<4xi16>, %y: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "stablehlo.add"(%x, %y) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32> }"""
    with pytest.raises(MLIRParseError, match=r"(?s)<input>:2:12: error: .*hint: .*implicit-cast"):
        compile(text)


def test_unknown_op_and_garbage() -> None:
    with pytest.raises(MLIRParseError, match=r"<input>:1:1: error"):
        compile("this is not MLIR")


def test_an_ir_module_that_does_not_verify() -> None:
    """An ir.Module built (for instance) by the graph builder is verified before compiling."""
    from jaxlib.mlir import ir

    from latticecast.dialect_utils.context import make_context

    ctx = make_context()
    with ctx, ir.Location.unknown():
        module = ir.Module.parse("""func.func @main(%x: tensor<4xi16>) -> tensor<4xi16> {
          return %x : tensor<4xi16> }""")
        main = module.body.operations[0]
        # Break it: make the function claim a result type its return does not produce.
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
            [ir.RankedTensorType.get([4], ir.IntegerType.get_signless(16))],
            [ir.RankedTensorType.get([4], ir.F32Type.get())]))
    with pytest.raises(MLIRParseError, match=r"<module> does not verify as StableHLO:\n.*error"):
        compile(module)


def test_bytecode_input_runs() -> None:
    import io

    module = parse_runnable_module("""func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> {
      %0 = stablehlo.negate %x : tensor<2xi8>
      return %0 : tensor<2xi8> }""")
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    model = compile(buf.getvalue())
    np.testing.assert_array_equal(model(np.array([3, -4], np.int8))[0], [-3, 4])


def test_digests() -> None:
    a = "func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> { return %x : tensor<2xi8> }"
    b = "// a comment\nfunc.func @main(%y: tensor<2xi8>) -> tensor<2xi8> {\n  return %y : tensor<2xi8>\n}\n"
    assert source_digest(a) != source_digest(b)
    assert canonical_digest(parse_runnable_module(a)) == canonical_digest(parse_runnable_module(b))
    m = parse_runnable_module(a)
    assert source_digest(m) == source_digest(m)


def test_unregistered_ops_and_address_type_are_parse_errors_with_hints() -> None:
    """The builder's context accepts unregistered dialects (lenient parsing); the runtime's
    does not, so they fail at parse time with a position instead of deep inside XLA."""
    text = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
      %0 = "mydialect.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32> }"""
    with pytest.raises(MLIRParseError, match=r"(?s)<input>:2:26: error: .*unregistered dialect.*hint: .*StableHLO"):
        compile(text)
    text = """func.func @main(%a: tensor<2x!latticecast.address>) -> tensor<2x!latticecast.address> {
      return %a : tensor<2x!latticecast.address> }"""
    with pytest.raises(MLIRParseError, match=r"(?s)<input>:1:.*hint: .*!latticecast.address to ui64"):
        compile(text)


def test_an_ir_module_with_an_unregistered_op_is_refused_before_xla() -> None:
    """PJRT's compiler segfaults on an unregistered op: it must never see one."""
    from latticecast.dialect_utils.context import make_context
    from latticecast.runtime import UnsupportedModuleError

    module = parse_runnable_module("""func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
      %0 = "mydialect.op"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      %1 = "mydialect.cast"(%0) : (tensor<2xf32>) -> tensor<2x!latticecast.address>
      %2 = "mydialect.cast"(%1) : (tensor<2x!latticecast.address>) -> tensor<2xf32>
      return %2 : tensor<2xf32> }""", context=make_context(lenient=True))  # like the builder's
    with pytest.raises(UnsupportedModuleError) as e:
        compile(module)
    assert str(e.value) == (
        "<module> cannot run on PJRT: it has unregistered op(s) mydialect.cast, mydialect.op "
        "(the runtime runs StableHLO, func and chlo; lower other dialects first); and element "
        "type(s) !latticecast.address, which PJRT does not run (latticecast's implicit-cast pass "
        "lowers index and !latticecast.address to ui64 and tf32 to f32).")


def test_large_text_digests_are_remembered() -> None:
    from latticecast.runtime import source

    big = "// " + "x" * (1 << 17) + "\nfunc.func @main() -> () { return }"
    first = source_digest(big)
    assert big in source._memo
    assert source_digest("".join([big[:5], big[5:]])) == first  # an equal new string
    assert source._source_digest(big) == first
