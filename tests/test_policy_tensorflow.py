"""The TensorFlow policy: the tf.add table with its errata, its rules, and live TensorFlow.

The live tests need ``tensorflow`` and skip cleanly without it (it is not a
dependency; the policy never imports it). To run them, put TensorFlow and this
package's source on one interpreter, e.g. a separate venv with ``tensorflow-cpu``,
``pytest`` and ``hypothesis`` and ``PYTHONPATH=src``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from latticecast import DomainError, DType, LiteralRangeError, PromotionError, audit, policies, policy, weak
from latticecast.evidence import evidence, measured_table, seed_table
from latticecast.policies.lattices import TF_STORAGE_ONLY
from latticecast.evidence.tensorflow import PUBLISHED_TABLE_ERRATA
from latticecast.promotion.weak import PType, Weak
from conftest import library_python

POL = policy("tensorflow")
SEED = seed_table("design_tensorflow")
CLASSIC = [d for d in POL.dtypes if d not in TF_STORAGE_ONLY]
"""The dtypes of the 2021 table: TensorFlow's arithmetic dtypes."""
SEED_I, SEED_F, SEED_C = Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128)


@pytest.fixture(scope="module")
def tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return pytest.importorskip("tensorflow")


def _zero(tf, t: PType):
    if isinstance(t, Weak):
        return {"i": 0, "u": 0, "f": 0.0, "c": 0j}[t.dtype.kind.code]
    return tf.zeros(1, dtype=getattr(tf, t.name))


def live(tf, op, a: PType, b: PType) -> PType | None:
    """``op(a, b)``'s type as the design note's ``result_code`` reads it; ``None`` when TF refuses."""
    try:
        out = op(_zero(tf, a), _zero(tf, b))
    except (TypeError, ValueError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError):
        return None
    return DType.parse(out.dtype.name)


# ---------------------------------------------------------------- the seed table and its errata


def test_reproduces_the_tf_add_table_except_the_errata():
    errata = evidence(POL).errata
    assert set(errata) == set(PUBLISHED_TABLE_ERRATA) and list(evidence(POL).published) == ["seed table design_tensorflow"]
    checked = 0
    for (a, b), published in SEED.cells.items():
        got = POL.try_promote(a, b)
        if (a, b) in PUBLISHED_TABLE_ERRATA:
            stated_published, stated, why = PUBLISHED_TABLE_ERRATA[(a, b)]
            assert stated_published == published and got == stated and got != published, (a, b)
            assert errata[(a, b)] == why
        else:
            assert got == published, (a, b)
            checked += 1
    assert checked == 18 * 18 - 20


def test_the_errata_are_bool_and_tf_adds_scalar_first_argument():
    """Written out by hand: bool . bool, and a Python scalar *first* meeting a tensor it
    converts to (the seed has those only with the scalar second)."""
    ints = [DType.uint8, DType.uint16, DType.uint32, DType.uint64, DType.int8, DType.int16, DType.int64]
    floats = [DType.bfloat16, DType.float16, DType.float64]
    cx = [DType.complex64, DType.complex128]
    expected: dict[tuple[PType, PType], PType] = {(DType.bool, DType.bool): DType.bool}
    expected.update({(SEED_I, d): d for d in ints + floats + [DType.float32] + cx})
    expected.update({(SEED_F, d): d for d in floats + cx})
    expected[(SEED_C, DType.complex64)] = DType.complex64
    assert {cell: now for cell, (_, now, _) in PUBLISHED_TABLE_ERRATA.items()} == expected
    # each scalar erratum is the transposed cell of the seed itself
    for (a, b), now in expected.items():
        if (a, b) != (DType.bool, DType.bool):
            assert SEED[(b, a)] == now
    assert "no bool kernel" in evidence(POL).errata[(DType.bool, DType.bool)]


# ---------------------------------------------------------------- the rules, without TensorFlow


def test_rules():
    p = POL.try_promote
    assert p(DType.int8, DType.int16) is None and p(DType.int8, DType.int8) is DType.int8
    assert p(DType.uint8, "i*") is DType.uint8 and p("i*", DType.uint8) is DType.uint8
    assert p(DType.float16, "i*") is DType.float16 and p(DType.complex64, "f*") is DType.complex64
    assert p(DType.int32, "f*") is None and p(DType.float32, "c*") is None and p(DType.bool, "i*") is None
    # two Python scalars: the first takes its default dtype, the second must convert to it
    assert p("f*", "i*") is DType.float32 and p("i*", "f*") is None
    assert p("c*", "f*") is DType.complex128 and p("f*", "c*") is None
    assert p("i*", "i*") is DType.int32


@given(st.sampled_from(CLASSIC), st.sampled_from(CLASSIC))
def test_distinct_dtypes_never_promote(a, b):
    assert (POL.try_promote(a, b) is None) == (a != b)


@pytest.mark.parametrize("d", TF_STORAGE_ONLY, ids=str)
def test_low_precision_dtypes_are_storage_only(d):
    """TensorFlow 2.21 has them but computes with none, not even two of one dtype."""
    for other in [*POL.dtypes, *POL.weak_types]:
        assert POL.try_promote(d, other) is None and POL.try_promote(other, d) is None
    with pytest.raises(PromotionError, match=f"TensorFlow 2.21 holds {d.name} for storage only"):
        POL.promote_types(d, d)


def test_low_precision_dtypes_tensorflow_lacks_are_refused_naming_its_dtypes():
    for d in (DType.float8_e3m4, DType.float8_e8m0fnu, DType.float6_e2m3fn, DType.int1, DType.uint1):
        with pytest.raises(PromotionError, match=f"TensorFlow 2.21 has no {d.name}; its dtypes are bool"):
            POL.promote_types(d, d)


def test_matches_the_measured_table_in_every_cell():
    """tools/measure_tensorflow_promotion.py: tf.math.multiply with each low-precision dtype."""
    table = measured_table("tensorflow_lowp_multiply")
    assert set(table.rows) - set(SEED.rows) == set(TF_STORAGE_ONLY) and len(table.cells) == 13 * 28
    assert [(a, b) for (a, b), live in table.cells.items() if POL.try_promote(a, b) != live] == []


def test_errors_name_both_types_the_policy_and_the_cast():
    with pytest.raises(PromotionError) as e:
        POL.promote_types(DType.int8, DType.int16)
    msg = str(e.value)
    assert "i8 and i16" in msg and "'tensorflow'" in msg and "TensorFlow does no implicit promotion" in msg
    assert "cast i8 to int16" in msg and e.value.cast_to is DType.int16
    with pytest.raises(PromotionError, match=r"f\* and i32.*cannot convert a Python float to the tensor's "
                                             r"dtype int32.*cast i32 to float32"):
        POL.promote_types("f*", DType.int32)
    with pytest.raises(PromotionError, match=r"i\* and f\*.*first Python scalar a tensor of dtype int32"):
        POL.promote_types("i*", "f*")


def test_literals():
    assert POL.literals.type_of(1) == weak(DType.int32)
    assert POL.literals.type_of(1.0) == weak(DType.float32)
    assert POL.literals.type_of(1j) == weak(DType.complex128)
    assert POL.literals.type_of(True) is DType.bool
    assert [POL.materialize(POL.literals.type_of(v)) for v in (1, 1.0, 1j)] == [
        DType.int32, DType.float32, DType.complex128]
    with pytest.raises(LiteralRangeError, match=r"1000 out of range for int8"):
        POL.literals.check(1000, DType.int8)
    POL.literals.check(1e10, DType.float16)  # becomes inf, as in TensorFlow


def test_true_divide():
    assert POL.op_types.true_divide(DType.int8) is DType.float32
    assert POL.op_types.true_divide(DType.uint16) is DType.float32
    assert POL.op_types.true_divide(DType.int32) is DType.float64
    assert POL.op_types.true_divide(DType.uint64) is DType.float64
    assert POL.op_types.true_divide("i*") is DType.float64  # a Python int is an int32
    assert POL.op_types.true_divide(DType.bfloat16) is DType.bfloat16
    with pytest.raises(DomainError, match=r"no true division of b under policy 'tensorflow': "
                                             r"tf.math.truediv rejects bool.*cast bool to float32"):
        POL.op_types.true_divide(DType.bool)


def test_audit_counts():
    report = POL.audit()
    pairs = {(a, b) for a, b, _, _ in report.non_commutative}
    i, f, c = weak(DType.int32), weak(DType.float32), weak(DType.complex128)
    assert pairs == {(i, f), (i, c), (f, c)}
    classic = audit(POL.table([*CLASSIC, *POL.weak_types]))
    assert classic.triples == 18 ** 3 and classic.non_associative == 88
    strong = audit(POL.table(CLASSIC))
    assert strong.is_lattice and strong.non_associative == 0
    assert all(not ups for ups in strong.generator.values())  # a discrete order: no edges at all


def test_registered_under_its_names():
    assert "tensorflow" in policies() and policy("tf") is POL


# ---------------------------------------------------------------- against live TensorFlow


def test_live_tf_add_is_still_the_seed_table(tf):
    """Why the errata: tf.add itself has not changed since 2021."""
    diffs = [(a, b) for (a, b), published in SEED.cells.items() if live(tf, tf.add, a, b) != published]
    assert diffs == []


def test_live_where_is_the_policy_in_every_cell(tf):
    """tf.where converts its branches like every op but tf.add, and takes bool."""
    where = lambda x, y: tf.where(True, x, y)  # noqa: E731
    diffs = [(a, b) for a in SEED.rows for b in SEED.columns if live(tf, where, a, b) != POL.try_promote(a, b)]
    assert diffs == []


@pytest.mark.parametrize("op", ["multiply", "subtract"])
def test_live_arithmetic_is_the_policy_but_for_bool(tf, op):
    fn = getattr(tf.math, op)
    diffs = [(a, b) for a in SEED.rows for b in SEED.columns if live(tf, fn, a, b) != POL.try_promote(a, b)]
    assert diffs == [(DType.bool, DType.bool)]  # no bool kernel
    with pytest.raises(tf.errors.InvalidArgumentError, match="of bool is not in the list of allowed values"):
        fn(tf.zeros(1, tf.bool), tf.zeros(1, tf.bool))


def test_live_literals_and_division(tf):
    assert [DType.parse(tf.constant(v).dtype.name) for v in (1, 1.0, 1j, True)] == [
        POL.materialize(POL.literals.type_of(v)) for v in (1, 1.0, 1j, True)]
    for d in CLASSIC:
        x = tf.ones(1, dtype=getattr(tf, d.name))
        if d is DType.bool:
            with pytest.raises(TypeError, match="Invalid dtype tf.bool in __truediv__"):
                tf.math.truediv(x, x)
            continue
        assert POL.op_types.true_divide(d) == DType.parse(tf.math.truediv(x, x).dtype.name), d
    assert DType.parse(tf.math.truediv(1, 2).dtype.name) == POL.op_types.true_divide("i*")


def test_live_low_precision_cells(tmp_path):
    """Measure TensorFlow again, now, with the tool that made the table, and compare every cell."""
    import subprocess
    from pathlib import Path

    from latticecast.promotion.tables import PromotionTable
    from latticecast.promotion.weak import parse_ptype

    tool = Path(__file__).resolve().parent.parent / "tools" / "measure_tensorflow_promotion.py"
    python = library_python("tensorflow", "LATTICECAST_TF_PYTHON")
    proc = subprocess.run([python, str(tool), str(tmp_path)], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0, proc.stderr
    live = PromotionTable.read(tmp_path / "tensorflow_lowp_multiply.csv")
    assert len(live.cells) == 13 * 28
    for (a, b), result in live.cells.items():
        assert POL.try_promote(parse_ptype(a), parse_ptype(b)) == (None if result is None else parse_ptype(result))
