"""The benchmarks run (tiny sizes, no timing asserted): ``python3 dev.py bench`` must not rot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

targets = pytest.importorskip("targets")


def _check(rows) -> None:
    for what, value, target, met in rows:
        assert what and value and isinstance(met, bool)


def test_the_chains_build_the_same_program_as_jax() -> None:
    _check(targets.chains_vs_jax(40, 1))
    _, _, ours = targets.build_latticecast(40, True)
    _, theirs = targets.lower_jax(40, True)
    # latticecast converts each input once, JAX converts at every op
    assert ours.count("stablehlo.convert") < theirs.count("stablehlo.convert")
    assert ours.count("stablehlo.multiply") == theirs.count("stablehlo.multiply") == 10


def test_the_other_measurements_run_at_a_small_size() -> None:
    _check(targets.pass_vs_cse(200, 1))
    _check(targets.audit_thousand(60))
    _check(targets.many_inputs(10, 20))
    _check(targets.million_literals(200))
