"""The NumPy policy: its seed table, its rules against live NumPy 2 with ml_dtypes, NEP 50 scalars, and its audit.

The policy is written as rules (a safe-casting DAG, NumPy's type order, ml_dtypes' registered
casts); these tests hold it to the design note's appendix table, to the table measured by
tools/measure_numpy_promotion.py, and to the NumPy installed here, cell by cell, which the
policy itself never calls.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latticecast import DomainError, DType, LiteralRangeError, PromotionError, audit, policies, policy, weak
from latticecast.policies.lattices import NUMPY_DTYPES, NUMPY_ML_DTYPES, NUMPY_SAFE_CASTS as SAFE_CASTS, \
    NUMPY_TYPE_ORDER as TYPE_ORDER
from latticecast.policies.numpy import can_cast_safely
from latticecast.evidence import evidence, measured_table, seed_table
from latticecast.evidence.numpy import PUBLISHED_TABLE_ERRATA
from latticecast.promotion.weak import PType, Weak

POL = policy("numpy")
SEED = seed_table("design_numpy")
I, F, C = Weak(DType.int64), Weak(DType.float64), Weak(DType.complex128)
_PY_ZERO = {DType.int64: 0, DType.float64: 0.0, DType.complex128: 0j}


# ---------------------------------------------------------------- live NumPy, as the design note asks it


def np_operand(t: PType, value=0):
    """The design note's ``make_np_zero``: a Python scalar for a weak type, a 1-element array
    otherwise (ml_dtypes' types included)."""
    if isinstance(t, Weak):
        return type(_PY_ZERO[t.dtype])(value)
    return np.full(1, value, dtype=t.np_dtype)


def np_result(fn, a: PType, b: PType) -> PType | None:
    """``fn(a, b)``'s type as the note's ``np_result_code`` reads it; ``None`` when NumPy refuses."""
    x, y = np_operand(a), np_operand(b)
    try:
        out = fn(x, y)
    except TypeError:
        return None
    if type(out) in (int, float, complex):
        return {int: I, float: F, complex: C}[type(out)]
    return DType.parse(out.dtype)


def np_promote(a: PType, b: PType) -> PType | None:
    """What the policy models, asked of live NumPy: ``np.promote_types`` for two arrays,
    ``array + scalar`` with a Python scalar (NumPy's arithmetic), ``np.add`` for two Python scalars."""
    try:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return DType.parse(np.dtype(type(np.add(np_operand(a), np_operand(b)))))
        if isinstance(a, Weak) or isinstance(b, Weak):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                x = np_operand(a) if isinstance(a, Weak) else np.zeros(2, a.np_dtype)
                y = np_operand(b) if isinstance(b, Weak) else np.zeros(2, b.np_dtype)
                return DType.parse((x + y).dtype)
        return DType.parse(np.promote_types(a.np_dtype, b.np_dtype))
    except TypeError:  # DTypePromotionError
        return None


CLASSIC = [t for t in SEED.rows if t is not DType.bfloat16]
"""The seed's types that are NumPy's own (bfloat16 comes from ml_dtypes)."""
ML = [d for d in POL.dtypes if d not in NUMPY_DTYPES]


# ---------------------------------------------------------------- the seed table


def test_reproduces_the_design_note_table_but_for_bfloat16():
    """NumPy 2 gives the 2021 table in every cell of its own dtypes (a table of zeros never showed
    value-based casting); the table's bfloat16 row and column ('invalid' then) are errata, taken
    from the measured table: ml_dtypes registers bfloat16 with NumPy."""
    errata = evidence(POL).errata
    assert set(errata) == set(PUBLISHED_TABLE_ERRATA)
    assert all(DType.bfloat16 in cell for cell in errata) and len(errata) == 21
    checked = 0
    for (a, b), expected in SEED.cells.items():
        got = POL.try_promote(a, b)
        if (a, b) in errata:
            published, now, why = PUBLISHED_TABLE_ERRATA[(a, b)]
            assert published == expected and got == now != expected and "ml_dtypes" in why, (a, b)
            continue
        assert got == expected, (a, b)
        checked += 1
    assert checked == 18 * 18 - 21


def test_the_published_table_is_the_seed_and_the_measured_one_is_promote_types():
    (table,) = evidence(POL).published.values()
    assert table is SEED
    (live,) = evidence(POL).measured.values()
    assert live is measured_table("numpy_promote_types")


# ---------------------------------------------------------------- the rules against live NumPy


def test_matches_the_measured_table_in_every_cell():
    """tools/measure_numpy_promotion.py's table: 32 dtypes and 3 Python scalars."""
    table = measured_table("numpy_promote_types")
    assert set(table.rows) == set(POL.types) and len(table.cells) == 35 * 35
    assert [(a, b) for (a, b), live in table.cells.items() if POL.try_promote(a, b) != live] == []


def test_matches_live_promote_types_and_arithmetic_in_every_cell():
    mismatches = [(a, b, np_promote(a, b), POL.try_promote(a, b)) for a in POL.types for b in POL.types
                  if np_promote(a, b) != POL.try_promote(a, b)]
    assert mismatches == []


def test_matches_live_numpy_add_on_numpys_own_dtypes():
    """For NumPy's own dtypes the ufunc is promote_types, cell for cell."""
    mismatches = [(a, b, np_result(np.add, a, b), POL.try_promote(a, b))
                  for a in CLASSIC for b in CLASSIC if np_result(np.add, a, b) != POL.try_promote(a, b)]
    assert mismatches == []


def test_ufuncs_on_ml_dtypes_are_not_promotion_and_the_policy_does_not_model_them():
    """The documented choice: for ml_dtypes' types a ufunc never refuses and depends on operand order
    (the first registered loop wins), so the policy models np.promote_types instead."""
    ufunc = measured_table("numpy_ufunc_add")
    promote = measured_table("numpy_promote_types")
    differ = [cell for cell, v in ufunc.cells.items() if promote.cells[cell] != v]
    assert all(DType.bfloat16 in c or any(t in ML for t in c) or all(isinstance(t, Weak) for t in c)
               for c in differ) and len(differ) == 384
    assert all(v is not None for v in ufunc.cells.values())
    assert np_result(np.add, DType.int4, DType.float8_e4m3fn) is DType.int4
    assert np_result(np.add, DType.float8_e4m3fn, DType.int4) is DType.float8_e4m3fn
    assert POL.promote_types(DType.int4, DType.float8_e4m3fn) is DType.float8_e4m3fn
    assert np_result(np.add, DType.bfloat16, DType.float16) is DType.float32
    assert POL.try_promote(DType.bfloat16, DType.float16) is None


NO_LOOP = {np.subtract: {(DType.bool, DType.bool)}}
"""Cells where a ufunc has no loop for the promoted dtype: its domain, not promotion."""


@pytest.mark.parametrize("ufunc", [np.multiply, np.maximum, np.minimum, np.fmax, np.subtract],
                         ids=lambda u: u.__name__)
def test_matches_other_live_ufuncs(ufunc):
    """Every binary ufunc with loops for all dtypes shares np.add's promotion on NumPy's own dtypes."""
    skip = NO_LOOP.get(ufunc, set())
    compared = 0
    for a in CLASSIC:
        for b in CLASSIC:
            if (a, b) in skip:
                assert np_result(ufunc, a, b) is None
                continue
            assert np_result(ufunc, a, b) == POL.try_promote(a, b), (ufunc.__name__, a, b)
            compared += 1
    assert compared == 17 * 17 - len(skip)


def test_bool_subtract_has_no_loop_but_bool_promotion_is_bool():
    with pytest.raises(TypeError, match="boolean subtract"):
        np.subtract(np.zeros(1, bool), np.zeros(1, bool))
    assert POL.promote_types(DType.bool, DType.bool) is DType.bool


def test_strong_promotion_equals_np_promote_types():
    for a in POL.dtypes:
        for b in POL.dtypes:
            try:
                live = DType.parse(np.promote_types(a.np_dtype, b.np_dtype))
            except TypeError:
                live = None
            assert POL.try_promote(a, b) == live, (a, b)


@pytest.mark.parametrize("a, b, expected", [
    (DType.bfloat16, DType.int8, DType.bfloat16), (DType.float8_e4m3fn, DType.float32, DType.float32),
    (DType.int4, DType.int8, DType.int8), (DType.bfloat16, DType.float16, None), (DType.int4, DType.uint8, None),
    (DType.float8_e4m3fn, DType.float8_e4m3, DType.float8_e4m3), (DType.int4, DType.float8_e4m3fn,
                                                                 DType.float8_e4m3fn),
    (DType.float8_e5m2, DType.int16, DType.float32), (DType.float8_e8m0fnu, DType.float8_e4m3fn, None),
    (DType.int16, DType.float8_e4m3fn, None), (DType.int2, DType.int4, DType.int4), (DType.int1, DType.uint1, None),
])
def test_ml_dtypes_cells_the_report_names(a, b, expected):
    assert POL.try_promote(a, b) == expected == POL.try_promote(b, a)


def test_safe_cast_dag_is_np_can_cast_safe():
    for a in POL.dtypes:
        for b in POL.dtypes:
            assert can_cast_safely(a, b) == np.can_cast(a.np_dtype, b.np_dtype, "safe"), (a, b)
    # and the DAG of NumPy's own dtypes is transitively reduced: no edge is implied by the others
    for src, dsts in SAFE_CASTS.items():
        for d in dsts:
            assert not any(can_cast_safely(o, d) for o in dsts if o != d), (src, d)


def test_ml_dtypes_casts_are_registered_casts():
    """Where NumPy has no cast function at all (np.can_cast 'unsafe' is False), ml_dtypes registered none."""
    from latticecast.policies.numpy import _ml_cast_registered

    for a in ML:
        for b in ML:
            if a is not b:
                assert _ml_cast_registered(a, b) == np.can_cast(a.np_dtype, b.np_dtype, "unsafe"), (a, b)


def test_type_order_is_numpys_type_numbers():
    assert sorted(NUMPY_DTYPES, key=lambda d: d.np_dtype.num) == list(TYPE_ORDER)
    assert sorted(ML, key=lambda d: d.np_dtype.num) == list(NUMPY_ML_DTYPES)
    assert min(d.np_dtype.num for d in ML) > max(d.np_dtype.num for d in NUMPY_DTYPES)


def test_numpy_scalars_are_strong_and_the_note_example_is_not_associative():
    a, b, c = np.int8(1), np.uint8(1), np.float16(1)
    assert np.dtype((a + b) + c) == np.float32 and np.dtype(a + (b + c)) == np.float16
    i8, u8, f16 = DType.int8, DType.uint8, DType.float16
    p = POL.promote_types
    assert p(p(i8, u8), f16) is DType.float32
    assert p(i8, p(u8, f16)) is DType.float16


# ---------------------------------------------------------------- NEP 50 Python scalars


@pytest.mark.parametrize("d", NUMPY_DTYPES + NUMPY_ML_DTYPES, ids=str)
@pytest.mark.parametrize("scalar", [0, 0.0, 0j, True], ids=["int", "float", "complex", "bool"])
def test_python_scalars_follow_nep50(d, scalar):
    """NumPy's arithmetic with a Python scalar is value-independent and equals the policy's promotion, in
    both orders; ``np.result_type`` equals ``lc.result_type``. For ml_dtypes' types the two differ in
    NumPy itself: ``bfloat16 + 1.0`` is float32 where ``np.result_type`` says float64, ``uint4 + 1`` is
    int8 where it says uint8."""
    import latticecast as lc

    array = np.zeros(2, d.np_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        added, added_back = DType.parse((array + scalar).dtype), DType.parse((scalar + array).dtype)
    assert POL.promote_types(d, POL.literals.type_of(scalar)) == added == added_back
    assert lc.result_type(array, scalar, policy=POL) == DType.parse(np.result_type(array, scalar))


def test_literal_types_and_their_defaults():
    assert POL.literals.type_of(1) == weak(DType.int64)
    assert POL.literals.type_of(1.0) == weak(DType.float64)
    assert POL.literals.type_of(1j) == weak(DType.complex128)
    assert POL.literals.type_of(True) is DType.bool  # NumPy 2 treats a Python bool as np.bool_
    for value in (1, 1.0, 1j, True):
        assert POL.materialize(POL.literals.type_of(value)) == DType.parse(np.asarray(value).dtype)


def test_two_python_scalars_give_a_strong_numpy_scalar():
    assert POL.promote_types("i*", "f*") is DType.float64
    assert type(np.add(1, 2.0)) is np.float64
    assert POL.promote_types("i*", "i*") is DType.int64 and type(np.add(1, 2)) is np.int64


def test_weak_unsigned_and_weak_narrow_ints_are_python_ints():
    assert POL.promote_types(weak(DType.uint8), DType.int8) is DType.int8
    assert POL.promote_types(weak(DType.int16), DType.uint8) is DType.uint8
    assert POL.canonical(weak(DType.bool)) is DType.bool


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NUMPY_DTYPES), st.data())
def test_promotion_does_not_depend_on_the_value(d, data):
    """NEP 50's point: no value-based casting. Any in-range Python int, any float or complex,
    gives the dtype of the zero-valued table."""
    kind = data.draw(st.sampled_from(["int", "float", "complex"]))
    if kind == "int":
        lo, hi = (d.min_value, d.max_value) if d.is_integral() else (-2**31, 2**31)
        value = data.draw(st.integers(int(lo), int(hi)))
    elif kind == "float":
        value = data.draw(st.floats(-1e4, 1e4))
    else:
        value = complex(data.draw(st.floats(-1e4, 1e4)), data.draw(st.floats(-1e4, 1e4)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        live = np.add(np.zeros(1, d.np_dtype), value).dtype
    assert POL.promote_types(d, POL.literals.type_of(value)) == DType.parse(live)


# ---------------------------------------------------------------- literal ranges and division


def test_out_of_range_ints_raise_as_in_numpy_2():
    with pytest.raises(OverflowError, match="1000 out of bounds for int8"):
        np.zeros(1, np.int8) + 1000
    with pytest.raises(LiteralRangeError, match=r"1000 out of range for int8 \[-128, 127\]"):
        POL.literals.check(1000, DType.int8)
    with pytest.raises(LiteralRangeError, match=r"-1 out of range for uint8"):
        POL.literals.check(-1, DType.uint8)
    POL.literals.check(127, DType.int8)


def test_float_overflow_is_inf_not_an_error():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isinf(np.zeros(1, np.float16) + 1e10).all()
        assert np.isinf(np.zeros(1, np.float16) + 100000).all()
    POL.literals.check(1e10, DType.float16)
    POL.literals.check(100000, DType.float16)
    POL.literals.check(complex(1e300, 0), DType.complex64)
    # a kind mismatch NumPy never makes implicitly is still refused
    with pytest.raises(LiteralRangeError, match="complex literal"):
        POL.literals.check(1j, DType.float32)


@pytest.mark.parametrize("d", NUMPY_DTYPES + NUMPY_ML_DTYPES, ids=str)
def test_true_divide_matches_numpy(d):
    """int8 / int8 is float64; int4 / int4 is float16 (the first float loop int4 casts to); float8 keeps."""
    with np.errstate(all="ignore"):
        live = np.true_divide(np.ones(1, d.np_dtype), np.ones(1, d.np_dtype)).dtype
    assert POL.op_types.true_divide(d) == DType.parse(live)


def test_true_divide_of_python_ints_is_float64():
    assert type(np.true_divide(1, 2)) is np.float64
    assert POL.op_types.true_divide(POL.promote_types("i*", "i*")) is DType.float64
    assert POL.op_types.true_divide("f*") == weak(DType.float64)


# ---------------------------------------------------------------- errors


def test_a_refused_ml_dtypes_pair_names_both_types_the_policy_and_the_cast():
    with pytest.raises(PromotionError) as e:
        POL.promote_types(DType.bfloat16, DType.float16)
    msg = str(e.value)
    assert "bf16 and f16 under policy 'numpy'" in msg and "np.promote_types refuses it" in msg
    assert e.value.policy == "numpy" and isinstance(e.value, TypeError) and e.value.cast_to is DType.float32
    assert POL.promote_types("i*", "bf16") is DType.bfloat16


def test_other_foreign_dtypes_are_refused():
    with pytest.raises(PromotionError, match="index is not a dtype of policy 'numpy'"):
        POL.promote_types(DType.index, DType.int8)


def test_multi_type_promotion_is_numpys_own_rule_not_a_fold():
    """np.result_type lets the most knowledgeable dtype (float16, the highest type number) promote the
    others; folding in order gives another answer."""
    assert POL.result_type(DType.int8, DType.uint8, DType.float16) is DType.float16
    assert DType.parse(np.result_type(np.int8, np.uint8, np.float16)) is DType.float16
    assert POL.result_type(DType.int8, DType.uint8, DType.float16, left_to_right=True) is DType.float32
    assert POL.result_type(DType.int16, DType.uint16, DType.float16) is DType.float32
    assert POL.result_type(DType.int16, DType.uint16, DType.float16, left_to_right=True) is DType.float64


def test_explain_names_the_rule():
    assert "first dtype in NumPy's type order" in POL.explain(DType.int8, DType.uint8)
    assert "int8 casts safely to float16" in POL.explain(DType.int8, DType.float16)
    assert "NEP 50" in POL.explain("i*", DType.uint8)


# ---------------------------------------------------------------- lattice facts


def test_audit_numpy_is_commutative_but_not_associative():
    classic = audit(POL.table(CLASSIC), max_examples=10_000)  # the 17 types of the policy before ml_dtypes
    assert classic.commutative and classic.is_complete
    assert classic.triples == 17 ** 3 and classic.non_associative == 256
    assert (DType.int8, DType.uint8, DType.float16, DType.float32, DType.float16) in classic.associativity_examples
    assert not classic.is_lattice
    report = POL.audit()
    assert report.commutative and not report.is_complete and report.triples == 35 ** 3
    assert report.non_associative == 7216 and not report.associative and not report.is_lattice


def test_audit_of_the_dtypes_alone_finds_two_minimal_upper_bounds():
    report = audit(POL.table(NUMPY_DTYPES))
    assert report.non_associative == 28 and report.triples == 14 ** 3
    assert any("uint8 . int8 = int16 is not least: float16" in p for p in report.lattice_problems)


def test_registered_under_its_names():
    assert "numpy" in policies()
    assert policy("np") is POL and policy("NumPy") is POL


@pytest.mark.parametrize("d", NUMPY_DTYPES + NUMPY_ML_DTYPES, ids=str)
def test_sum_type_matches_np_sum(d):
    """bool and small NumPy integers sum in int64/uint64; ml_dtypes' types (int4 too) in themselves."""
    with np.errstate(all="ignore"):
        live = np.sum(np.ones(2, d.np_dtype)).dtype
    assert POL.op_types.sum(d) == DType.parse(live)


# ---------------------------------------------------------------- np.result_type's own n-ary rule, live

import itertools  # noqa: E402

import latticecast as lc  # noqa: E402

_PYTHON = (1, 1.0, 1j)


def test_result_type_matches_live_on_every_tuple_of_up_to_three_dtypes_and_python_scalars():
    """np.result_type over every 1-, 2- and 3-tuple of the policy's 32 dtypes and the three Python scalar
    types (44,135 calls), with the same arguments (dtypes and Python values) given to lc.result_type."""
    labels = [d.np_dtype for d in POL.dtypes] + list(_PYTHON)
    mismatches, count = [], 0
    for arity in (1, 2, 3):
        for combo in itertools.product(labels, repeat=arity):
            count += 1
            try:
                live = DType.parse(np.result_type(*combo))
            except TypeError:
                live = None
            try:
                mine = lc.result_type(*combo, policy=POL)
            except PromotionError:
                mine = None
            if live != mine:
                mismatches.append((combo, live, mine))
    assert mismatches == [] and count == 35 + 35 ** 2 + 35 ** 3


def test_result_type_reads_dtypes_before_values_as_numpy_does():
    """np.result_type's rule is order-sensitive, and it takes its dtype arguments first: with the dtypes
    uint8 and bfloat16 and a Python int, bfloat16; with a uint8 array instead of the dtype, the order is
    (bfloat16, uint8, int) and NumPy refuses."""
    bf16 = np.dtype(DType.bfloat16.np_dtype)
    assert DType.parse(np.result_type(np.dtype(np.uint8), 1, bf16)) is DType.bfloat16
    assert lc.result_type(np.dtype(np.uint8), 1, bf16, policy=POL) is DType.bfloat16
    with pytest.raises(TypeError):
        np.result_type(np.zeros(2, np.uint8), 1, bf16)
    with pytest.raises(PromotionError, match="np.result_type refuses them"):
        lc.result_type(np.zeros(2, np.uint8), 1, bf16, policy=POL)


NUMPY_SCALARS = [np.bool_(True), np.int8(1), np.int16(1), np.int32(1), np.int64(1), np.uint8(1), np.uint16(1),
                 np.uint32(1), np.uint64(1), np.float16(1), np.float32(1), np.float64(1), np.complex64(1),
                 np.complex128(1)]


def test_numpy_scalars_are_strong_nep50():
    """Every NumPy scalar type is a value of its own dtype (NEP 50), also the ones that subclass Python's
    float and complex: np.result_type and NumPy's + (on its own dtypes) against the policy."""
    bad = []
    for d in POL.dtypes:
        array = np.zeros(2, d.np_dtype)
        for s in NUMPY_SCALARS:
            try:
                live = DType.parse(np.result_type(array, s))
            except TypeError:
                live = None
            try:
                mine = lc.result_type(array, s, policy=POL)
            except PromotionError:
                mine = None
            if live != mine:
                bad.append((d, type(s).__name__, live, mine))
            if d in NUMPY_DTYPES:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    added = DType.parse((array + s).dtype)
                if added != POL.promote_types(d, POL.numpy_values.scalar_type(s)):
                    bad.append((d, type(s).__name__, "+", added))
    assert bad == []
    assert lc.result_type(np.float32(0), np.float64(0), policy=POL) is DType.float64  # not read as Python floats
    assert lc.result_type(np.complex64(0), np.complex128(0), policy=POL) is DType.complex128


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_ml_dtypes_arithmetic_with_python_scalars_is_numpys(op):
    """What NumPy's arithmetic gives for an ml_dtypes array and a Python scalar, both orders, live and as
    measured (numpy_ml_scalar_arithmetic.csv): the builder's and the pass's decision (op_rules)."""
    import operator

    from latticecast.evidence import measured_records
    from latticecast.promotion.op_rules import STABLEHLO, TRUE_DIVIDE, decide

    fn = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}[op]
    rule = TRUE_DIVIDE if op == "/" else STABLEHLO[{"+": "stablehlo.add", "-": "stablehlo.subtract",
                                                    "*": "stablehlo.multiply"}[op]]
    measured = {(r["dtype"], r["scalar"]): r for r in measured_records("numpy_ml_scalar_arithmetic").rows
                if r["op"] == op}
    bad, checked = [], 0
    for d in ML:
        for name, s in (("bool", True), ("int", 1), ("float", 1.0), ("complex", 1j)):
            t = POL.literals.type_of(s)
            for order in (0, 1):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        array = np.ones(2, d.np_dtype)
                        live = DType.parse((fn(array, s) if order == 0 else fn(s, array)).dtype).name
                    except TypeError:
                        live = "-"
                try:
                    mine = decide(POL, rule, [d, t] if order == 0 else [t, d]).result.name
                except (PromotionError, DomainError):
                    mine = "-"
                recorded = measured[(d.name, name)]["array op scalar" if order == 0 else "scalar op array"]
                if not live == mine == recorded:
                    bad.append((d, name, order, live, mine, recorded))
                checked += 1
    assert bad == [] and checked == 18 * 4 * 2
    assert decide(POL, STABLEHLO["stablehlo.add"], [DType.bfloat16, weak(DType.float64)]).result is DType.float32
    assert DType.parse(np.result_type(np.ones(2, DType.bfloat16.np_dtype), 0.5)) is DType.float64  # not what + gives
