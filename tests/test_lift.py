"""``lift-implicit-casts``, the inverse of ``implicit-cast`` (issue 24), on what JAX and torch-mlir really write.

The law, on every module of both corpora: ``implicit-cast(lift(M, P), P)`` prints exactly ``M`` when
``P`` wrote ``M`` -- without locations and, for JAX, with them (``as_text(debug_info=True)``). Since the
pass writes back every convert the lift took out, in the same place, lifting never removes a convert
that changes a value under ``P``; the runtime check below runs the re-legalised JAX modules against
JAX's own outputs all the same. The rest: lift really lifts (the ops JAX promoted are mixed again, its
literals weak), it keeps what the author wrote, and it runs wherever the pass does.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax_corpus as jc  # noqa: E402
from jaxlib.mlir import ir, passmanager  # noqa: E402

import latticecast as lc  # noqa: E402
from latticecast.dialect_utils.context import make_context  # noqa: E402
from latticecast.dialect_utils.parsing import parse_module  # noqa: E402
from latticecast.promotion.op_rules import CONVERT_AT_USE_ATTR, WEAK_ATTR  # noqa: E402
from latticecast.passes import (PASSES, LiftImplicitCastsPass, LiftOptions, LiftResult, run_lift,  # noqa: E402
                                run_pipeline)

CASES = [(p, mode) for p in jc.programs() for mode in p.modes]
IDS = [f"{p.name}[{mode}]" for p, mode in CASES]
TORCH_DIR = Path(__file__).parent / "data" / "torch_mlir"
TORCH_FILES = sorted(TORCH_DIR.glob("*.mlir"))
MANIFEST = json.loads((TORCH_DIR / "manifest.json").read_text())["programs"]


@pytest.fixture(scope="module")
def corpus() -> dict[str, jc.Lowered]:
    return {f"{p.name}[{mode}]": jc.lower(p, mode) for p, mode in CASES}


def round_trip(text: str, policy: str, debug: bool) -> tuple[str, LiftResult]:
    """``implicit-cast(lift(M, policy), policy)`` printed as ``M`` was (with locations where ``debug``)."""
    module = parse_module(text, make_context(lenient=True), lenient=True)
    lifted = run_lift(module, LiftOptions(policy=policy))
    run_pipeline(module, f"builtin.module(implicit-cast{{policy={policy}}})")
    return str(module.operation.get_asm(enable_debug_info=debug)), lifted


@pytest.mark.parametrize("case", IDS)
def test_the_law_on_every_jax_module(corpus: dict[str, jc.Lowered], case: str) -> None:
    low = corpus[case]
    for text, debug in ((low.text, False), (low.text_debug, True)):
        out, _ = round_trip(text, low.policy, debug)
        assert out == text, f"{case} ({'with' if debug else 'without'} locations)"


@pytest.mark.parametrize("path", TORCH_FILES, ids=[p.stem for p in TORCH_FILES])
def test_the_law_on_every_torch_mlir_module(path: Path) -> None:
    text = path.read_text()
    out, _ = round_trip(text, "torch", False)
    assert out == text


def test_lift_takes_out_the_promotions_of_both_corpora(corpus: dict[str, jc.Lowered]) -> None:
    """The law would hold for a lift that did nothing: the corpora must show it lifts what was promoted."""
    jax_lifted = sum(round_trip(low.text, low.policy, False)[1].lifted for low in corpus.values())
    torch_results = [round_trip(p.read_text(), "torch", False)[1] for p in TORCH_FILES]
    assert jax_lifted >= 70
    assert sum(r.lifted for r in torch_results) >= 40 and sum(r.literals for r in torch_results) >= 25
    # every torch-mlir module whose promotion torch-mlir writes as PyTorch decides has something lifted
    lifted_any = {p.stem for p, r in zip(TORCH_FILES, torch_results) if r.lifted or r.literals}
    assert {"add_i32_f16", "mul_i32_float_scalar_chain", "add_f16_zero_d_f32", "add_f16_expand_f32",
            "nn_scaled_linear_f16_zero_d_f32", "where_f16_f32"} <= lifted_any


def lifted_corpora(corpus: dict[str, jc.Lowered]) -> "list[LiftResult]":
    """Every module of both corpora lifted under the policy that wrote it."""
    texts = [(low.text, low.policy) for low in corpus.values()] + [(p.read_text(), "torch") for p in TORCH_FILES]
    return [run_lift(parse_module(text, make_context(lenient=True), lenient=True), LiftOptions(policy=policy))
            for text, policy in texts]


def test_the_dtypes_lift_hands_compare_are_the_ones_the_lifted_module_declares(corpus: dict[str, jc.Lowered]) -> None:
    """``compare`` reads no type of a weak value whose dtype the lift knows (a literal and the data movement
    that carries it, rebuilt in the constant's dtype where torch-mlir converted it): that dtype must be
    the declared one after the lift, on both corpora."""
    known = 0
    for lifted in lifted_corpora(corpus):
        program = lifted.program
        assert program is not None
        for value, dtype in [*program.weak, *program.literals]:
            if dtype is not None:
                known += 1
                assert dtype is program.declared(value), (policy, str(value))
        # the literals are the weak values a constant made: a lifted literal, or a constant the module marks
        literals = {value for value, _ in program.literals}
        assert all(value in literals for value, dtype in program.weak if dtype is not None)
    assert known >= 100  # the corpora have literals (JAX's x * 0.5, torch-mlir's wrapped scalars)


def test_every_lifted_op_keeps_its_place_in_program_order(corpus: dict[str, jc.Lowered]) -> None:
    """``compare`` puts the ops whose dtype differs in program order by the places the lift's walk read.
    An ``ir.Operation`` hashes by its operands, attributes and location, so the lift must place an op
    again after rewriting it (else ``in_order`` walks the module once more to find it)."""
    rewritten = 0
    for lifted in lifted_corpora(corpus):
        program = lifted.program
        assert program is not None
        assert all(op in program.position for op in lifted.ops)
        assert program.in_order(reversed(lifted.ops)) == lifted.ops
        rewritten += lifted.lifted
    assert rewritten >= 100  # ops whose operands the lift changed


def test_the_relegalised_jax_modules_compute_jaxs_outputs(corpus: dict[str, jc.Lowered]) -> None:
    checked = 0
    for case, low in corpus.items():
        if low.program.callbacks or low.program.kind != "jit" or not low.runs:
            continue
        module = parse_module(low.text, make_context(lenient=True), lenient=True)
        run_lift(module, LiftOptions(policy=low.policy))
        run_pipeline(module, f"builtin.module(implicit-cast{{policy={low.policy}}})")
        inputs, expected = low.runs[0]
        if any(a.dtype.name.startswith("float8") for a in inputs):
            continue
        got = lc.compile(module)(*inputs)
        assert all(jc.close(g, w) for g, w in zip(got, expected)), case
        checked += 1
    assert checked >= 30


def test_the_mixed_block_reads_as_the_python_it_was_written_in(corpus: dict[str, jc.Lowered]) -> None:
    """JAX's promotions of the mixed-precision block are mixed ops again: the bf16 x 0-d f32 scale, the
    int32 * 0.125 of ALiBi (a weak literal again), int32 // 2, f32 @ bf16; `.astype(bfloat16)` stays."""
    low = corpus["mixed_block[x64]"]
    module = parse_module(low.text_debug, make_context(lenient=True), lenient=True)
    result = run_lift(module, LiftOptions(policy="jax"))
    assert result.lifted >= 8 and result.literals >= 10
    text = str(module.operation.get_asm(print_generic_op_form=True))
    assert '"stablehlo.multiply"(%' in text and "(tensor<6x8xbf16>, tensor<6x8xf32>) -> tensor<6x8xf32>" in text
    assert "(tensor<6x6xi32>, tensor<6x6xf64>) -> tensor<6x6xf64>" in text          # |i - j| * 0.125
    assert "dense<1.250000e-01> : tensor<f64>}> {latticecast.weak}" in text
    assert '"stablehlo.dot_general"' in text and "(tensor<6x8xf32>, tensor<8x8xbf16>) -> tensor<6x8xf32>" in text
    assert "(tensor<6x8xf32>) -> tensor<6x8xbf16>" in text                            # v.astype(bfloat16)


def test_lift_keeps_what_the_author_wrote() -> None:
    text = """func.func @main(%x: tensor<4xf32>, %y: tensor<4xf16>, %i: tensor<4xi32>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf32>) {
      %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
      %1 = stablehlo.add %0, %y : tensor<4xf16>
      %2 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
      %3 = stablehlo.add %2, %x : tensor<4xf32>
      return %1, %3, %2 : tensor<4xf16>, tensor<4xf32>, tensor<4xf32>
    }"""
    module = lc.lift(text, "jax")
    assert str(module.operation.get_asm(print_generic_op_form=True)).count('"stablehlo.convert"') == 2


def test_the_pass_writes_back_converts_in_a_jaxlib_pass_manager_in_jaxs_context() -> None:
    f = jax.jit(lambda t, x: (t * 0.5 + x, t + 1))
    lowered = f.lower(np.arange(4, dtype=np.int32), np.ones(4, np.float32))
    module = lowered.compiler_ir("stablehlo")  # JAX's own context
    pm = passmanager.PassManager("builtin.module", context=module.context)
    lift = LiftImplicitCastsPass(policy="jax-x32")
    lift.add_to(pm)
    pm.enable_verifier(False)  # the lifted module is mixed
    pm.run(module.operation)
    assert lift.results[0].lifted == 1 and lift.results[0].literals == 2
    assert CONVERT_AT_USE_ATTR in str(module.operation.get_asm(print_generic_op_form=True))
    run_pipeline(module, "builtin.module(implicit-cast{policy=jax-x32})")
    assert str(module) == lowered.as_text()


def test_a_pipeline_with_lift_verifies_where_implicit_cast_ran_last() -> None:
    assert "lift-implicit-casts" in PASSES
    text = jax.jit(lambda t: t * 2.5).lower(np.arange(3, dtype=np.int32)).as_text()
    out = run_pipeline(text, "builtin.module(lift-implicit-casts{policy=jax-x32},implicit-cast{policy=jax-x32},cse)")
    assert str(out) == text
    mixed = run_pipeline(text, "lift-implicit-casts{policy=jax-x32}").module
    assert WEAK_ATTR in str(mixed.operation.get_asm(print_generic_op_form=True))
    assert "lift-implicit-casts{policy=torch}" == repr(LiftImplicitCastsPass(policy="torch"))


def test_a_weak_result_flows_as_the_pass_makes_it_flow() -> None:
    """JAX x64: int32 * 0.5 is a weak float, so `(t * 0.5) + x32` is float32 and JAX converts the
    product down to f32; lifted, the pass writes that convert back from the weak product."""
    with jax.enable_x64(True):
        lowered = jax.jit(lambda t, x: t * 0.5 + x).lower(np.arange(4, dtype=np.int32), np.ones(4, np.float32))
    out, result = round_trip(lowered.as_text(), "jax", False)
    assert out == lowered.as_text() and result.lifted == 2 and result.literals == 1


def test_manifest_matches_the_files() -> None:
    assert {p.stem for p in TORCH_FILES} == set(MANIFEST)


def test_lift_refuses_what_it_cannot_read_with_an_error() -> None:
    with pytest.raises(lc.UnknownPolicyError):
        lc.lift("func.func @main() { return }", "no-such-policy")
    with pytest.raises(TypeError, match="latticecast.parse"):
        lc.lift(42, "jax")  # type: ignore[arg-type]
    with pytest.raises(lc.MLIRParseError):
        lc.lift("func.func @main( {", "jax")
    assert isinstance(lc.lift(ir.Module.parse("module {}", context=make_context()), "jax"), ir.Module)
