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
    _check(targets.lift_and_compare(1, 1))


before_after = pytest.importorskip("before_after")
ROOT = Path(__file__).resolve().parent.parent


def test_before_after_measures_two_trees_and_removes_the_worktree(tmp_path) -> None:
    audit_and_chain = tuple(m for m in before_after.MEASURES if m.name.startswith(("audit", "literal chain")))
    assert len(audit_and_chain) == 2
    with before_after.checkout("HEAD") as before:
        assert (before / "latticecast" / "__init__.py").is_file() and before != ROOT / "src"
        results = list(before_after.compare(before, ROOT / "src", audit_and_chain, 1, 0.01, tmp_path / "unused"))
    assert not before.exists()  # the temporary worktree is gone
    assert [r.measure for r in results] == list(audit_and_chain)
    for r in results:
        assert len(r.before) == len(r.after) == 1 and min(r.before + r.after) > 0
        assert r.ratio == r.best_ratio == r.after[0] / r.before[0]


def test_before_after_refuses_an_unknown_revision_and_a_tree_it_does_not_import(tmp_path) -> None:
    with pytest.raises(SystemExit, match="'no-such-revision' is not a commit"):
        before_after.resolve("no-such-revision")
    (tmp_path / "src").mkdir()  # no latticecast here: the child would import another tree's
    audit = next(m for m in before_after.MEASURES if m.name.startswith("audit"))
    with pytest.raises(SystemExit, match="latticecast was imported from"):
        before_after.run(audit, tmp_path / "src", 0.01, tmp_path / "unused")
