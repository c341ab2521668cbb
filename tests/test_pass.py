"""The implicit-cast pass on IR text: rewrites, weak values, regions, diagnostics, pipelines."""

from pathlib import Path

import pytest

import latticecast as lc
from jaxlib.mlir import ir, passmanager

from latticecast.dialect_utils.context import make_context
from latticecast.dialect_utils.diagnostics import MLIRParseError
from latticecast.dialect_utils.parsing import parse_module
from latticecast.promotion.op_rules import STABLEHLO, Needs, ResultKind
from latticecast.passes import (ImplicitCastOptions, ImplicitCastPass, PassOptionError, PipelineError,
                                run_implicit_cast, run_pipeline)


@pytest.fixture(scope="module")
def ctx():
    return make_context(lenient=True)


def run(ctx, text, pipeline="builtin.module(implicit-cast)"):
    m = parse_module(text, ctx, lenient=True, source_name="in.mlir")
    passes = run_pipeline(m, pipeline).passes
    return str(m), passes


def fails(ctx, text, pipeline="builtin.module(implicit-cast)"):
    m = parse_module(text, ctx, lenient=True, source_name="in.mlir")
    with pytest.raises(lc.PassFailure) as e:
        run_pipeline(m, pipeline)
    out = []
    for d in e.value.diagnostics:  # "in.mlir:2:8: error: message", as MLIR's loc("in.mlir":2:8) and message
        where, _, message = d.partition(": error: ")
        file, line, col = where.rsplit(":", 2)
        out.append((f'loc("{file}":{line}:{col})', message.split("\n")[0]))
    return out


MIXED = """
func.func @main(%a: tensor<4xi16>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%b, %a) : (tensor<4xf32>, tensor<4xi16>) -> tensor<4xf32>
  %2 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>
}
"""


def test_one_convert_per_value_and_target(ctx):
    out, (p,) = run(ctx, MIXED)
    assert out.count("stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>") == 1
    assert out.count("stablehlo.convert") == 1
    assert p.results[0].converts == 1


def test_a_legal_module_is_left_unchanged_and_the_pass_is_idempotent(ctx):
    once, _ = run(ctx, MIXED)
    twice, (p,) = run(ctx, once)
    assert once == twice and p.results[0].converts == 0
    legal = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n"
    before = str(parse_module(legal, ctx))
    after, _ = run(ctx, legal)
    assert before == after


WEAK = """
func.func @main(%x: tensor<4xi8>, %w: tensor<4xf64> {latticecast.weak}, %f: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xf32>) {
  %c = stablehlo.constant {latticecast.weak} dense<3> : tensor<i64>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4xi64>
  %0 = "stablehlo.add"(%x, %b) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  %1 = "stablehlo.multiply"(%b, %x) : (tensor<4xi64>, tensor<4xi8>) -> tensor<4xi8>
  %2 = "stablehlo.add"(%w, %f) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xi8>, tensor<4xi8>, tensor<4xf32>
}
"""


def test_weak_constants_are_retyped_and_weak_arguments_converted(ctx):
    out, (p,) = run(ctx, WEAK)
    assert "stablehlo.constant dense<3> : tensor<i8>" in out  # no convert for the constant
    assert "broadcast_in_dim %c, dims = [] : (tensor<i8>) -> tensor<4xi8>" in out
    assert "tensor<i64>" not in out and "latticecast.weak" not in out
    assert "stablehlo.convert %arg1 : (tensor<4xf64>) -> tensor<4xf32>" in out  # weak f64 defers to f32
    assert p.results[0].retyped_constants == 1 and p.results[0].converts == 1
    assert ir.Module.parse(out, ctx).operation.verify()


def test_a_convert_the_pass_made_is_no_escape_of_the_weak_value_it_reads(ctx):
    """The weak f64 argument is converted to f16 for the add; that convert reads it, but it is the pass's
    own, so the argument does not escape (it is not first made the default f32 and converted again)."""
    text = """
func.func @main(%w: tensor<4xf64> {latticecast.weak}, %h: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%w, %h) : (tensor<4xf64>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
"""
    out, (p,) = run(ctx, text, "builtin.module(implicit-cast{policy=jax-x32})")
    assert out.count("stablehlo.convert") == 1 and "(tensor<4xf64>) -> tensor<4xf16>" in out, out
    assert p.results[0].converts == 1


def test_weak_values_escaping_take_the_default_type(ctx):
    text = """
func.func @main() -> tensor<f64> {
  %c = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<f64>
  return %c : tensor<f64>
}
"""
    out, _ = run(ctx, text, "builtin.module(implicit-cast{policy=jax-x32})")
    assert "dense<2.500000e+00> : tensor<f32>" in out and "-> tensor<f32>" in out
    out, _ = run(ctx, text, "builtin.module(implicit-cast{policy=jax})")
    assert "tensor<f64>" in out


def test_a_weak_index_value_escaping_keeps_its_type(ctx):
    """Found by opt_fuzz: a weak index argument returned as it is was converted to i64 with a
    stablehlo.convert, which takes no index; index has no convert, lower-dtypes types it."""
    text = """
func.func @identity(%i: tensor<3xindex> {latticecast.weak}) -> tensor<3xindex> {
  return %i : tensor<3xindex>
}
"""
    out, _ = run(ctx, text, "builtin.module(implicit-cast{policy=jax})")
    assert "stablehlo.convert" not in out and "latticecast.weak" not in out
    assert ir.Module.parse(out, ctx).operation.verify()


def test_ops_inside_regions_are_legalised(ctx):
    text = """
func.func @main(%n: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r:2 = stablehlo.while(%i = %n, %acc = %x) : tensor<i32>, tensor<f32>
    cond {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %p = stablehlo.compare GT, %i, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant {latticecast.weak} dense<1> : tensor<i64>
      %j = "stablehlo.subtract"(%i, %one) : (tensor<i32>, tensor<i64>) -> tensor<i32>
      %a = "stablehlo.add"(%acc, %i) : (tensor<f32>, tensor<i32>) -> tensor<f32>
      stablehlo.return %j, %a : tensor<i32>, tensor<f32>
    }
  return %r#1 : tensor<f32>
}
"""
    out, _ = run(ctx, text)
    assert "dense<1> : tensor<i32>" in out and "stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>" in out
    assert ir.Module.parse(out, ctx).operation.verify()


@pytest.mark.parametrize("policy, op, a, b, message", [
    ("array-api", "add", "i32", "f32", "no implicit promotion of i32 and f32 under policy 'array-api'"),
    ("jax-strict", "add", "i8", "i16", "strict promotion allows no implicit conversion"),
    ("jax", "and", "i32", "f32", "needs integer or bool operands, but its operands i32 and f32 promote to f32"),
    ("jax", "shift_left", "i32", "f32", "needs integer operands (not bool or float)"),
    ("jax", "atan2", "i32", "i16", "needs floating-point or complex operands"),
    ("max", "add", "f32", "complex<f32>", "complex64 is not a dtype of policy 'max'"),
])
def test_illegal_programs_get_diagnostics_at_the_op(ctx, policy, op, a, b, message):
    text = (f"func.func @main(%a: tensor<4x{a}>, %b: tensor<4x{b}>) -> () {{\n"
            f'  %0 = "stablehlo.{op}"(%a, %b) : (tensor<4x{a}>, tensor<4x{b}>) -> tensor<4x{a}>\n'
            f"  return\n}}\n")
    diags = fails(ctx, text, f"builtin.module(implicit-cast{{policy={policy}}})")
    assert len(diags) == 1
    loc, msg = diags[0]
    assert loc == 'loc("in.mlir":2:8)'
    assert msg.startswith(f"'stablehlo.{op}' op ") and message in msg


def test_declared_result_contradicting_the_join(ctx):
    text = """
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xi32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"""
    (loc, msg), = fails(ctx, text)
    assert "declares result type tensor<4xi32>, which contradicts the promotion of i32 and f32 to f32" in msg
    assert "declare tensor<4xf32>" in msg


def test_weak_constant_out_of_range(ctx):
    text = """
func.func @main(%a: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<1000> : tensor<4xi64>
  %0 = "stablehlo.add"(%a, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
"""
    (loc, msg), = fails(ctx, text)
    assert "Unsafe cast: a weakly typed constant (at in.mlir:3:8) does not fit the promoted type: 1000 out of range for int8 [-128, 127]" in msg


def test_every_error_is_reported_not_only_the_first(ctx):
    text = """
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf32>) -> () {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
"""
    diags = fails(ctx, text, "builtin.module(implicit-cast{policy=array-api})")
    assert [loc for loc, _ in diags] == ['loc("in.mlir":3:8)', 'loc("in.mlir":4:8)']


LOSSY = """
func.func @main(%a: tensor<4xi64>, %b: tensor<4xf16>, %u: tensor<4xui16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  %1 = "stablehlo.add"(%u, %b) : (tensor<4xui16>, tensor<4xf16>) -> tensor<4xf16>
  return %0, %1 : tensor<4xf16>, tensor<4xf16>
}
"""


@pytest.mark.parametrize("level", ["warning", "remark"])
def test_diagnose_lossy_reports_magnitude_loss(ctx, level):
    _, (p,) = run(ctx, LOSSY, f"builtin.module(implicit-cast{{diagnose-lossy={level}}})")
    assert [(d.severity, d.where) for d in p.diagnostics] == [(level, "in.mlir:3:8"), (level, "in.mlir:4:8")]
    assert "implicit promotion of i64 to f16 can lose magnitude" in p.diagnostics[0].message
    assert "ui16 values up to 6.55e+04 exceed f16's largest finite value 65504" in p.diagnostics[1].message
    _, (quiet,) = run(ctx, LOSSY)
    assert quiet.diagnostics == []


def test_diagnose_lossy_as_error_fails_the_pass(ctx):
    diags = fails(ctx, LOSSY, "builtin.module(implicit-cast{diagnose-lossy=error})")
    assert len(diags) == 2 and "can lose magnitude" in diags[0][1]


def test_composes_with_other_passes(ctx):
    text = MIXED.replace('%1 = "stablehlo.multiply"(%b, %a) : (tensor<4xf32>, tensor<4xi16>)',
                         '%1 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>)')
    out, _ = run(ctx, text, "builtin.module(implicit-cast{policy=jax},canonicalize,cse)")
    assert out.count("stablehlo.add") == 1  # cse merged the two adds after the pass made them equal
    # nested pipelines of other passes compose too (mixed-dtype IR must meet implicit-cast first:
    # the verifier runs after every pass and rejects it)
    out, _ = run(ctx, MIXED, "builtin.module(implicit-cast,func.func(canonicalize),cse)")
    assert "stablehlo.convert" in out


def test_python_pass_manager_api(ctx):
    m = parse_module(MIXED, ctx, lenient=True)
    p = ImplicitCastPass(policy="max")
    with ctx:
        pm = passmanager.PassManager("builtin.module")
        p.add_to(pm)
        pm.add("canonicalize")
        assert "implicit-cast" in str(pm)
        pm.run(m.operation)
    assert "stablehlo.convert" in str(m)
    result = run_implicit_cast(parse_module(MIXED, ctx, lenient=True).operation, ImplicitCastOptions(policy="numpy"))
    assert result.ok and result.converts == 1


def test_pipeline_and_option_errors(ctx):
    m = parse_module(MIXED, ctx, lenient=True)
    with pytest.raises(PipelineError, match="implicit-cast has no option 'bogus'"):
        run_pipeline(m, "builtin.module(implicit-cast{bogus=1})")
    with pytest.raises(PipelineError, match="unknown policy 'fortran'"):
        run_pipeline(m, "builtin.module(implicit-cast{policy=fortran})")
    with pytest.raises(PipelineError, match="does not refer to a registered pass"):
        run_pipeline(m, "builtin.module(no-such-pass)")
    with pytest.raises(PipelineError, match="move them out of func.func"):
        run_pipeline(m, "builtin.module(func.func(implicit-cast))")
    with pytest.raises(PipelineError, match="unbalanced"):
        run_pipeline(m, "builtin.module(implicit-cast{policy=max)")
    with pytest.raises(PassOptionError, match="diagnose-lossy must be one of"):
        ImplicitCastOptions.parse("diagnose-lossy=loud")
    assert ImplicitCastOptions.parse("diagnose-lossy").diagnose_lossy == "warning"


def test_lenient_parser_reports_file_line_col(ctx):
    with pytest.raises(MLIRParseError) as e:
        parse_module("func.func @f(%a: tensor<4xi8>) -> tensor<4xi8> {\n  return %b : tensor<4xi8>\n}\n", ctx,
                     source_name="bad.mlir")
    assert str(e.value).startswith("bad.mlir:2:10: error: use of undeclared SSA value name")
    with pytest.raises(MLIRParseError, match="bad.mlir:1:1"):
        parse_module("this is not mlir", ctx, source_name="bad.mlir")


def test_max_index_tf32_address_lowering(ctx):
    text = """
func.func @main(%i: tensor<4xindex>, %t: tensor<4xtf32>, %f: tensor<4xf64>) -> (tensor<4xindex>, tensor<4xf64>) {
  %0 = "stablehlo.add"(%i, %i) : (tensor<4xindex>, tensor<4xindex>) -> tensor<4xindex>
  %1 = "stablehlo.multiply"(%t, %f) : (tensor<4xtf32>, tensor<4xf64>) -> tensor<4xf64>
  return %0, %1 : tensor<4xindex>, tensor<4xf64>
}
"""
    out, _ = run(ctx, text, "builtin.module(implicit-cast{policy=max})")
    assert "(%arg0: tensor<4xui64>, %arg1: tensor<4xf32>, %arg2: tensor<4xf64>) -> (tensor<4xui64>, tensor<4xf64>)" in out
    assert "stablehlo.reduce_precision %arg1, format = e8m10" in out
    # without the lowering the types stay, and StableHLO's verifier (run after the pass) rejects them
    diags = fails(ctx, text, "builtin.module(implicit-cast{policy=max lower-dtypes=false})")
    assert any("must be ranked tensor of" in msg and "tf32" in msg for _, msg in diags)


SHARDED = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func public @main(%a: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<8x8xf32>, %g: tensor<8x8xi16> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) -> tensor<8x8xf32> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<8x8xi32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.sharding_constraint %a <@mesh, [{"y"}, {}]> : tensor<8x8xi32>
  %2 = "stablehlo.add"(%1, %0) : (tensor<8x8xi32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = sdy.named_computation<"inner">(%g) (%arg: tensor<8x8xi16>) {
    sdy.return %arg : tensor<8x8xi16>
  } : (tensor<8x8xi16>) -> tensor<8x8xi16>
  %4 = "stablehlo.subtract"(%2, %3) : (tensor<8x8xf32>, tensor<8x8xi16>) -> tensor<8x8xf32>
  %5 = "stablehlo.multiply"(%4, %g) : (tensor<8x8xf32>, tensor<8x8xi16>) -> tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}
"""


def test_inserted_converts_keep_the_sharding_of_the_value_they_convert(ctx):
    out, _ = run(ctx, SHARDED)
    # an argument's Shardy sharding, a sharding constraint's, an argument's GSPMD sharding
    assert ('stablehlo.convert %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : '
            '(tensor<8x8xi32>) -> tensor<8x8xf32>') in out
    assert ('%3 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {}]> : tensor<8x8xi32>\n'
            '    %4 = stablehlo.convert %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : '
            '(tensor<8x8xi32>) -> tensor<8x8xf32>') in out
    assert ('stablehlo.convert %arg2 {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x8xi16>) -> '
            'tensor<8x8xf32>') in out
    # a value without a sharding (the result of a named computation) gets a plain convert
    assert "%7 = stablehlo.convert %6 : (tensor<8x8xi16>) -> tensor<8x8xf32>" in out
    assert "sdy.mesh @mesh" in out and 'sdy.named_computation<"inner">' in out


# -- what the pass changed (PassResult.changed), and the verifier a runner skips for it -------------


_LIT = Path(__file__).resolve().parent.parent / "lit_tests"


def _lit_chunks() -> list[tuple[str, str]]:
    """Every ``// -----`` chunk of the lit tests' inputs: hand-written IR of every shape the pass meets
    (weak values, regions, markers, lowered dtypes, errors)."""
    from latticecast.cli.opt.split import split_input

    out = []
    for path in sorted(_LIT.rglob("*.mlir")):
        for n, chunk in enumerate(split_input(path.read_text(encoding="utf-8"))):
            out.append((f"{path.relative_to(_LIT)}#{n}", chunk.text))
    return out


@pytest.mark.parametrize("policy", ["jax", "max", "torch"])
def test_a_run_that_reports_no_change_changed_nothing(ctx, policy):
    """``changed`` is False only where the printed module is exactly what it was: over every chunk of
    the lit tests under three policies (MAX's lowers dtypes). And a run that inserts a convert says so."""
    said_unchanged = said_changed = 0
    for name, text in _lit_chunks():
        try:
            m = parse_module(text, ctx, lenient=True, source_name=name)
        except MLIRParseError:
            continue  # a test of the parser's errors
        before = m.operation.get_asm(print_generic_op_form=True)
        result = run_implicit_cast(m.operation, ImplicitCastOptions(policy=policy))
        after = m.operation.get_asm(print_generic_op_form=True)
        if not result.changed:
            assert after == before, name
            said_unchanged += 1
        else:
            said_changed += 1
        if result.converts:
            assert result.changed, name
    assert said_unchanged >= 20 and said_changed >= 50, (said_unchanged, said_changed)


def test_changed_names_each_kind_of_change(ctx):
    """Each thing the pass can change on its own makes ``changed`` true: a convert, a retyped weak
    literal, a weak marker removed from a legal op or argument, a lowered dtype."""
    def changed(text, policy="jax"):
        m = parse_module(text, ctx, lenient=True)
        return run_implicit_cast(m.operation, ImplicitCastOptions(policy=policy)).changed

    assert changed(MIXED)
    assert changed(WEAK)
    legal = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}"
    assert not changed(legal)
    marked = legal.replace("%0 = stablehlo.add %a, %a", "%0 = stablehlo.add %a, %a {latticecast.weak}")
    assert changed(marked)  # the marker is removed
    weak_arg = legal.replace("%a: tensor<2xf32>)", "%a: tensor<2xf32> {latticecast.weak})")
    assert changed(weak_arg)
    index = ("func.func @f(%i: tensor<2xindex>) -> tensor<2xindex> {\n"  # no convert: lowered to ui64 only
             '  %0 = "stablehlo.add"(%i, %i) : (tensor<2xindex>, tensor<2xindex>) -> tensor<2xindex>\n'
             "  return %0 : tensor<2xindex>\n}")
    assert changed(index, "max")


def test_a_runner_told_the_module_verified_skips_the_verifier_after_a_pass_that_changed_nothing(ctx):
    """As MLIR's pass manager skips the verifier after a pass that preserved all analyses. Shown by
    telling it an untrue thing: a module that does not verify, which the pass leaves as it is, passes
    when the runner is told it verified, and fails the verifier when it is not."""
    from latticecast.passes import Pipeline, PipelineRunner

    legal = ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
             "  return %0 : tensor<2xf32>\n}")
    runner = PipelineRunner(Pipeline.parse("implicit-cast"), ctx)

    def broken(marked: bool = False) -> ir.Module:
        text = legal.replace("%a, %a :", "%a, %a {latticecast.weak} :") if marked else legal
        m = parse_module(text, ctx)
        with ctx, ir.Location.unknown():  # the function now returns tensor<2xf32> as f16: does not verify
            f = m.body.operations[0]
            f.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
                [ir.RankedTensorType.get([2], ir.F32Type.get())], [ir.RankedTensorType.get([2], ir.F16Type.get())]))
        return m

    runner.run(broken().operation, verified=True)  # the pass changed nothing: not verified again
    with pytest.raises(lc.PassFailure, match="doesn't match function result type"):
        runner.run(broken().operation)
    with pytest.raises(lc.PassFailure, match="doesn't match function result type"):
        runner.run(broken().operation, verified=False)
    # a pass that changed the module (here: removed a weak marker) is verified after it, whatever the
    # runner was told
    with pytest.raises(lc.PassFailure, match="doesn't match function result type"):
        runner.run(broken(marked=True).operation, verified=True)


def _rule_instance(name: str, mixed: bool) -> str:
    """``name`` (an implicit-cast rule) in the generic form on operands whose element types differ
    (``mixed``) or agree, everything else the same: of one kind (float, integer or fp8), so that only
    the element types' agreement differs between the two."""
    rule = STABLEHLO[name]
    if rule.mixed_is_legal:
        a, b, result = "f8E4M3FN", ("f8E5M2" if mixed else "f8E4M3FN"), "f32"
    elif rule.needs in (Needs.INTEGER, Needs.INTEGER_OR_BOOL):
        a, b, result = "i32", ("i16" if mixed else "i32"), "i32"
    else:
        a, b, result = "f32", ("f16" if mixed else "f32"), "f32"
    attrs = ""
    if name == "stablehlo.compare":
        attrs, result = " {comparison_direction = #stablehlo<comparison_direction LT>}", "i1"
    elif name == "stablehlo.complex":
        result = "complex<f32>"
    elif name == "stablehlo.dot_general":
        attrs = " {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}"
    dot = rule.result is ResultKind.ACCUMULATE
    shape = "" if dot else "2x"
    operands = {"stablehlo.select": [("p", "i1"), ("x", a), ("y", b)],
                "stablehlo.clamp": [("lo", a), ("x", b), ("hi", a)]}.get(name, [("x", a), ("y", b)])
    args = ", ".join(f"%{n}: tensor<2x{t}>" for n, t in operands)
    names = ", ".join(f"%{n}" for n, _ in operands)
    types = ", ".join(f"tensor<2x{t}>" for _, t in operands)
    out = f"tensor<{shape}{result}>"
    return (f"func.func @f({args}) -> {out} {{\n  %0 = \"{name}\"({names}){attrs} : ({types}) -> {out}\n"
            f"  return %0 : {out}\n}}")


@pytest.mark.parametrize("name", sorted(STABLEHLO))
def test_mixed_is_legal_is_what_stablehlos_verifier_says(name):
    """The fact a verified module's walk relies on (``run_implicit_cast(verified=True)``): StableHLO's
    verifier rejects operands of different element types for every rule not ``mixed_is_legal``, and
    accepts them for the others; the same op with agreeing operands verifies, so it is the element
    types the verifier judges, not a malformed instance."""
    strict = make_context()
    parse_module(_rule_instance(name, mixed=False), strict)  # verifies
    if STABLEHLO[name].mixed_is_legal:
        parse_module(_rule_instance(name, mixed=True), strict)
    else:
        with pytest.raises(MLIRParseError):
            parse_module(_rule_instance(name, mixed=True), strict)


def test_a_verified_module_walks_to_the_same_result(ctx):
    """``verified=True`` changes what the walk reads, never what it decides: every lit chunk that verifies
    as parsed prints the same after the pass either way, with the same diagnostics."""
    from latticecast.dialect_utils.parsing import parse_checked

    compared = settled = 0
    for name, text in _lit_chunks():
        try:
            parsed = parse_checked(text, ctx, lenient=True, source_name=name)
        except MLIRParseError:
            continue
        if not parsed.verified:
            continue
        unmarked = parsed.unmarked
        for policy in ("jax", "torch", "max"):
            first, second, third = (parse_module(text, ctx, lenient=True, source_name=name) for _ in range(3))
            options = ImplicitCastOptions(policy=policy, report_promotions=True)
            results = [run_implicit_cast(m.operation, options, verified=v, unmarked=u)
                       for m, v, u in ((first, True, False), (second, False, False), (third, True, unmarked))]
            texts = [m.operation.get_asm(print_generic_op_form=True) for m in (first, second, third)]
            assert texts[0] == texts[1] == texts[2], (name, policy)
            said = [[d.format() for d in r.diagnostics] for r in results]
            assert said[0] == said[1] == said[2], (name, policy)
            assert results[0].changed == results[1].changed, (name, policy)
        compared += 1
        settled += unmarked
    assert compared >= 20 and settled >= 10, (compared, settled)


def test_a_marker_spelled_in_escapes_is_not_taken_for_no_marker():
    from latticecast.dialect_utils.parsing import parse_checked

    plain = "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}"
    assert parse_checked(plain).unmarked
    weak = plain.replace("%a: tensor<2xf32>)", '%a: tensor<2xf32> {"latticecast\\2Eweak"})')
    assert "latticecast." not in weak
    parsed = parse_checked(weak)
    assert parsed.verified and not parsed.unmarked
    assert not parse_checked(plain.replace("%a: tensor<2xf32>)", "%a: tensor<2xf32> {latticecast.weak})")).unmarked


def test_every_marker_starts_with_the_prefix_the_parser_looks_for():
    from latticecast.promotion import op_rules

    markers = [v for k, v in vars(op_rules).items() if k.endswith("_ATTR") and isinstance(v, str)]
    assert len(markers) >= 4 and all(m.startswith(op_rules.MARKER_PREFIX) for m in markers), markers


@pytest.mark.parametrize("text", [
    # a while whose initial value is f16 where the loop carries f32
    """func.func @f(%x: tensor<f16>) -> tensor<f32> {
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<f16>) -> tensor<f32>
  return %0 : tensor<f32>
}""",
    # an if whose branch yields f16 where the op has f32
    """func.func @f(%p: tensor<i1>, %x: tensor<f16>, %y: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f16>
  }, {
    stablehlo.return %y : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}""",
    # a case whose branch yields f16 where the op has f32
    """func.func @f(%i: tensor<i32>, %x: tensor<f16>, %y: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %y : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f16>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}""",
])
def test_the_verifier_refuses_what_the_pass_refuses_at_a_region_boundary(text):
    """What an unmarked module that verified relies on (the pass does not walk it): each element type
    mismatch the pass refuses at a region boundary, the verifier refuses too; the same program with
    the types agreeing verifies, so it is the element type the verifier judges."""
    with pytest.raises(MLIRParseError):
        parse_module(text, make_context())
    parse_module(text.replace("f16", "f32"), make_context())
