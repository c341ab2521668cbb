"""The ``array-api`` policy: the Array API standard as published (2024.12), against array-api-strict.

The measured table (``tools/measure_array_api_promotion.py``) is compared cell by cell here; where
array-api-strict is installed (in this interpreter, or the one ``LATTICECAST_ARRAY_API_STRICT_PYTHON``
names), the same tool runs live and every pair (``result_type`` and ``+``), every 3-tuple of dtypes and
Python scalars, and every NumPy scalar type is compared. The seed's proposal is ``array-api-proposal``
(tests/test_policy_seeds.py).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import latticecast as lc
from latticecast import DType, DomainError, PromotionError, policy, weak
from latticecast.evidence import evidence, measured_table
from latticecast.promotion.weak import PType, Weak
from conftest import library_python

POL = policy("array-api")
TOOL = Path(__file__).resolve().parent.parent / "tools" / "measure_array_api_promotion.py"
SCALARS = {"b*": True, "i*": 1, "f*": 1.0, "c*": 1j}


def test_the_standards_dtypes_and_lattice():
    assert [d.name for d in POL.dtypes] == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                            "uint64", "float32", "float64", "complex64", "complex128"]
    assert POL.promote_types(DType.complex64, DType.complex128) is DType.complex128
    assert POL.promote_types(DType.float64, DType.complex64) is DType.complex128
    assert POL.promote_types(DType.float32, DType.complex64) is DType.complex64
    assert POL.promote_types(DType.uint32, DType.int8) is DType.int64
    assert POL.audit().commutative and POL.lattice is not None
    with pytest.raises(PromotionError, match="float16 is not a dtype of policy 'array-api'.*array-api-proposal"):
        POL.promote_types(DType.float16, DType.float32)


@pytest.mark.parametrize("a, b, why", [
    (DType.int32, DType.float32, "between kinds unspecified"),
    (DType.int64, DType.uint64, "64-bit promotion unspecified"),
    (DType.bool, DType.int8, "between kinds unspecified"),
    (DType.int8, DType.complex64, "between kinds unspecified"),
])
def test_what_the_standard_leaves_unspecified_is_refused(a, b, why):
    with pytest.raises(PromotionError, match=why):
        POL.promote_types(a, b)


def test_python_scalars_follow_the_standard():
    i, f, c, b = weak("int64"), weak("float64"), weak("complex128"), weak("bool")
    assert POL.promote_types(i, DType.uint8) is DType.uint8
    assert POL.promote_types(i, DType.complex64) is DType.complex64
    assert POL.promote_types(c, DType.float32) is DType.complex64      # the complex dtype of float32's precision
    assert POL.promote_types(c, DType.float64) is DType.complex128
    assert POL.promote_types(b, DType.bool) is DType.bool
    for refused in ((f, DType.int8), (c, DType.int64), (b, DType.int8), (i, DType.bool), (i, f)):
        with pytest.raises(PromotionError):
            POL.promote_types(*refused)
    with pytest.raises(DomainError, match="implementation-defined"):
        POL.op_types.true_divide(DType.int32)


def test_result_type_promotes_the_arrays_then_each_scalar():
    assert lc.result_type(np.ones(2, np.float32), 1j, 1.0, policy=POL) is DType.complex64
    assert lc.result_type(DType.uint8, DType.int8, 1, policy=POL) is DType.int16
    with pytest.raises(PromotionError, match="give at least one array or dtype"):
        lc.result_type(1, 2.0, policy=POL)
    with pytest.raises(PromotionError):
        lc.result_type(DType.int8, 1.0, policy=POL)


def test_numpy_scalars_are_refused_in_ops_and_taken_by_result_type_where_array_api_strict_takes_them():
    with pytest.raises(PromotionError, match="Expected Array or Python scalar"):
        POL.numpy_values.scalar_type(np.float32(1))
    assert lc.result_type(np.ones(2, np.float32), np.float64(1), policy=POL) is DType.float32   # a float subclass
    with pytest.raises(PromotionError, match="no value of the Array API standard"):
        lc.result_type(np.ones(2, np.float32), np.float32(1), policy=POL)


def test_evidence_is_the_measured_table_and_matches_it_in_every_cell():
    (title,) = evidence(POL).measured
    assert "array-api-strict" in title and "2024.12" in title
    table = measured_table("array_api_strict_result_type")
    assert len(table.cells) == 17 * 17
    assert [(a, b, live) for (a, b), live in table.cells.items() if POL.try_promote(a, b) != live] == []
    assert evidence("array-api-proposal").published  # the seed's tables stay with the proposal


# -- live array-api-strict -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def live() -> dict[str, Any]:
    python = library_python("array_api_strict", "LATTICECAST_ARRAY_API_STRICT_PYTHON")
    proc = subprocess.run([python, str(TOOL), "--json"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    found: dict[str, Any] = json.loads(proc.stdout)
    return found


def _type(label: str) -> PType:
    return POL.literals.type_of(SCALARS[label]) if label in SCALARS else DType.parse(label)


def _value(label: str) -> Any:
    return SCALARS[label] if label in SCALARS else np.zeros(2, DType.parse(label).np_dtype)


def _mine(*labels: str) -> str | None:
    try:
        found = lc.result_type(*(_value(x) for x in labels), policy=POL)
    except PromotionError:
        return None
    assert not isinstance(found, Weak)
    return found.name


def test_live_version_and_revision(live):
    assert live["api_version"] == "2024.12" and live["version"].split(".")[0] == "2"


def test_every_pair_matches_live_result_type_and_the_operator(live):
    mismatches = []
    for key, cell in live["pairs"].items():
        a, b = key.split(",")
        mine = _mine(a, b)
        if mine != cell["result_type"]:
            mismatches.append((key, "result_type", cell["result_type"], mine))
        added = cell["+"]
        op_refused = a in SCALARS and b in SCALARS or "bool" in (a, b) or "b*" in (a, b)  # + needs numeric dtypes
        if not op_refused and added != mine:
            mismatches.append((key, "+", added, mine))
    assert mismatches == [] and len(live["pairs"]) == 17 * 17


def test_every_triple_matches_live_result_type(live):
    mismatches = [(key, theirs, _mine(*key.split(","))) for key, theirs in live["triples"].items()
                  if _mine(*key.split(",")) != theirs]
    assert mismatches == [] and len(live["triples"]) == 17 ** 3


def test_every_numpy_scalar_type_as_array_api_strict_takes_it(live):
    """Operators and xp.add refuse every NumPy scalar; result_type takes the two that subclass a Python
    scalar type (np.float64, np.complex128) as that Python scalar. (``np.float32(1) + array`` is NumPy's
    own operator, which turns the array into a NumPy array: not the standard's.)"""
    mismatches = []
    for key, cell in live["numpy_scalars"].items():
        d, s = key.split(",")
        for how in ("array + scalar", "xp.add"):
            if cell[how] is not None:
                mismatches.append((key, how, cell[how]))
        value = np.dtype(s).type(1)
        try:
            mine = lc.result_type(np.zeros(2, DType.parse(d).np_dtype), value, policy=POL).name
        except PromotionError:
            mine = None
        if mine != cell["result_type"]:
            mismatches.append((key, "result_type", cell["result_type"], mine))
    assert mismatches == [] and len(live["numpy_scalars"]) == 16 * 13


def test_the_tool_runs_only_where_array_api_strict_is(tmp_path):
    python = library_python("array_api_strict", "LATTICECAST_ARRAY_API_STRICT_PYTHON")
    proc = subprocess.run([python, str(TOOL), str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    from latticecast.promotion.tables import PromotionTable

    live = PromotionTable.read(tmp_path / "array_api_strict_result_type.csv")
    assert live.cells == measured_table("array_api_strict_result_type", typed=False).cells
