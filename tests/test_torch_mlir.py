"""torch-mlir as a source of IR: the corpus in ``tests/data/torch_mlir/``.

``tools/torch_mlir_corpus.py`` wrote each module with ``torch_mlir.fx.export_and_import(...,
output_type="stablehlo")`` and recorded PyTorch eager's outputs for fixed inputs and, as the
oracle of promotion, every ``torch.result_type`` of a mixed binary op. These tests read only
those files, so they run without torch:

1. **invariance**: ``latticecast-opt --implicit-cast --policy torch`` (and every other policy)
   leaves what torch-mlir wrote exactly as it is;
2. **recovery**: the converts PyTorch's promotion created are removed
   (``tools/torch_mlir_promotions.py``: converts to a dtype the oracle names, or to the other dtype
   of a comparison PyTorch made, all of whose uses reach promoted operands through data movement),
   the Python scalars they converted are marked weak, and the pass under policy ``torch`` must put
   them back as PyTorch decides: every other promoted op computes in the type it did, every
   comparison in PyTorch's dtype (also where torch-mlir compares a 0-d tensor in another), and the
   module matches PyTorch eager. A comparison with a broadcast 0-d tensor is read as the 0-d
   tensor and remarked on; torch-mlir writes an ``expand`` the same way, which those remarks name;
3. **runs**: every module that torch-mlir lowers correctly runs through ``latticecast.compile``
   and matches PyTorch eager; the ones it lowers wrongly (``torch_mlir_wrong`` in the manifest,
   see docs/ir_guide.rst) still disagree, and latticecast's builder under policy ``torch`` computes
   what PyTorch does for them.

With torch and torch-mlir at hand (this interpreter, or ``$LATTICECAST_TORCH_PYTHON``), the
corpus is also regenerated and compared with the stored one.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from jaxlib.mlir import ir

import latticecast as lc
from conftest import library_python
from latticecast import DType, Graph, TensorType
from latticecast.cli.opt.args import parse_args
from latticecast.cli.opt.driver import run as opt_run
from latticecast.dialect_utils.parsing import parse_module
from latticecast.dialect_utils.types import type_cache
from latticecast.promotion.op_rules import STABLEHLO
from latticecast.passes import run_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from torch_mlir_e2e import disagreement as agrees  # noqa: E402
from torch_mlir_promotions import strip_promotion_converts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "torch_mlir"
MANIFEST = json.loads((DATA / "manifest.json").read_text())
PROGRAMS: dict[str, dict] = MANIFEST["programs"]
NAMES = sorted(PROGRAMS)
CORRECT = [n for n in NAMES if "torch_mlir_wrong" not in PROGRAMS[n]]
WRONG = [n for n in NAMES if "torch_mlir_wrong" in PROGRAMS[n]]


def text_of(name: str) -> str:
    return (DATA / f"{name}.mlir").read_text()


def _array(refs: Any, key: str, dtype: str) -> np.ndarray:
    a = refs[key]
    return a.view(ml_dtypes.bfloat16) if dtype == "bfloat16" else a.astype(np.dtype(dtype), copy=False)


_REFS: dict[str, Any] = {}


def reference(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The inputs and PyTorch eager's outputs of program ``name``."""
    refs = _REFS.get("npz")
    if refs is None:
        refs = _REFS["npz"] = dict(np.load(DATA / "reference.npz"))
    entry = PROGRAMS[name]
    inputs = [_array(refs, f"{name}/in{i}", d) for i, d in enumerate(entry["inputs"])]
    outputs = [_array(refs, f"{name}/out{i}", d) for i, d in enumerate(entry["outputs"])]
    return inputs, outputs


def opt(tmp_path: Path, text: str, *args: str) -> str:
    """``latticecast-opt FILE ARGS...`` in this process; its standard output."""
    path = tmp_path / "in.mlir"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    code = opt_run(parse_args([str(path), *args]), out, err)
    assert code == 0, err.getvalue()
    assert err.getvalue() == ""
    return out.getvalue()


def test_the_corpus_covers_what_the_issue_lists() -> None:
    assert len(NAMES) >= 50
    assert all((DATA / f"{n}.mlir").is_file() for n in NAMES)
    texts = {n: text_of(n) for n in NAMES}
    assert sum("arith.constant" in t for t in texts.values()) >= 10  # Python scalars
    assert sum("dense_resource<" in t for t in texts.values()) >= 5  # nn weights
    for prefix in ("add_", "mul_", "sub_", "div_", "eq_", "where_", "nn_"):
        assert sum(n.startswith(prefix) for n in NAMES) >= 3, prefix
    assert sum("zero_d" in n for n in NAMES) >= 10 and sum("expand" in n for n in NAMES) >= 5
    assert any("bf16" in n for n in NAMES if n.startswith("nn_")) and any("f16" in n for n in NAMES if n.startswith("nn_"))


# -- 1. invariance -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_pass_leaves_what_torch_mlir_wrote_unchanged(name: str, tmp_path: Path) -> None:
    text = text_of(name)
    assert opt(tmp_path, text) == text  # parse, verify, print: jaxlib prints it as torch-mlir did
    for policy in ("torch", "jax", "numpy"):
        assert opt(tmp_path, text, "--implicit-cast", "--policy", policy) == text, policy


# -- 2. recovery ---------------------------------------------------------------------------------------


def promoted_signature(module: ir.Module, *, compares: bool = True) -> list[tuple[str, tuple[str, ...], str]]:
    """Each promoted op, in order: its name, the types of its promoted operands, its result type
    (``compares=False``: leaving out ``stablehlo.compare``)."""
    out = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        rule = STABLEHLO.get(op.name)
        if rule is not None and (compares or op.name != "stablehlo.compare"):
            positions = rule.operands if rule.operands is not None else range(len(op.operands))
            out.append((op.name, tuple(str(op.operands[i].type) for i in positions), str(op.results[0].type)))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return out


def compared_dtypes(module: ir.Module) -> list[DType]:
    """The element type of each ``stablehlo.compare``'s operands, in order."""
    tc = type_cache(module.context)
    found: list[DType] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "stablehlo.compare":
            found.append(tc.tensor_info(op.operands[0].type)[0])
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _recover(name: str) -> tuple[ir.Module, ir.Module, int, int, list[Any]]:
    """torch-mlir's module, and the module with its promotion converts removed (tools/torch_mlir_promotions.py)
    and put back by ``implicit-cast{policy=torch}``; the converts removed, the constants marked weak and the
    pass's diagnostics."""
    entry = PROGRAMS[name]
    original = parse_module(text_of(name), lenient=True)
    stripped = parse_module(text_of(name), lenient=True)
    oracle = {DType.parse(d) for d in entry["oracle"]}
    pairs = [] if entry.get("explicit_conversions") else [[DType.parse(d) for d in p] for p in entry["compare_pairs"]]
    removed, marked = strip_promotion_converts(stripped, oracle, pairs,
                                               zero_d_compares=not entry.get("explicit_conversions"))
    result = run_pipeline(stripped, "builtin.module(implicit-cast{policy=torch})")
    stripped.operation.verify()
    return original, stripped, removed, marked, result.diagnostics


COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
BROADCAST_0D = sorted(n for n in NAMES if n.split("_")[0] in COMPARISONS and ("zero_d" in n or "expand" in n))
"""Comparisons of a dimensioned tensor with a 0-d tensor of another dtype, or with its explicit ``expand``:
torch-mlir writes both with the same ops (docs/ir_guide.rst). With its converts removed, the pass reads
the broadcast as the 0-d tensor, compares in the dimensioned operand's dtype (PyTorch's answer for
``x == z``), and says in a remark that an expand is written the same way."""
AMBIGUOUS = [n for n in BROADCAST_0D if "expand" in n]
"""Of those, the ones that were an ``expand``: the remark's other reading was PyTorch's."""

LOWERED_WRONG = {
    "rem_i32_i32": "stablehlo.remainder truncates; nothing to promote",
    "rem_i32_scalar": "stablehlo.remainder truncates; nothing to promote",
    "rsub_scalar_f64": "the Python scalar is already float32's 0.1 in the constant torch-mlir wrote",
    "eq_bool_scalar": "a SIGNED compare of i1: no convert to remove",
    "gt_bool_scalar": "a SIGNED compare of i1: no convert to remove",
}
"""The modules torch-mlir lowers wrongly for another cause than promotion: the recovered module is as wrong.
Every other module, the comparisons torch-mlir makes in another dtype than PyTorch included, computes what
PyTorch eager does."""


@pytest.mark.parametrize("name", NAMES)
def test_the_pass_recovers_every_promotion_convert(name: str) -> None:
    original, recovered, removed, _, diagnostics = _recover(name)
    entry = PROGRAMS[name]
    remarks = [d.message for d in diagnostics if d.severity == "remark"]
    assert [d for d in diagnostics if d.severity != "remark"] == []
    assert promoted_signature(recovered, compares=False) == promoted_signature(original, compares=False)
    if name in BROADCAST_0D:
        # read as the 0-d tensor: compared in the dimensioned operand's dtype, and said so
        assert remarks and all("is a broadcast of a 0-d tensor that no marker explains" in m for m in remarks)
        dimensioned = entry["inputs"][1 if name.split("_")[1] == "zero" else 0]
        assert compared_dtypes(recovered) == [DType.parse(dimensioned)]
        if name in AMBIGUOUS:
            return  # PyTorch compared the expand as dimensioned: the remark's other reading
    else:
        assert remarks == []
    if entry["compare_pairs"] and name not in LOWERED_WRONG:
        # compared in PyTorch's dtype (the oracle), also where torch-mlir compared in another
        assert set(compared_dtypes(recovered)) <= {DType.parse(d) for d in entry["oracle"]}, compared_dtypes(recovered)
    elif not entry["compare_pairs"]:
        assert promoted_signature(recovered) == promoted_signature(original)
    if name in LOWERED_WRONG:
        assert name in WRONG
        _still_disagrees(name, recovered)
        return
    inputs, expected = reference(name)
    problem = agrees(lc.compile(recovered)(*inputs), expected)
    assert problem is None, problem


def test_recovery_has_work_to_do() -> None:
    counts = {name: _recover(name)[2:4] for name in NAMES}
    removed = sum(r for r, _ in counts.values())
    assert removed >= 70, counts
    assert sum(1 for r, _ in counts.values() if r) >= 55, counts
    assert sum(m for _, m in counts.values()) >= 15, counts  # Python scalars, rebuilt as weak constants
    for name in ("add_f16_zero_d_f32", "add_f16_expand_f32", "eq_f16_expand_f32", "where_f16_zero_d_f32",
                 "nn_linear_bf16_plus_f32", "nn_scaled_linear_f16_zero_d_f32", "add_i32_float_scalar",
                 "eq_f32_zero_d_f64", "eq_i8_zero_d_i64_300", "eq_u8_i8", "lt_i8_u8"):
        assert counts[name][0] > 0, name
    # the comparisons torch-mlir lowers wrongly are recovered as PyTorch compares
    assert len(set(WRONG) - set(LOWERED_WRONG)) >= 9 and len(AMBIGUOUS) >= 4


# -- 3. runs against PyTorch eager -----------------------------------------------------------------------


@pytest.mark.parametrize("name", CORRECT)
def test_every_module_torch_mlir_lowers_correctly_matches_torch_eager(name: str) -> None:
    inputs, expected = reference(name)
    problem = agrees(lc.compile(text_of(name))(*inputs), expected)
    assert problem is None, problem


@pytest.mark.parametrize("name", WRONG)
def test_the_modules_torch_mlir_lowers_wrongly_still_disagree(name: str) -> None:
    """docs/ir_guide.rst's list of torch-mlir's departures from PyTorch: each is still one (a module XLA's
    verifier rejects is refused with latticecast's CompileError, not a crash)."""
    _still_disagrees(name, text_of(name))


def _still_disagrees(name: str, module: "str | ir.Module") -> None:
    inputs, expected = reference(name)
    try:
        got = lc.compile(module)(*inputs)
    except lc.CompileError as e:
        assert "Expected comparison type UNSIGNED" in str(e)
        return
    if "SIGNED compare of i1" in PROGRAMS[name]["torch_mlir_wrong"]:
        # XLA in jaxlib 0.10 rejects a SIGNED compare of i1; XLA in jaxlib 0.12 accepts it and compares
        # the predicates as unsigned, so the wrong IR happens to give PyTorch's answer there
        assert re.search(r"stablehlo.compare \w+, %\w+, %\w+, SIGNED : \(tensor<\d+xi1>", text_of(name))
        assert agrees(got, expected) is None
        return
    assert agrees(got, expected) is not None


def _builder(name: str, build: Any) -> list[np.ndarray]:
    inputs, _ = reference(name)
    types = [TensorType(DType.parse(d), list(x.shape)) for d, x in zip(PROGRAMS[name]["inputs"], inputs)]
    with Graph(name, input_types=types, policy="torch") as g:
        g.output(build(*g.inputs))
    return g.compile()(*inputs)


BUILT = {  # the programs torch-mlir gets wrong, and some it gets right, written with latticecast's builder
    "rem_i32_scalar": lambda a: a % 3,
    "rem_i32_i32": lambda a, b: a % b,
    "eq_u8_i8": lambda a, b: a == b,
    "eq_u8_zero_d_i64_300": lambda a, z: a == z,
    "rsub_scalar_f64": lambda a: 0.1 - a,
    "gt_bool_scalar": lambda a: a > 0,
    "eq_bool_scalar": lambda a: a == 0,
    "lt_i8_u8": lambda a, b: a < b,
    "eq_f16_zero_d_f32": lambda h, f: h == f,
    "eq_f16_expand_f32": lambda h, f: h == f.broadcast_to([4]),
    "add_f16_expand_f32": lambda h, f: h + f.broadcast_to([4]),
    "add_f16_zero_d_f32": lambda h, f: h + f,
    "add_i8_expand_i64": lambda a, z: a + z.broadcast_to([4]),
    "lt_i8_expand_i32": lambda a, z: a < z.broadcast_to([4]),
    "add_i8_zero_d_i64": lambda a, z: a + z,
    "where_f16_zero_d_f32": lambda c, a, z: lc.ops.where(c, a, z),
    "max_f16_zero_d_f64": lambda a, z: lc.ops.maximum(a, z),
    "eq_f32_zero_d_f64": lambda x, z: x == z,
    "eq_f32_expand_f64": lambda x, z: x == z.broadcast_to([3]),
    "ne_f32_zero_d_f64_big": lambda x, z: x != z,
    "gt_f32_zero_d_f64": lambda x, z: x > z,
    "lt_zero_d_f64_f32": lambda z, x: z < x,
    "eq_i8_zero_d_i64_300": lambda x, z: x == z,
    "eq_i8_expand_i64_300": lambda x, z: x == z.broadcast_to([3]),
    "where_f32_expand_f64": lambda c, x, z: lc.ops.where(c, x, z.broadcast_to([3])),
}


def test_the_builder_under_policy_torch_covers_every_wrong_module() -> None:
    assert set(WRONG) <= set(BUILT)


@pytest.mark.parametrize("name", sorted(BUILT))
def test_the_builder_under_policy_torch_computes_what_pytorch_does(name: str) -> None:
    _, expected = reference(name)
    problem = agrees(_builder(name, BUILT[name]), expected)
    assert problem is None, problem


# -- the corpus regenerated, with torch and torch-mlir at hand -----------------------------------------


def test_the_generator_writes_the_stored_corpus(tmp_path: Path) -> None:
    python = library_python("torch_mlir", "LATTICECAST_TORCH_PYTHON")
    proc = subprocess.run([python, str(ROOT / "tools" / "torch_mlir_corpus.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-2000:]
    fresh = json.loads((tmp_path / "manifest.json").read_text())
    assert fresh["programs"] == PROGRAMS
    for name in NAMES:
        assert (tmp_path / f"{name}.mlir").read_text() == text_of(name), name
    new = np.load(tmp_path / "reference.npz")
    old = np.load(DATA / "reference.npz")
    assert sorted(new.files) == sorted(old.files)
    for key in old.files:
        np.testing.assert_array_equal(new[key], old[key], err_msg=key)
