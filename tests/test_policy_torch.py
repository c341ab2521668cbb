"""The PyTorch policy: the 2021 table with its errata, and the rules against live PyTorch.

The live tests need ``torch`` (2.13 in the dev venv) and skip cleanly without it;
the policy never imports it.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from latticecast import DType, LiteralRangeError, PromotionError, audit, policies, policy, weak
from latticecast.evidence import evidence, measured_records, measured_table, seed_table
from latticecast.evidence.torch import COMPLEX32_CELLS, PUBLISHED_TABLE_ERRATA
from latticecast.policies.lattices import TORCH_BAREBONES_UNSIGNED as BAREBONES_UNSIGNED, TORCH_EDGES
from latticecast.promotion.weak import PType, Weak
from conftest import library_python

POL = policy("torch")
SEED = seed_table("design_torch")
CLASSIC = [d for d in POL.dtypes if not d.is_low_precision]
"""The dtypes of the 2021 table (PyTorch's float8 and int1..uint4 came later)."""
U16, U32, U64 = DType.uint16, DType.uint32, DType.uint64
SEED_I, SEED_F, SEED_C = Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128)
B_STAR = weak(DType.bool)
LABELS = (*SEED.rows, B_STAR)  # the seed's 18 types and the Python bool


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


def _zero(torch, t: PType):
    if isinstance(t, Weak):
        return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[t.dtype.kind.code]
    return torch.zeros(1, dtype=getattr(torch, t.name))


def _code(torch, dtype) -> PType | str:
    """A torch dtype as a latticecast dtype, or its own name when latticecast lacks it (complex32)."""
    name = str(dtype).removeprefix("torch.")
    try:
        return DType.parse(name)
    except ValueError:
        return name


def live_result_type(torch, a: PType, b: PType) -> PType | str | None:
    try:
        return _code(torch, torch.result_type(_zero(torch, a), _zero(torch, b)))
    except RuntimeError:
        return None


def live_op(torch, op, a: PType, b: PType) -> tuple[PType | str | None, str]:
    """``op(a, b)``'s dtype (``None`` and the message when it raises), as the design note asks."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "ComplexHalf support is experimental"
            out = op(_zero(torch, a), _zero(torch, b))
    except (TypeError, RuntimeError) as e:
        return None, str(e)
    return _code(torch, out.dtype), ""


# ---------------------------------------------------------------- the seed table and its errata


def test_reproduces_the_design_note_table_except_the_errata():
    errata = evidence(POL).errata
    assert set(errata) == set(PUBLISHED_TABLE_ERRATA) and list(evidence(POL).published) == ["seed table design_torch"]
    checked = 0
    for (a, b), published in SEED.cells.items():
        got = POL.try_promote(a, b)
        if (a, b) in PUBLISHED_TABLE_ERRATA:
            stated_published, stated, why = PUBLISHED_TABLE_ERRATA[(a, b)]
            assert stated_published == published and got == stated and got != published, (a, b)
            assert why == errata[(a, b)] and len(why) > 40
        else:
            assert got == published, (a, b)
            checked += 1
    assert checked == 18 * 18 - 47


def test_the_errata_are_the_new_unsigned_types_and_two_scalar_defaults():
    """Written out by hand, independently of the policy module."""
    expected: dict[tuple[PType, PType], PType] = {(SEED_F, SEED_F): DType.float32,
                                                  (SEED_C, SEED_C): DType.complex64}
    for u in (U16, U32, U64):
        expected[(u, u)] = u
        for f in (DType.bfloat16, DType.float16, DType.float32, DType.float64):
            expected[(u, f)] = expected[(f, u)] = f
        expected[(u, SEED_I)] = expected[(SEED_I, u)] = u
        expected[(u, SEED_F)] = expected[(SEED_F, u)] = DType.float32
        expected[(u, SEED_C)] = expected[(SEED_C, u)] = DType.complex64
    assert {cell: now for cell, (_, now, _) in PUBLISHED_TABLE_ERRATA.items()} == expected


# ---------------------------------------------------------------- against live PyTorch


def test_live_torch_is_the_expected_version(torch):
    assert torch.__version__.startswith("2.")
    assert hasattr(torch, "uint16")  # the barebones unsigned types exist (2.3+)


def test_matches_live_result_type_in_every_cell(torch):
    mismatches = []
    for a in LABELS:
        for b in LABELS:
            live, mine = live_result_type(torch, a, b), POL.try_promote(a, b)
            if (a, b) in COMPLEX32_CELLS:
                assert live == COMPLEX32_CELLS[(a, b)] and mine is DType.complex64
            elif live != mine:
                mismatches.append((a, b, live, mine))
    assert mismatches == []


def test_matches_live_add_where_it_has_a_kernel(torch):
    """torch.add is the note's op; where it raises for a promotion the policy defines, the
    message says the kernel is missing (uint16/32/64 arithmetic), not the promotion."""
    compared = no_kernel = 0
    for a in LABELS:
        for b in LABELS:
            live, message = live_op(torch, torch.add, a, b)
            mine = POL.try_promote(a, b)
            if (a, b) in COMPLEX32_CELLS:
                continue
            if live is None and mine is not None:
                assert "add_stub" in message and "not implemented" in message, (a, b, message)
                assert mine in BAREBONES_UNSIGNED
                no_kernel += 1
                continue
            assert live == mine, (a, b)
            compared += 1
    assert no_kernel == 3 * (1 + 2 + 2)  # u . u, and u with a Python int or bool either way
    assert compared == 19 * 19 - 2 - no_kernel


@pytest.mark.parametrize("op", ["mul", "where"])
def test_other_ops_share_the_promotion(torch, op):
    """torch.mul and torch.where have uint16/32/64 kernels, so every tensor pair compares."""
    fn = torch.mul if op == "mul" else (lambda x, y: torch.where(torch.tensor(True), x, y))
    mismatches = [(a, b) for a in CLASSIC for b in CLASSIC
                  if live_op(torch, fn, a, b)[0] != POL.try_promote(a, b)]
    assert mismatches == []


def test_strong_promotion_is_promote_types(torch):
    for a in POL.dtypes:
        for b in POL.dtypes:
            ta, tb = getattr(torch, a.name), getattr(torch, b.name)
            mine = POL.try_promote(a, b)
            if mine is None:
                with pytest.raises(RuntimeError, match="Promotion for uint16, uint32, uint64 types is not supported|"
                                                       "Promotion for Float8 Types is not supported|ix_[ab] != -1"):
                    torch.promote_types(ta, tb)
            else:
                assert _code(torch, torch.promote_types(ta, tb)) == mine, (a, b)


def test_literal_types_materialise_as_torch_tensor_does(torch):
    assert POL.literals.type_of(1) == weak(DType.int64)
    assert POL.literals.type_of(1.0) == weak(DType.float32)
    assert POL.literals.type_of(1j) == weak(DType.complex64)
    assert POL.literals.type_of(True) == B_STAR
    for value in (1, 1.0, 1j, True):
        assert POL.materialize(POL.literals.type_of(value)) == _code(torch, torch.tensor(value).dtype)
    assert torch.get_default_dtype() == torch.float32


def test_a_python_bool_defers_even_to_uint16(torch):
    assert _code(torch, torch.result_type(torch.zeros(1, dtype=torch.uint16), True)) is U16
    assert POL.promote_types(U16, POL.literals.type_of(True)) is U16
    assert POL.try_promote(U16, DType.bool) is None  # a bool *tensor* does not


@pytest.mark.parametrize("d", CLASSIC, ids=str)
def test_true_divide_matches_torch(torch, d):
    t = getattr(torch, d.name)
    live = torch.true_divide(torch.ones(1, dtype=t), torch.ones(1, dtype=t)).dtype
    assert POL.op_types.true_divide(d) == _code(torch, live)


def test_literal_ranges(torch):
    # PyTorch wraps an out-of-range int silently; latticecast refuses to write that constant
    assert (torch.zeros(1, dtype=torch.int8) + 1000).item() == -24
    with pytest.raises(LiteralRangeError, match=r"1000 out of range for int8 \[-128, 127\]"):
        POL.literals.check(1000, DType.int8)
    # a float too large for float16 becomes inf, in both
    assert torch.isinf(torch.zeros(1, dtype=torch.float16) + 1e10).all()
    POL.literals.check(1e10, DType.float16)
    POL.literals.check(100000, DType.bfloat16)


# ---------------------------------------------------------------- rules and errors without torch


def test_python_scalar_categories():
    p = POL.promote_types
    assert p(DType.int8, "i*") is DType.int8           # same category: the tensor's dtype
    assert p(DType.int64, "f*") is DType.float32       # higher: the default float
    assert p(DType.bfloat16, "f*") is DType.bfloat16
    assert p(DType.float64, "c*") is DType.complex128  # a complex scalar keeps a float's precision
    assert p(DType.bfloat16, "c*") is DType.complex64
    assert p(DType.int8, "c*") is DType.complex64
    assert p(DType.bool, "i*") is DType.int64
    assert p("i*", "f*") is DType.float32              # two scalars: a strong tensor
    assert POL.op_types.true_divide(DType.int64) is DType.float32


def test_unsigned_promotion_error_names_types_policy_and_cast():
    with pytest.raises(PromotionError) as e:
        POL.promote_types(U16, DType.int8)
    msg = str(e.value)
    assert "u16 and i8" in msg and "'torch'" in msg
    assert "Promotion for uint16, uint32, uint64 types is not supported" in msg
    assert "make it explicit: cast" in msg and e.value.cast_to is not None
    with pytest.raises(PromotionError, match="u32 and c64"):
        POL.promote_types(U32, DType.complex64)


def test_barebones_unsigned_break_the_lattice():
    # u16 lies below bf16, f16 and (through them) c64, yet u16 . c64 is refused
    assert POL.promote_types(U16, DType.bfloat16) is DType.bfloat16
    assert POL.promote_types(DType.bfloat16, DType.complex64) is DType.complex64
    assert POL.try_promote(U16, DType.complex64) is None
    report = audit(POL.table(CLASSIC))
    assert not report.is_lattice and report.commutative
    assert any("uint16 <= bfloat16 <= complex64" in p for p in report.lattice_problems)


def test_the_classic_dtypes_form_the_torch_lattice():
    classic = [d for d in CLASSIC if d not in BAREBONES_UNSIGNED]
    report = audit(POL.table(classic))
    assert report.is_lattice and report.non_associative == 0
    assert {k: set(v) for k, v in report.generator.items() if v} == {k: set(v) for k, v in TORCH_EDGES.items()}


def test_audit_counts():
    classic = audit(POL.table([*CLASSIC, *POL.weak_types]))
    assert len(CLASSIC) + len(POL.weak_types) == 19 and classic.triples == 19 ** 3
    assert classic.commutative and classic.non_associative == 888
    report = POL.audit()
    assert len(POL.types) == 30 and report.triples == 30 ** 3 and report.commutative
    # two Python scalars make a strong tensor, so (i* . i*) . i8 = i64 but i* . (i* . i8) = i8
    assert POL.promote_types(POL.promote_types("i*", "i*"), DType.int8) is DType.int64
    assert POL.promote_types("i*", POL.promote_types("i*", DType.int8)) is DType.int8


def test_registered_under_its_names():
    assert "torch" in policies() and policy("pytorch") is POL


# ---------------------------------------------------------------- float8 and int1..uint4 (PyTorch 2.13)

FLOAT8 = [DType.float8_e4m3fn, DType.float8_e5m2, DType.float8_e4m3fnuz, DType.float8_e5m2fnuz, DType.float8_e8m0fnu]


@pytest.mark.parametrize("f8", FLOAT8, ids=str)
def test_float8_promotes_with_nothing_but_itself(f8):
    assert POL.promote_types(f8, f8) is f8
    for other in POL.dtypes:
        if other is not f8:
            assert POL.try_promote(f8, other) is None and POL.try_promote(other, f8) is None, other
    for scalar in (True, 0, 0.0):
        assert POL.promote_types(f8, POL.literals.type_of(scalar)) is f8
    with pytest.raises(PromotionError, match="Unknown Complex ScalarType"):
        POL.promote_types(f8, POL.literals.type_of(0j))
    with pytest.raises(PromotionError, match="Promotion for Float8 Types is not supported"):
        POL.promote_types(f8, DType.float32)


def test_bits_integers():
    assert POL.promote_types(DType.int4, DType.int4) is DType.int4
    assert POL.try_promote(DType.int4, DType.int8) is None and POL.try_promote(DType.int4, DType.float32) is None
    assert POL.promote_types(DType.int4, "i*") is DType.int4 and POL.try_promote(DType.int4, "f*") is None
    assert POL.promote_types(DType.uint4, DType.float16) is DType.float16
    assert POL.try_promote(DType.uint4, DType.int8) is None and POL.promote_types(DType.uint4, "f*") is DType.float32


def test_types_torch_lacks_are_refused_naming_its_dtypes():
    with pytest.raises(PromotionError) as e:
        POL.promote_types(DType.float6_e2m3fn, DType.float32)
    assert "PyTorch 2.13 has no float6_e2m3fn" in str(e.value) and "float8_e4m3fn" in str(e.value)


def test_matches_the_measured_table_in_every_cell():
    """tools/measure_torch_promotion.py's table (PyTorch 2.13): 26 dtypes and 4 Python scalars."""
    table = measured_table("torch_result_type")
    gaps = evidence(POL).known_gaps
    assert {POL.canonical(t) for t in table.rows} == set(POL.types) and set(gaps) == set(COMPLEX32_CELLS)
    mismatches = [(a, b, live, POL.try_promote(a, b)) for (a, b), live in table.cells.items()
                  if (a, b) not in gaps and POL.try_promote(a, b) != live]
    assert mismatches == []
    assert all(table.cells[cell] == name for cell, name in COMPLEX32_CELLS.items())


def test_matches_live_torch_in_every_cell(tmp_path):
    """Measure PyTorch again, now, with the tool that made the table, and compare every cell."""
    import subprocess
    from pathlib import Path

    from latticecast.promotion.tables import PromotionTable
    from latticecast.promotion.weak import parse_ptype

    tool = Path(__file__).resolve().parent.parent / "tools" / "measure_torch_promotion.py"
    python = library_python("torch", "LATTICECAST_TORCH_PYTHON")
    proc = subprocess.run([python, str(tool), str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    live = PromotionTable.read(tmp_path / "torch_result_type.csv")
    gaps = evidence(POL).known_gaps
    compared = 0
    for (a, b), result in live.cells.items():
        ta, tb = parse_ptype(a), parse_ptype(b)
        if (ta, tb) in gaps:
            continue
        assert POL.try_promote(ta, tb) == (None if result is None else parse_ptype(result)), (a, b, result)
        compared += 1
    assert compared == 30 * 30 - len(gaps)


# -- 0-d tensors: PyTorch's dimension categories -----------------------------------------------------

def _torch_type(name: str):
    """A measured cell's dtype in latticecast's terms (complex32, which latticecast lacks, is
    answered with complex64, the documented departure); ``None`` for a refusal or an unknown dtype."""
    if name == "error":
        return None
    if name == "complex32":
        return DType.complex64
    try:
        return DType.parse(name)
    except Exception:
        return None


def _zero_dim_cells(rows):
    for row in rows:
        if row["fn"] != "result_type" or {row["lhs_kind"], row["rhs_kind"]} != {"nd", "0d"}:
            continue
        a, b = _torch_type(row["lhs"]), _torch_type(row["rhs"])
        if a in POL.dtypes and b in POL.dtypes:
            yield row, a, b


def test_zero_dim_tensors_follow_the_measured_dimension_categories():
    records = measured_records("torch_zero_dim")
    assert records.provenance.startswith("torch==2.13")
    checked = 0
    for row, a, b in _zero_dim_cells(records.rows):
        got = POL.decide_ranked(a, row["lhs_kind"] == "0d", b, row["rhs_kind"] == "0d").result
        assert got == _torch_type(row["result"]), row
        checked += 1
    assert checked == 2 * 20 * 20  # every 0-d x n-d pair of the 20 dtypes measured, both orders


def test_zero_dim_examples_from_the_issue():
    assert POL.decide_ranked(DType.int8, False, DType.int64, True).result is DType.int8
    assert POL.decide_ranked(DType.bfloat16, False, DType.float64, True).result is DType.bfloat16
    assert POL.decide_ranked(DType.float64, True, DType.bfloat16, False).result is DType.bfloat16
    assert POL.decide_ranked(DType.int8, False, DType.float64, True).result is DType.float64  # higher category
    assert POL.decide_ranked(DType.int8, False, DType.int64, False).result is DType.int64  # both n-d: join


def test_zero_dim_rule_live(torch):
    measured = {a for _, a, _ in _zero_dim_cells(measured_records("torch_zero_dim").rows)}
    checked = 0
    for a in sorted(measured, key=str):
        for b in sorted(measured, key=str):
            ta, tb = getattr(torch, a.name), getattr(torch, b.name)
            for a_zero in (False, True):
                x = torch.zeros((), dtype=ta) if a_zero else torch.zeros(2, dtype=ta)
                y = torch.zeros(2, dtype=tb) if a_zero else torch.zeros((), dtype=tb)
                try:
                    live = _torch_type(str(torch.result_type(x, y)).replace("torch.", ""))
                except RuntimeError:
                    live = None
                assert POL.decide_ranked(a, a_zero, b, not a_zero).result == live, (a, a_zero, b)
                checked += 1
    assert checked == 2 * len(measured) ** 2 and len(measured) == 20


def test_the_builder_and_the_pass_apply_the_zero_dim_rule():
    import numpy as np

    from latticecast import Graph, TensorType

    with Graph("t", input_types=[TensorType(DType.int8, [4]), TensorType(DType.int64, []), TensorType(DType.bfloat16, [4]),
                     TensorType(DType.float64, [])], policy="torch") as g:
        x, z, b, f = g.inputs
        assert [(x + z).dtype, (b + f).dtype, (z + x).dtype] == [DType.int8, DType.bfloat16, DType.int8]
        g.output(x + z, b + f, x * f)
    outs = g.compile()(np.arange(4, dtype=np.int8), np.int64(5), np.ones(4, dtype="bfloat16"), np.float64(0.5))
    assert [o.dtype.name for o in outs] == ["int8", "bfloat16", "float64"]
    np.testing.assert_array_equal(outs[0], np.arange(4, dtype=np.int8) + 5)


def test_the_builder_tells_an_explicit_broadcast_from_an_implicit_one():
    """``z.broadcast_to`` is dimensioned (PyTorch's ``expand``): f16 + f32 is f32 and compares in
    f32, through the pass too; ``x + z`` with ``z`` 0-d stays f16. The pass sees which broadcast
    the operator made (``latticecast.implicit_broadcast``) and which the program asked for
    (``latticecast.explicit_broadcast``), and removes the markers."""
    import numpy as np

    from latticecast import Graph, TensorType

    with Graph("t", input_types=[TensorType(DType.float16, [3]), TensorType(DType.float32, [])], policy="torch") as g:
        x, z = g.inputs
        explicit_sum, implicit_sum = x + z.broadcast_to([3]), x + z
        assert (explicit_sum.dtype, implicit_sum.dtype) == (DType.float32, DType.float16)
        g.output(explicit_sum, implicit_sum, x == z.broadcast_to([3]), x == z, z.broadcast_to([3]) > x)
    before, after = g.mlir(before_passes=True), g.mlir()
    assert "latticecast.implicit_broadcast" in before and "latticecast.explicit_broadcast" in before
    assert "latticecast.implicit_broadcast" not in after and "latticecast.explicit_broadcast" not in after
    x0, z0 = np.full(3, 0.1, np.float16), np.float32(0.1)
    outs = g.compile()(x0, z0)
    assert [o.dtype.name for o in outs] == ["float32", "float16", "bool", "bool", "bool"]
    np.testing.assert_array_equal(outs[0], x0.astype(np.float32) + z0)
    np.testing.assert_array_equal(outs[2], [False] * 3)  # PyTorch: float16(0.1) != float32(0.1) in f32
    np.testing.assert_array_equal(outs[3], [True] * 3)  # the 0-d float32 is converted to float16
    np.testing.assert_array_equal(outs[4], [True] * 3)  # float32(0.1) > float16(0.1) = 0.0999755859375


def test_the_builder_and_pytorch_agree_on_explicit_broadcasts_live(torch):
    import numpy as np

    from latticecast import Graph, TensorType

    x0, z0 = np.full(3, 0.1, np.float16), np.float32(0.1)
    tx, tz = torch.from_numpy(x0), torch.tensor(0.1, dtype=torch.float32)
    with Graph("t", input_types=[TensorType(DType.float16, [3]), TensorType(DType.float32, [])], policy="torch") as g:
        x, z = g.inputs
        g.output(x + z.broadcast_to([3]), x + z, x == z.broadcast_to([3]), x == z, x * z.broadcast_to([2, 3]))
    expected = [tx + tz.expand(3), tx + tz, tx == tz.expand(3), tx == tz, tx * tz.expand(2, 3)]
    for got, want in zip(g.compile()(x0, z0), expected):
        assert str(want.dtype) == f"torch.{got.dtype.name}"
        np.testing.assert_array_equal(got, want.numpy())


def test_a_python_float_meeting_float64_keeps_its_double_value():
    """``0.1 - float64``: PyTorch's default float is float32, but the literal is 0.1 as a double
    (torch-mlir makes it float32's 0.1 first; latticecast must not)."""
    import numpy as np

    from latticecast import Graph, TensorType

    with Graph("t", input_types=[TensorType(DType.float64, [2])], policy="torch") as g:
        (a,) = g.inputs
        g.output(0.1 - a, a * 0.1)
    low, high = g.compile()(np.array([0.1, 1.0]))
    np.testing.assert_array_equal(low, [0.0, 0.1 - 1.0])
    np.testing.assert_array_equal(high, [0.1 * 0.1, 0.1])


# ---------------------------------------------------------------- NumPy scalars, as PyTorch reads them

_NUMPY_SCALAR_PROBE = r"""
import json, warnings, numpy as np, torch
warnings.simplefilter("ignore")
names = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "bfloat16", "float16",
         "float32", "float64", "complex64", "complex128"]
scalars = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
           "float64", "complex64", "complex128"]
out = {}
for d in names:
    for shape in ((2,), ()):
        for s in scalars:
            value = np.dtype(s).type(1)
            t = torch.zeros(shape, dtype=getattr(torch, d))
            cell = {}
            for how, f in (("result_type", lambda: torch.result_type(t, value)), ("+", lambda: (t + value).dtype),
                           ("scalar +", lambda: (value + t).dtype)):
                try:
                    cell[how] = str(f()).removeprefix("torch.")
                except (RuntimeError, TypeError):
                    cell[how] = None
            out[f"{d},{len(shape)},{s}"] = cell
print(json.dumps(out))
"""


def test_numpy_scalars_are_python_numbers_to_pytorch_as_live():
    """PyTorch reads a NumPy scalar as a Python number (a "wrapped number"): a NumPy integer as an int;
    np.bool_, a NumPy float and np.complex64 as a float; np.complex128 as a complex (measured: int8 tensor +
    np.float64(1) is float32). Every NumPy scalar type against a tensor and a 0-d tensor of each classic
    dtype, through torch.result_type and + in both orders, against lc.result_type."""
    import json
    import subprocess

    import numpy as np

    import latticecast as lc

    python = library_python("torch", "LATTICECAST_TORCH_PYTHON")
    proc = subprocess.run([python, "-c", _NUMPY_SCALAR_PROBE], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    live = json.loads(proc.stdout)
    mismatches = []
    for key, cell in live.items():
        d, ndim, s = key.split(",")
        array = np.zeros((2,) if ndim == "1" else (), DType.parse(d).np_dtype)
        try:
            mine = lc.result_type(array, np.dtype(s).type(1), policy=POL).name
        except PromotionError:
            mine = None
        added = {cell["+"], cell["scalar +"]}
        if added == {None}:  # no add kernel for uint16/32/64 (its domain, not promotion)
            assert d in ("uint16", "uint32", "uint64") and cell["result_type"] is not None, key
            added = {cell["result_type"]}
        theirs = added | {cell["result_type"]}
        if theirs == {"complex32"} and mine == "complex64":  # latticecast has no complex32
            continue
        if theirs != {mine}:
            mismatches.append((key, cell, mine))
    assert mismatches == [] and len(live) == 15 * 2 * 14


def test_a_numpy_scalar_in_a_graph_is_the_python_number_pytorch_makes_of_it():
    import numpy as np

    from latticecast import Graph, LiteralRangeError, TensorType

    with Graph("g", input_types=[TensorType(DType.int8, [4]), TensorType(DType.bool, [4])], policy=POL) as g:
        x, b = g.inputs
        assert (x + np.float64(1.5)).dtype is DType.float32     # a Python float, not a 0-d float64 tensor
        assert (x + np.int64(3)).dtype is DType.int8
        assert (b + np.bool_(True)).dtype is DType.float32       # PyTorch reads np.bool_ as a float
        assert (x + np.complex64(2)).dtype is DType.float32      # its imaginary part is 0
        with pytest.raises(LiteralRangeError, match="drops its imaginary part"):
            x + np.complex64(1j)
        assert (x + np.complex128(1j)).dtype is DType.complex64


def test_result_type_ranks_tensors_zero_dim_tensors_and_scalars():
    """at::native::result_type's three classes over many operands."""
    import numpy as np

    import latticecast as lc

    assert lc.result_type(np.ones(3, np.int8), np.zeros((), np.float64), policy=POL) is DType.float64
    assert lc.result_type(np.ones(3, np.float32), np.zeros((), np.float64), 1, policy=POL) is DType.float32
    assert lc.result_type(np.ones(3, np.int8), np.zeros((), np.int64), 2.5, policy=POL) is DType.float32
    assert lc.result_type(np.ones(3, np.uint8), np.ones(3, np.int8), np.zeros((), np.int64), policy=POL) is DType.int16
    assert lc.result_type(1, 2.0, policy=POL) is DType.float32
    with pytest.raises(PromotionError):
        lc.result_type(np.ones(3, np.uint16), np.ones(3, np.int8), policy=POL)


_CLAMP_PROBE = r"""
import itertools, json, warnings, torch
warnings.simplefilter("ignore")
names = ["uint8", "int8", "int16", "int32", "int64", "bfloat16", "float16", "float32", "float64", "bool"]
operands = [(d, nd) for d in names for nd in (1, 0)]
def make(d, nd):
    return torch.ones((3,) if nd else (), dtype=getattr(torch, d))
out = {}
for (a, b, c) in itertools.product(operands, repeat=3):
    try:
        r = str(torch.clamp(make(*a), make(*b), make(*c)).dtype).removeprefix("torch.")
    except RuntimeError as e:
        r = "no kernel" if "not implemented" in str(e) else None
    out[json.dumps([a, b, c])] = r
for a in operands:
    for lo, hi in ((1, 2), (1.5, 2.5), (True, False), (1, 2.5)):
        try:
            r = str(torch.clamp(make(*a), lo, hi).dtype).removeprefix("torch.")
        except RuntimeError as e:
            r = "no kernel" if "not implemented" in str(e) else None
        out[json.dumps([a, lo, hi])] = r
print(json.dumps(out))
"""


def test_result_type_of_three_operands_matches_torch_clamp():
    """torch.clamp(x, min, max) promotes its three operands with at::native::result_type: every 3-tuple of
    10 dtypes as tensors and 0-d tensors (8,000), and each with two Python scalars, against
    lc.result_type (cells where clamp has no kernel, bool, are its domain and are counted apart)."""
    import json
    import subprocess

    import numpy as np

    import latticecast as lc

    python = library_python("torch", "LATTICECAST_TORCH_PYTHON")
    proc = subprocess.run([python, "-c", _CLAMP_PROBE], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    live = json.loads(proc.stdout)

    def value(x):
        if isinstance(x, list):
            d, nd = x
            return np.zeros((3,) if nd else (), DType.parse(d).np_dtype)
        return x

    mismatches, compared, no_kernel = [], 0, 0
    for key, theirs in live.items():
        if theirs == "no kernel":
            no_kernel += 1
            continue
        try:
            mine = lc.result_type(*(value(x) for x in json.loads(key)), policy=POL).name
        except PromotionError:
            mine = None
        compared += 1
        if mine != theirs:
            mismatches.append((key, theirs, mine))
    assert mismatches == [] and compared + no_kernel == 20 ** 3 + 20 * 4 and compared > 5000


# -- lit_tests/policies/torch_zero_dim_compare.mlir: its RUNTIME answers are PyTorch eager's -----------------

ZERO_DIM_LIT = Path(__file__).resolve().parent.parent / "lit_tests" / "policies" / "torch_zero_dim_compare.mlir"

_EAGER = """
import json, sys
import torch
DTYPES = {"f16": torch.float16, "f32": torch.float32, "f64": torch.float64, "i8": torch.int8,
          "i64": torch.int64, "i1": torch.bool}
out = []
for chunk in json.loads(sys.stdin.read()):
    env = {"torch": torch}
    for name, dtype, values in chunk["args"]:
        env[name] = torch.tensor(values, dtype=DTYPES[dtype])
    got = eval(chunk["torch"], env)
    got = got if isinstance(got, tuple) else (got,)
    out.append([[str(t.dtype).removeprefix("torch."), t.tolist()] for t in got])
print(json.dumps(out))
"""


def _lit_chunks(text: str) -> list[dict[str, Any]]:
    import ast
    import re

    chunks = []
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        name = re.search(r"^func\.func @(\w+)\(.*\) -> \(?(.+?)\)? \{$", chunk, re.M)
        runtime = re.search(r"^// RUNTIME: @(\w+): (.+)$", chunk, re.M)
        assert name and runtime and runtime[1] == name[1], chunk[:200]
        chunks.append({
            "name": name[1],
            "results": [DType.parse(re.fullmatch(r"tensor<(?:\d+x)*(\w+)>", t.strip())[1])  # type: ignore[index]
                        for t in name[2].split(",")],
            "args": [[n, d, ast.literal_eval(v)] for n, d, v in re.findall(r"^// ARG: (\w+) (\w+) (.+)$", chunk, re.M)],
            "torch": re.search(r"^// TORCH: (.+)$", chunk, re.M)[1],  # type: ignore[index]
            "runtime": runtime[2],
        })
    return chunks


def test_the_zero_dim_lit_test_covers_what_issue_30_lists() -> None:
    chunks = _lit_chunks(ZERO_DIM_LIT.read_text())
    names = {c["name"] for c in chunks}
    assert {"main", "argument_f32_f64", "const_f16_f32", "argument_f16_f32", "const_i8_i64",
            "argument_i8_i64", "select_f32_f64", "clamp_f32_f64"} <= names
    assert all(c["torch"] and c["runtime"] for c in chunks)


def test_the_zero_dim_lit_answers_are_pytorch_eager_live() -> None:
    import json
    import subprocess

    python = library_python("torch", "LATTICECAST_TORCH_PYTHON")
    chunks = _lit_chunks(ZERO_DIM_LIT.read_text())
    asked = [{"args": c["args"], "torch": c["torch"]} for c in chunks]
    proc = subprocess.run([python, "-c", _EAGER], input=json.dumps(asked), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for chunk, eager in zip(chunks, json.loads(proc.stdout)):
        assert [DType.parse(d) for d, _ in eager] == chunk["results"], chunk["name"]
        assert ", ".join(str(v) for _, v in eager) == chunk["runtime"], chunk["name"]
