"""The public faces type-check as a user's code does (issue 27): mypy over snippets written as the
docs write them, with what each name is (``assert_type``) and what must be refused."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy")

USER_CODE = """
from typing import assert_type

import latticecast as lc
from latticecast import ImplicitCastOptions, Policy
from latticecast.passes import LiftOptions, LossyLevel

options = ImplicitCastOptions(policy="max", diagnose_lossy="warning")   # the documented form
assert_type(options.policy, Policy)
assert_type(options.diagnose_lossy, LossyLevel)
assert_type(ImplicitCastOptions(policy=lc.policy("torch")).policy, Policy)
assert_type(LiftOptions(policy="torch").policy, Policy)
assert_type(lc.PassFailure("x", []).diagnostics, list[str])
"""

REFUSED = """
from latticecast import ImplicitCastOptions
ImplicitCastOptions(policy=3)
ImplicitCastOptions(lower_dtypes="yes")
"""


def _mypy(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "user.py"
    path.write_text(textwrap.dedent(code))
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir",
                           str(tmp_path / "cache"), "--follow-imports=silent", str(path)],
                          capture_output=True, text=True, timeout=600)


def test_the_documented_options_type_check_as_user_code(tmp_path: Path) -> None:
    proc = _mypy(tmp_path, USER_CODE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_wrong_options_are_refused_by_the_type_checker(tmp_path: Path) -> None:
    proc = _mypy(tmp_path, REFUSED)
    assert proc.returncode == 1
    assert "user.py:3: error" in proc.stdout and "user.py:4: error" in proc.stdout, proc.stdout
