"""StableHLO's own test suite as a check (tools/stablehlo_suite.py), and the harness's own parts.

With ``LATTICECAST_STABLEHLO_CHECKOUT`` pointing to a checkout of openxla/stablehlo, the
whole suite runs: every chunk that jaxlib accepts comes back unchanged under policies jax,
max and numpy, no chunk kills the process or raises a traceback, and every interpreter test
either passes through ``latticecast.compile`` or fails exactly as plain XLA fails (or is
refused because XLA would crash on it). Without one, those tests skip; the harness's own
parts (turning a test function into a program, the comparisons) are tested on programs
written here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import stablehlo_suite as suite  # noqa: E402

CHECKOUT = os.environ.get("LATTICECAST_STABLEHLO_CHECKOUT")
needs_checkout = pytest.mark.skipif(
    not CHECKOUT or not (Path(CHECKOUT) / suite.TESTS).is_dir(),
    reason="set LATTICECAST_STABLEHLO_CHECKOUT to a checkout of openxla/stablehlo to run its test suite")


# -- the harness, on programs written here ----------------------------------------------------------

TEST_FUNCTION = """
func.func @helper() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[0.5, 4.0]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @halves_and_sums() {
  %x = func.call @helper() : () -> tensor<2xf32>
  %s = stablehlo.add %x, %x : tensor<2xf32>
  %n = stablehlo.constant dense<[3, -7]> : tensor<2xi8>
  check.expect_almost_eq_const %s, dense<[1.0,
                                          8.00001]> : tensor<2xf32>  // within the default 1e-4
  check.expect_eq_const %n, dense<[3, -7]> : tensor<2xi8>
  check.expect_close %s, %s, max_ulp_difference = 0 : tensor<2xf32>, tensor<2xf32>
  func.return
}
"""


def test_a_test_function_becomes_a_main_returning_what_it_checks() -> None:
    import latticecast as lc

    ((name, program, checks),) = list(suite.programs_of(TEST_FUNCTION))
    assert name == "halves_and_sums"
    assert "check." not in program
    assert "func.func @main() -> (tensor<2xf32>, tensor<2xi8>, tensor<2xf32>, tensor<2xf32>)" in program
    assert [c["kind"] for c in checks] == ["expect_almost_eq_const", "expect_eq_const", "expect_close"]
    outputs = list(lc.compile(program)())
    worker = suite._Worker()
    expected = [suite._expected_values(c, worker.strict) if c["const"] is not None else None for c in checks]
    assert suite._judge(checks, outputs, expected) == "pass"
    outputs[1] = np.array([3, -8], np.int8)
    assert suite._judge(checks, outputs, expected).startswith("expect_eq_const: 1 of 2 elements differ")


def test_interpreter_only_programs_are_skipped_with_the_reason() -> None:
    text = """func.func @main() {
      %a = stablehlo.constant dense<1> : tensor<i64>
      %r = "interpreter.run_parallel"(%a) {programs = [[@f]]} : (tensor<i64>) -> tensor<i64>
      check.expect_eq_const %r, dense<1> : tensor<i64>
      func.return
    }"""
    ((_, program, reason),) = list(suite.programs_of(text))
    assert program == "" and "interpreter.run_parallel" in str(reason)


def test_ulp_difference_is_stablehlos() -> None:
    one = np.array([1.0], np.float32)
    next_up = np.nextafter(one, np.float32(2))
    assert suite._ulp(one, next_up)[0] == 1
    assert suite._ulp(np.array([-0.0], np.float32), np.array([0.0], np.float32))[0] == 0
    assert suite._ulp(np.array([np.nan], np.float32), np.array([np.nan], np.float32))[0] == 0
    assert suite._ulp(np.array([np.inf], np.float32), np.array([1.0], np.float32))[0] == 2**64 - 1
    tiny = np.array([1e-45], np.float32)
    assert suite._ulp(tiny, -tiny)[0] == 2


# -- the suite itself ----------------------------------------------------------------------------


@needs_checkout
def test_every_legal_chunk_is_unchanged_and_nothing_crashes() -> None:
    pool = suite.Pool()
    try:
        result = suite.run_invariance(Path(CHECKOUT), list(suite.DEFAULT_POLICIES), pool, None, open(os.devnull, "w"))
    finally:
        pool.close()
    counts = result["counts"]
    bad = {k: v for k, v in counts.items()
           if k.startswith(("legal, rejected", "legal, changed", "legal, not reproduced", "latticecast killed",
                            "traceback", "not legal, first error on another line"))}
    assert not bad, "\n".join([str(bad), *result["problems"][:40]])
    assert counts["legal"] > 800 and counts["legal"] == counts["legal, unchanged under every policy"]


@needs_checkout
def test_interpreter_tests_pass_or_fail_as_plain_xla_does() -> None:
    pool = suite.Pool()
    try:
        result = suite.run_interpret(Path(CHECKOUT), pool, None, open(os.devnull, "w"))
    finally:
        pool.close()
    counts = result["counts"]
    ours = [row for row in result["rows"]
            if row[1].startswith(("latticecast killed", "refused, but", "error, but", "wrong (latticecast)", "harness"))]
    assert not ours, "\n".join(f"{w}: {label}: {why[:300]}" for w, label, why in ours)
    assert counts["pass"] > 400
