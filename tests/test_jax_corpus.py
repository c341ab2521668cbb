"""Everything JAX writes goes through ``latticecast-opt`` and ``latticecast.compile``.

The corpus (:mod:`jax_corpus`) is lowered by the installed JAX once per module, x64 off
and on. For every program:

1. **invariance**: JAX's module is legal, so ``implicit-cast`` must not touch it under any
   policy: ``latticecast-opt`` prints exactly what JAX printed (without and with
   locations), and the pass run on the module in JAX's own context leaves it printing
   the same;
2. **recovery**: with the converts that JAX's promotion would recreate removed (a
   mixed-dtype module), the pass gives a module that verifies, in latticecast's context
   and in JAX's alike, and computes JAX's outputs;
3. **runtime**: ``latticecast.compile`` of what JAX wrote (text, or ``jax.export``'s
   portable artifact at several shapes) computes JAX's outputs; modules that call back
   into Python are refused with a clear error, never a crash.

The sharded programs run in a process of their own with 8 host devices.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax_corpus as jc  # noqa: E402
from jaxlib.mlir import ir, passmanager  # noqa: E402

import latticecast as lc  # noqa: E402
from latticecast.cli.opt.driver import run as opt_run  # noqa: E402
from latticecast.cli.opt.args import parse_args  # noqa: E402
from latticecast.dialect_utils.parsing import parse_module  # noqa: E402
from latticecast.promotion.dtypes import DType  # noqa: E402
from latticecast.passes import ImplicitCastPass, run_pipeline  # noqa: E402
from latticecast.runtime import PJRT_DTYPES, UnsupportedModuleError, cache_info  # noqa: E402

POLICIES = ("jax", "max", "numpy")
CASES = [(p, mode) for p in jc.programs() for mode in p.modes]
IDS = [f"{p.name}[{mode}]" for p, mode in CASES]
FP8_RUNS = any(d.mlir_name == "f8E4M3FN" for d in PJRT_DTYPES)


@pytest.fixture(scope="module")
def corpus() -> dict[str, jc.Lowered]:
    """Every program lowered (and run by JAX) once for this module."""
    return {f"{p.name}[{mode}]": jc.lower(p, mode) for p, mode in CASES}


def opt(tmp_path: Path, source: "str | bytes", *args: str) -> str:
    """``latticecast-opt FILE ARGS...`` in this process; its standard output."""
    path = tmp_path / ("in.mlirbc" if isinstance(source, bytes) else "in.mlir")
    if isinstance(source, bytes):
        path.write_bytes(source)
    else:
        path.write_text(source)
    out, err = io.StringIO(), io.StringIO()
    code = opt_run(parse_args([str(path), *args]), out, err)
    assert code == 0, err.getvalue()
    assert err.getvalue() == ""
    return out.getvalue()


# -- 1. invariance ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", IDS)
def test_a_legal_module_prints_exactly_as_jax_prints_it(corpus, case, tmp_path) -> None:
    low = corpus[case]
    assert opt(tmp_path, low.text) == low.text  # parse, verify, print: a round trip
    for policy in POLICIES:
        assert opt(tmp_path, low.text, "--implicit-cast", "--policy", policy) == low.text, policy
    assert opt(tmp_path, low.text_debug, "--implicit-cast", "--mlir-print-debuginfo") == low.text_debug
    if isinstance(low.source, bytes):  # jax.export's portable artifact reads as the module it holds
        assert opt(tmp_path, low.source, "--implicit-cast", "--mlir-print-debuginfo") == low.text_debug


@pytest.mark.parametrize("case", IDS)
def test_the_pass_in_jaxs_own_context_leaves_a_legal_module_alone(corpus, case) -> None:
    low = corpus[case]
    module = ir.Module.parse(low.text_debug, context=low.jax_module.context)
    for policy in POLICIES:
        (p,) = run_pipeline(module, f"builtin.module(implicit-cast{{policy={policy}}})").passes
        assert not p.results[0].changed, policy  # so a runner told the module verified verifies it once
    assert jc._print(module, True) == low.text_debug
    assert jc._print(module, False) == low.text


def test_the_pass_runs_on_jaxs_module_and_in_any_jaxlib_pass_manager() -> None:
    args = (jc.block_params(), jc.f32(5, 8), np.arange(5, dtype=np.int32))
    lowered = jax.jit(jc.transformer_grad).lower(*args)
    module = lowered.compiler_ir("stablehlo")  # lives in JAX's context
    passes = lc.run_pipeline(module, "builtin.module(implicit-cast)").passes
    assert passes[0].results[0].converts == 0
    assert jc._print(module, False) == lowered.as_text()
    stripped = jc.strip_promoting_converts(module, "jax-x32")
    assert stripped > 0
    pm = passmanager.PassManager("builtin.module", context=module.context)  # a pipeline jaxlib built
    cast = ImplicitCastPass(policy="jax-x32")
    cast.add_to(pm)
    pm.add("cse")
    pm.run(module.operation)
    assert cast.results[0].ok and cast.results[0].converts > 0
    module.operation.verify()
    _check(lc.compile(module)(*jc._flat(args)), jc._flat(jax.jit(jc.transformer_grad)(*args)))


def test_latticecasts_contexts_register_what_jaxs_does(corpus) -> None:
    from latticecast.dialect_utils.context import make_context

    jax_context = corpus["attention[x32]"].jax_module.context
    probe = ["builtin", "func", "stablehlo", "chlo", "vhlo", "sdy", "mpmd", "mhlo", "arith", "scf", "math",
             "tensor", "shape", "sparse_tensor", "complex", "quant", "tpu", "triton", "mosaic_gpu"]

    def loaded(ctx: ir.Context) -> set[str]:
        found = set()
        for name in probe:
            try:
                ctx.dialects[name]
                found.add(name)
            except (IndexError, KeyError):
                pass
        return found

    # A dialect that a pass JAX ran depends on is loaded into JAX's context by that pass, without
    # being registered (jax 0.12 loads quant so): what JAX registers is what a new context of
    # JAX's has, and a new thread gets one.
    import threading

    fresh: list[ir.Context] = []
    worker = threading.Thread(target=lambda: fresh.append(
        jax.jit(lambda x: x + 1).lower(np.float32(0)).compiler_ir("stablehlo").context))
    worker.start()
    worker.join()
    theirs = loaded(jax_context) & loaded(fresh[0])
    assert {"stablehlo", "chlo", "vhlo", "sdy", "mhlo", "func"} <= theirs
    for lenient in (False, True):
        assert theirs <= loaded(make_context(lenient=lenient)), lenient


# -- 2. recovery ------------------------------------------------------------------------------


def _stripped(low: jc.Lowered, context: ir.Context | None = None) -> tuple[ir.Module, int]:
    module = ir.Module.parse(low.text, context=context) if context else parse_module(low.text)
    return module, jc.strip_promoting_converts(module, low.policy)


@pytest.mark.parametrize("case", IDS)
def test_recovery_of_the_converts_jax_wrote(corpus, case) -> None:
    low = corpus[case]
    ours, removed = _stripped(low)
    theirs, removed_there = _stripped(low, low.jax_module.context)
    assert removed == removed_there
    for module in (ours, theirs):
        before = jc._print(module, False)
        (p,) = run_pipeline(module, f"builtin.module(implicit-cast{{policy={low.policy}}})").passes
        # a run that says it changed nothing changed nothing (a runner then skips the verifier)
        assert p.results[0].changed or jc._print(module, False) == before
        assert p.results[0].changed == (p.results[0].converts > 0)  # the corpus has no weak markers
        module.operation.verify()
    recovered = jc._print(ours, False)
    assert recovered == jc._print(theirs, False)  # the same in latticecast's context and JAX's
    # one convert per (value, type): never more than JAX wrote
    assert jc.count_ops(recovered, "stablehlo.convert") <= jc.count_ops(low.text, "stablehlo.convert")
    if removed == 0:
        assert recovered == low.text
    if low.program.callbacks or not low.runs or _fp8_signature(low):
        return  # refused by the runtime: see test_runtime_runs_what_jax_wrote
    model = lc.compile(theirs)  # the module of JAX's context, straight to PJRT
    for inputs, expected in low.runs[:1]:
        _check(model(*inputs), expected)


def test_recovery_has_work_to_do(corpus) -> None:
    """The corpus mixes dtypes: most programs lose converts that the pass must recreate."""
    stripped = {case: _stripped(low)[1] for case, low in corpus.items()}
    assert sum(stripped.values()) >= 60, stripped
    assert sum(1 for n in stripped.values() if n) >= 25, stripped
    for case in ("mlp_bf16[x32]", "mlp_int8[x32]", "transformer_grad[x64]", "scan[x32]", "export_poly_mixed[x32]",
                 "x64_uint64[x64]", "cholesky_solve[x32]", "complex_mixed[x32]"):
        assert stripped[case] > 0, case


# -- 3. runtime -------------------------------------------------------------------------------


def _fp8_signature(low: jc.Lowered) -> bool:
    """``@main`` takes or returns fp8, which this runtime has no host buffers for (yet)."""
    signature = low.text.split("@main(", 1)[1].split("{\n", 1)[0]
    return "f8E4M3FN" in signature and not FP8_RUNS


def _check(got: list, expected: list) -> None:
    assert len(got) == len(expected)
    for i, (g, w) in enumerate(zip(got, expected)):
        assert jc.close(g, w), f"output {i}: got {np.asarray(g)!r}, JAX computed {w!r}"


@pytest.mark.parametrize("case", IDS)
def test_runtime_runs_what_jax_wrote(corpus, case) -> None:
    low = corpus[case]
    if low.program.callbacks:
        with pytest.raises(UnsupportedModuleError, match=r"calls back into Python|!stablehlo.token") as e:
            lc.compile(low.source)
        assert "jax.debug.print" in str(e.value) and "Lower the function without them" in str(e.value)
        return
    if _fp8_signature(low):
        with pytest.raises(UnsupportedModuleError, match="f8E4M3FN"):
            lc.compile(low.source)
        return
    model = lc.compile(low.source)
    assert isinstance(model, lc.PolymorphicModel) == (low.program.kind != "jit")
    for inputs, expected in low.runs:
        _check(model(*inputs), expected)
    if low.program.kind == "jit":  # the module in JAX's own context compiles too
        _check(lc.compile(low.jax_module)(*low.runs[0][0]), low.runs[0][1])


def test_jaxlib_kernels_are_made_ready_in_a_process_that_never_lowered_them(corpus, tmp_path) -> None:
    """LAPACK routines come from SciPy only when jax lowers a linalg op, and the sparse kernel is
    registered only by ``import jax.experimental.sparse``: this process did both while lowering
    the corpus, so a fresh one that only compiles JAX's text checks that the runtime does it
    itself (without, the first segfaults and the second is an unknown target)."""
    cases = ["cholesky_solve[x32]", "eigh_svd_qr[x32]", "inv_batched[x32]", "sparse_matvec[x32]"]
    for i, case in enumerate(cases):
        low = corpus[case]
        (tmp_path / f"{i}.mlir").write_text(low.text)
        inputs, expected = low.runs[0]
        np.savez(tmp_path / f"{i}.npz", *inputs, *expected, n_inputs=len(inputs))
    script = f"""
import sys, numpy as np
sys.path.insert(0, {str(Path(__file__).parent)!r})
import latticecast as lc, jax_corpus as jc
for i in range({len(cases)}):
    data = np.load({str(tmp_path)!r} + f"/{{i}}.npz")
    arrays = [data[f"arr_{{k}}"] for k in range(len(data.files) - 1)]
    n = int(data["n_inputs"])
    got = lc.compile(open({str(tmp_path)!r} + f"/{{i}}.mlir").read())(*arrays[:n])
    assert all(jc.close(g, w) for g, w in zip(got, arrays[n:])), i
assert "jax.experimental.sparse" in sys.modules
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (proc.returncode, proc.stderr[-2000:])


def test_dynamic_shapes_compile_once_per_shape_signature(corpus) -> None:
    low = corpus["export_poly_mixed[x32]"]
    model = lc.compile(low.source, input_names=["x", "k"])
    (x, k), _ = low.runs[0]
    before = cache_info().compiles
    for _ in range(3):
        model(x, k)
    model(x[:2], k[:2])
    assert model.specializations == 2
    assert cache_info().compiles - before <= 2
    with pytest.raises(lc.InputShapeError, match=r"input 1 \('k'\): shape \[2, 4\] does not fit @main's "
                                                 r"int32\[\?, 4\]: .*Found inconsistency between dimension size "
                                                 r"args\[1\]\.shape\[0\] \(= 2\)") as e:
        model(x, k[:2])
    assert e.value.index == 1 and e.value.name == "k"
    with pytest.raises(lc.InputShapeError, match=r"input 0 \('x'\): expected float32\[\?, 4\], got shape \[3, 5\]"):
        model(np.zeros((3, 5), np.float32), k)
    with pytest.raises(lc.InputError, match=r"input 0 \('x'\): .*float64.*astype\(np.float32\)"):
        model(x.astype(np.float64), k)  # refinement would have converted it: checked first
    with pytest.raises(lc.InputShapeError, match=r"Expected value >= 1 for dimension variable 'b'"):
        model(x[:0], k[:0])


def test_sharded_programs_in_their_own_process() -> None:
    """Shardy and GSPMD modules on a 2x4 mesh of host devices: invariance, recovery with the
    shardings of the inserted converts, and JAX's outputs, bit for bit, from the recovered module
    compiled by latticecast for the 8 devices (from NumPy and from jax.Arrays laid out as jit's)."""
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, str(Path(__file__).with_name("jax_corpus.py")), "sharded"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(report) == 12
    for entry in report:
        assert "error" not in entry, entry
        assert entry["invariant"] and entry["invariant_in_jax_context"], entry
        assert entry["verifies"] and entry["outputs_match"], entry
        assert entry["devices"] == 8 and entry["bitwise"] and entry["arrays_match_numpy"], entry
        assert entry["shardings_wrong"] == 0, entry
    assert sum(e["stripped"] for e in report) >= 10, report
    assert sum(e["shardings_checked"] for e in report) >= 4, report


def test_an_exported_static_module_runs_from_its_artifact() -> None:
    exported = jax.export.export(jax.jit(lambda x, w: jax.numpy.tanh(x @ w)))(
        jax.ShapeDtypeStruct((3, 4), np.float32), jax.ShapeDtypeStruct((4, 2), np.float32))
    x, w = jc.f32(3, 4), jc.f32(4, 2, seed=1)
    model = lc.compile(exported.mlir_module_serialized)
    assert isinstance(model, lc.Model)
    _check(model(x, w), [np.asarray(exported.call(x, w))])


def test_no_custom_type_is_built_for_a_module_that_has_none(corpus) -> None:
    from latticecast.dialect_utils.types import type_cache

    from latticecast.dialect_utils.context import make_context

    low = corpus["mlp_bf16[x32]"]
    for context in (low.jax_module.context, make_context(lenient=True)):  # JAX's, and one that could hold them
        module = ir.Module.parse(low.text, context=context)
        assert jc.strip_promoting_converts(module, "max") > 0
        run_pipeline(module, "builtin.module(implicit-cast{policy=max})")  # MAX has index and address
        built = type_cache(module.context).built_elements
        assert not any(d.needs_lowering for d in built), built
        assert DType.float32 in built
