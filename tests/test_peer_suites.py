"""The peers' own promotion tests (tools/peer_suites.py), and the harness's own parts.

With the checkouts named by environment variables, each peer suite runs against latticecast and
must agree in every cell latticecast can express, naming why for every other:

* ``LATTICECAST_JAX_CHECKOUT``: jax-ml/jax (``tests/dtypes_test.py``, x64 off and on; needs absl-py);
* ``LATTICECAST_NUMPY_CHECKOUT``: numpy/numpy (its promotion tests);
* ``LATTICECAST_ARRAY_API_TESTS_CHECKOUT`` and ``LATTICECAST_ARRAY_API_CHECKOUT``: data-apis/array-api-tests
  and the standard's repository it reads signatures from (needs ndindex);
* ``LATTICECAST_PYTORCH_CHECKOUT``: a PyTorch checkout, or its ``test/test_type_promotion.py``, run in the
  interpreter that has torch (this one, or ``LATTICECAST_TORCH_PYTHON``).

A checkout may be a work tree or a git directory (``fetch`` brings bare ones). Without them these
tests skip; the harness's parts are tested below on a peer test file written here.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import peer_suites as suites  # noqa: E402

EXPRESSIBLE_GAPS = {
    "jax": ("strict promotion with x64 off",),
    "numpy": ("dtype metadata", "NumPy's strings", "NumPy's bytes", "NumPy's object", "NumPy's timedelta64",
              "NumPy's datetime64", "NumPy's structured", "NumPy's StringDType", "longdouble and clongdouble",
              "a Python int beyond 64 bits", "np.result_type(None)"),
    "array-api-tests": (),
    "torch": ("torch.set_default_dtype", "PyTorch's complex32", "PyTorch's answer is complex32", "a NumPy array"),
}
"""The kinds of cell each suite has that latticecast cannot express, by the start of the reason given."""


def _checkout(var: str) -> Path:
    value = os.environ.get(var)
    if not value:
        pytest.skip(f"set {var} to a checkout (or git directory) of the peer's repository to run its own tests")
    return Path(value)


def _summaries(suite: str, args: argparse.Namespace) -> list[suites.Summary]:
    out = []
    for run in suites.SUITES[suite](args):
        out.append(suites.summarize(run.label, suites.run(suite, run, examples=200)))
    return out


def _judge(suite: str, summaries: list[suites.Summary]) -> None:
    for s in summaries:
        assert s.asking > 0 and s.agree > 0, s.text()
        assert s.disagree == 0, s.text()
        assert s.errors == [], s.text()
        unknown = [why for why in s.reasons if not why.startswith(EXPRESSIBLE_GAPS[suite])]
        assert unknown == [], s.text()


def test_jax_dtypes_test() -> None:
    checkout = _checkout("LATTICECAST_JAX_CHECKOUT")
    pytest.importorskip("absl", reason="JAX's tests need absl-py: pip install absl-py")
    _judge("jax", _summaries("jax", argparse.Namespace(checkout=checkout, ref=None)))


def test_numpy_promotion_tests() -> None:
    checkout = _checkout("LATTICECAST_NUMPY_CHECKOUT")
    _judge("numpy", _summaries("numpy", argparse.Namespace(checkout=checkout, ref=None)))


def test_array_api_tests_result_type() -> None:
    checkout = _checkout("LATTICECAST_ARRAY_API_TESTS_CHECKOUT")
    spec = _checkout("LATTICECAST_ARRAY_API_CHECKOUT")
    pytest.importorskip("ndindex", reason="array-api-tests needs ndindex: pip install ndindex")
    _judge("array-api-tests", _summaries("array-api-tests",
                                         argparse.Namespace(checkout=checkout, spec=spec, ref=None)))


def test_pytorch_type_promotion_tests() -> None:
    checkout = _checkout("LATTICECAST_PYTORCH_CHECKOUT")
    from conftest import library_python

    os.environ.setdefault("LATTICECAST_TORCH_PYTHON", library_python("torch", "LATTICECAST_TORCH_PYTHON"))
    _judge("torch", _summaries("torch", argparse.Namespace(checkout=checkout, ref=None)))


# -- the harness, on a peer test file written here ------------------------------------------------------

PEER_TEST = '''
import numpy as np
import pytest


def test_agrees():
    assert np.result_type(np.int16, np.uint16, np.float16) == np.float32   # not a fold: float64 folded
    assert np.promote_types("i1", "u1") == np.int16


def test_disagrees():
    assert np.result_type(np.int8, 1.0) == np.int8    # a wrong expectation: NumPy says float64
    assert np.result_type(np.int8, np.int8) == np.int8   # the test goes on after a failed assertion


def test_not_expressible():
    assert np.result_type(np.longdouble, np.float64) == np.longdouble


def test_refusal():
    with pytest.raises(TypeError):
        np.promote_types("int4", "uint8")


def test_asks_nothing():
    assert 1 + 1 == 2
'''


def test_the_harness_counts_cells_from_a_peers_own_assertions(tmp_path: Path) -> None:
    """A peer file in a plain directory: its expectations judge latticecast, a wrong one is caught, a
    longdouble is named as not expressible, and a test that asks no promotion counts for nothing."""
    (tmp_path / "peer").mkdir()
    (tmp_path / "peer" / "test_peer.py").write_text(PEER_TEST)
    checkout = suites.Checkout(tmp_path / "peer")
    run = suites.Run("made here", [(checkout, "test_peer.py", "p/test_peer.py")], ["p/test_peer.py"])
    records = {r["nodeid"].rsplit("::", 1)[1]: r for r in suites.run("numpy", run, examples=10)}
    assert (records["test_agrees"]["agree"], records["test_agrees"]["disagree"]) == (2, 0)
    assert (records["test_disagrees"]["agree"], records["test_disagrees"]["disagree"]) == (1, 1)
    assert "np.result_type(np.int8, 1.0) == np.int8" in records["test_disagrees"]["failures"][0]
    assert records["test_not_expressible"]["inexpressible"] == 1
    assert any("longdouble" in why for why in records["test_not_expressible"]["reasons"])
    assert records["test_refusal"]["agree"] == 1
    assert records["test_asks_nothing"]["asked"] == 0
    summary = suites.summarize("made here", list(records.values()))
    assert (summary.tests, summary.asking, summary.agree, summary.disagree, summary.inexpressible) == (5, 4, 4, 1, 1)
    assert "DISAGREES" in summary.text()


def test_a_checkout_is_read_from_its_git_directory_at_a_tag(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                       env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                            "GIT_COMMITTER_EMAIL": "t@t"})

    git("init", "-q")
    (repo / "f.txt").write_text("one")
    git("add", "f.txt")
    git("commit", "-qm", "one")
    git("tag", "v2.4.1")
    (repo / "f.txt").write_text("two")
    git("commit", "-qam", "two")
    git("tag", "v2.4.3")
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    checkout = suites.Checkout(bare)
    assert checkout.git == bare.resolve()
    assert suites.matching_ref(checkout, "v", "2.4.1") == "v2.4.1"
    assert suites.matching_ref(checkout, "v", "2.4.2") == "v2.4.1"  # the newest of 2.4 not after it
    assert suites.matching_ref(checkout, "v", "2.5.0") == "HEAD"
    checkout.ref = "v2.4.1"
    assert checkout.read("f.txt") == b"one"
    checkout.ref = "HEAD"
    assert checkout.read("f.txt") == b"two"
    with pytest.raises(SystemExit, match="not in"):
        checkout.read("missing.txt")
    with pytest.raises(SystemExit, match="no such checkout"):
        suites.Checkout(tmp_path / "nowhere")


def test_the_soft_assert_rewrite_keeps_going_and_names_the_line() -> None:
    import ast

    import peer_standins

    source = textwrap.dedent('''
        def f(x):
            assert x == 1, "x is " + str(x)
            assert x > 0
            return "went on"
    ''')
    tree = ast.fix_missing_locations(peer_standins._AssertRewriter("peer_file.py").visit(ast.parse(source)))
    seen: list[tuple[bool, str]] = []
    namespace = {"__peer_check__": lambda ok, msg, where: seen.append((bool(ok), where + (msg() if msg else "")))}
    exec(compile(tree, "peer_file.py", "exec"), namespace)
    assert namespace["f"](2) == "went on"
    assert seen == [(False, "peer_file.py:3: x == 1x is 2"), (True, "peer_file.py:4: x > 0")]
