"""The dtype table's host facts (``promotion/dtype_facts.py``) are what the installed NumPy and
``ml_dtypes`` say, cell by cell, measured live by ``tools/measure_dtype_facts.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import measure_dtype_facts  # noqa: E402

from latticecast.promotion.dtype_facts import FACTS  # noqa: E402
from latticecast.promotion.dtypes import DType  # noqa: E402


def test_every_cell_is_what_the_live_libraries_say() -> None:
    assert measure_dtype_facts.differences() == []


@pytest.mark.parametrize("name", measure_dtype_facts.HOSTS)
def test_each_host_dtype_is_measured_and_kept(name: str) -> None:
    assert FACTS[name] == measure_dtype_facts.measure(name)


def test_every_dtype_is_stored_as_a_measured_host_dtype() -> None:
    for d in DType:
        assert d.info.host_name in FACTS, d
        assert d.info.host.itemsize == d.itemsize == FACTS[d.info.host_name].itemsize, d


def test_the_check_names_a_cell_that_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fact that the libraries no longer give is reported by name, with both values."""
    wrong = dict(FACTS, float8_e4m3fn=FACTS["float8_e4m3fn"]._replace(max_finite=447.0))
    monkeypatch.setattr("latticecast.promotion.dtype_facts.FACTS", wrong)
    assert measure_dtype_facts.differences() == [
        "float8_e4m3fn.max_finite: the file says 447.0, the installed libraries 448.0"]


def test_the_dtype_table_loads_without_ml_dtypes() -> None:
    """ml_dtypes loads when a host dtype itself is asked for, not with the table (start-up)."""
    code = ("import sys\nfrom latticecast.promotion.dtypes import DType\n"
            "assert DType.parse('bf16') is DType.bfloat16 and DType.float8_e4m3fn.info.max_finite == 448.0\n"
            "assert 'ml_dtypes' not in sys.modules\n"
            "assert str(DType.bfloat16.np_dtype) == 'bfloat16' and 'ml_dtypes' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)

