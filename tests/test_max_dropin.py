"""MAX programs run under latticecast with only the import changed.

``tools/max_dropin_programs.py`` holds four programs written against MAX 26.7's ``max.graph`` as MAX's
documentation writes them (an MLP, layer norm, causal attention, an argmax classifier with a symbolic
batch). Here their two import lines become ``from latticecast.max import ...`` -- nothing else changes --
and their outputs are compared with what MAX computed for the same inputs
(``tests/data/max_dropin_reference.npz``, written by ``tools/run_max_dropin.py``).
"""

import math
import types
from pathlib import Path

import numpy as np
import pytest

import latticecast.max as lc_max
from latticecast import DType, TensorType

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tools" / "max_dropin_programs.py"
REFERENCE = Path(__file__).parent / "data" / "max_dropin_reference.npz"
MAX_IMPORTS = ("from max.dtype import DType\n", "from max.graph import DeviceRef, Graph, TensorType, ops\n")
LATTICECAST_IMPORT = "from latticecast.max import DType, DeviceRef, Graph, TensorType, ops\n"
TOLERANCE = {"rtol": 2e-6, "atol": 2e-6}  # float32 kernels that sum in another order



def _latticecast_programs() -> types.ModuleType:
    """The programs' module with the two MAX import lines replaced by one latticecast import."""
    source = PROGRAMS.read_text()
    for line in MAX_IMPORTS:
        assert source.count(line) == 1, f"{PROGRAMS} no longer imports {line.strip()!r} once"
    swapped = source.replace(MAX_IMPORTS[0], "").replace(MAX_IMPORTS[1], LATTICECAST_IMPORT)
    assert [a for a in source.splitlines() if a not in swapped.splitlines()] == [m.strip() for m in MAX_IMPORTS]
    module = types.ModuleType("max_dropin_programs_on_latticecast")
    module.__file__ = str(PROGRAMS)
    exec(compile(swapped, str(PROGRAMS), "exec"), module.__dict__)
    return module


PROGRAMS_ON_LATTICECAST = _latticecast_programs()
REFERENCE_ARRAYS = dict(np.load(REFERENCE))


def _io(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    ins = [REFERENCE_ARRAYS[f"{name}/in{i}"] for i in range(len(PROGRAMS_ON_LATTICECAST.INPUT_SHAPES[name]))]
    outs, j = [], 0
    while f"{name}/out{j}" in REFERENCE_ARRAYS:
        outs.append(REFERENCE_ARRAYS[f"{name}/out{j}"])
        j += 1
    return ins, outs


def _compare(got: list[np.ndarray], want: list[np.ndarray]) -> float:
    """Outputs equal MAX's in number, dtype and shape, and in value within float32 rounding; the largest
    absolute difference."""
    assert len(got) == len(want)
    worst = 0.0
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, **TOLERANCE)
            worst = max(worst, float(np.max(np.abs(g - w))))
        else:
            np.testing.assert_array_equal(g, w)
    return worst


@pytest.fixture(params=["default", "max", "jax"])
def policy(request, monkeypatch):
    """The programs name no policy: run them under latticecast.max's default (max-python) and, since they are
    float32 only (no promotion happens), under two other policies, which must not change a single output."""
    home = lc_max.graph.graph  # where Graph reads its default
    if request.param != "default":
        monkeypatch.setattr(home, "default_policy", lambda: request.param)
    return home.default_policy()


@pytest.mark.parametrize("name", ["mlp", "layernorm", "attention"])
def test_static_programs_match_max(name, policy):
    graph = PROGRAMS_ON_LATTICECAST.BUILDERS[name]()
    assert graph.policy.name == policy
    ins, want = _io(name)
    _compare(graph.compile()(*ins), want)


def test_the_default_policy_is_max_python():
    assert lc_max.default_policy() == lc_max.MAX_POLICY == "max-python"
    assert lc_max.Graph("g").policy.name == "max-python"
    assert lc_max.Graph("g", policy="jax").policy.name == "jax"


def test_the_argmax_program_builds_with_a_symbolic_batch():
    graph = PROGRAMS_ON_LATTICECAST.build_argmax()
    assert graph.input_types == (TensorType(DType.float32, ["batch", 10]),)
    assert graph.output_types == (TensorType(DType.int64, ["batch", 1]), TensorType(DType.float32, ["batch", 10]))
    assert "@main(%arg0: tensor<?x10xf32>) -> (tensor<?x1xi64>, tensor<?x10xf32>)" in graph.mlir()


def test_the_argmax_program_matches_max():
    ins, want = _io("argmax")
    _compare(PROGRAMS_ON_LATTICECAST.build_argmax().compile()(*ins), want)


def test_the_argmax_program_compiles_and_runs_at_any_batch():
    ins, want = _io("argmax")
    model = PROGRAMS_ON_LATTICECAST.build_argmax().compile()
    _compare(model(*ins), want)
    (logits,) = ins
    labels, probs = model(logits[:2])
    np.testing.assert_array_equal(labels, want[0][:2])


def test_the_programs_compute_what_they_say():
    """The reference itself, against NumPy (run_max_dropin.py checked it too, before writing it)."""
    (q, k, v), (out, weights) = _io("attention")
    s = q @ k.T / math.sqrt(q.shape[-1])
    s = np.where(np.tril(np.ones_like(s)) > 0, s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    np.testing.assert_allclose(weights, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out, w @ v, rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_max_itself_reproduces_the_reference(tmp_path):
    """With MAX installed (``pip install max==26.7.0``): the tool that wrote the reference writes it again."""
    pytest.importorskip("max.graph", reason="MAX is not installed")
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_max_dropin", ROOT / "tools" / "run_max_dropin.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    runner.main(str(tmp_path / "again.npz"))
    again = dict(np.load(tmp_path / "again.npz"))
    assert again.keys() == REFERENCE_ARRAYS.keys()
    for key, value in again.items():
        np.testing.assert_array_equal(value, REFERENCE_ARRAYS[key], err_msg=key)
