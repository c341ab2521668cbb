"""The public faces type-check as a user's code does (issue 27): mypy over snippets written as the
docs write them, with what each name is (``assert_type``) and what must be refused; and over the graph,
runtime and engine examples of README.md and docs/*.rst, taken from the files as they are written."""

from __future__ import annotations

import ast
import builtins
import doctest
import re
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
from latticecast.dialect_utils.diagnostics import Diagnostic
from latticecast.passes import LiftOptions, LossyLevel, LowerDTypesOptions, MLIRPass, Pipeline, PipelineResult

options = ImplicitCastOptions(policy="max", diagnose_lossy="warning")   # the documented form
assert_type(options.policy, Policy)
assert_type(options.diagnose_lossy, LossyLevel)
assert_type(ImplicitCastOptions(policy=lc.policy("torch")).policy, Policy)
assert_type(LiftOptions(policy="torch").policy, Policy)
assert_type(lc.PassFailure("x", []).diagnostics, list[str])
assert_type(lc.PassFailure("x", []).located, list[Diagnostic])
assert_type(ImplicitCastOptions.parse("policy=torch"), ImplicitCastOptions)   # parse keeps the class
assert_type(LowerDTypesOptions.read_option("everywhere", None), LowerDTypesOptions)
pipeline = Pipeline((options, MLIRPass("cse")))
assert_type(pipeline.pass_names, tuple[str, ...])
result = lc.run_pipeline("module {}", pipeline)
assert_type(result, PipelineResult)               # one answer for text and for a module
assert_type(result.diagnostics, list[Diagnostic])
"""

REFUSED = """
from latticecast import ImplicitCastOptions
ImplicitCastOptions(policy=3)
ImplicitCastOptions(lower_dtypes="yes")
import latticecast as lc
lc.run_pipeline("module {}").no_such_field
"""


def _mypy(tmp_path: Path, code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "user.py"
    path.write_text(textwrap.dedent(code))
    return _run_mypy(tmp_path, [path], "--strict", *flags)


def _run_mypy(tmp_path: Path, paths: list[Path], *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *flags, "--no-incremental", "--cache-dir",
                           str(tmp_path / "cache"), "--follow-imports=silent", *map(str, paths)],
                          capture_output=True, text=True, timeout=600)


def test_the_documented_options_type_check_as_user_code(tmp_path: Path) -> None:
    proc = _mypy(tmp_path, USER_CODE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_wrong_options_are_refused_by_the_type_checker(tmp_path: Path) -> None:
    proc = _mypy(tmp_path, REFUSED)
    assert proc.returncode == 1
    assert all(f"user.py:{n}: error" in proc.stdout for n in (3, 4, 6)), proc.stdout


# -- the graph, the runtime and the engine ---------------------------------------------------------------

GRAPH_FACES = """
from typing import assert_type

import jax
import numpy as np
import latticecast as lc
from latticecast import DType, Graph, TensorType, Value, ops
from latticecast.graph.value import BufferValue
from latticecast.max.driver import CPU, Buffer
from latticecast.max.engine import InferenceSession, Model as LoadedModel
from latticecast.runtime import Model, PolymorphicModel

with Graph("mixed", input_types=[TensorType(DType.int16, [4]), TensorType(DType.float32, [4])], policy="jax") as g:
    x, y = g.inputs
    assert_type(g.inputs, tuple[Value, ...])
    assert_type(x * 2 + y, Value)
    assert_type(2 * x, Value)
    assert_type(x[1:], Value)
    assert_type(x.tensor, Value)
    assert_type(x.buffer, BufferValue)
    assert_type(ops.add(x, y), Value)
    assert_type(ops.cast(x, DType.float32), Value)
    assert_type(ops.reshape(x, [2, 2]), Value)
    assert_type(ops.constant(1.0, DType.float32), Value)
    assert_type(g.constant(np.ones(4, np.float32)), Value)
    assert_type(ops.top_k(y, 2), tuple[Value, Value])
    g.output(x * 2 + y)
model = g.compile()
assert_type(model, Model | PolymorphicModel)
assert_type(g.compile("cpu"), Model | PolymorphicModel)
assert_type(model(np.ones(4, np.int16), np.ones(4, np.float32)), list[np.ndarray])
assert_type(model(np.ones(4, np.int16), [1.0, 2.0, 3.0, 4.0], return_arrays=True), list[jax.Array])
assert_type(lc.compile("func.func @main() { return }"), Model | PolymorphicModel)
static = lc.runtime.compile("func.func @main() { return }")
if isinstance(static, Model):
    assert_type(static.devices, tuple[jax.Device, ...])
    assert_type(static.input_shardings, tuple[jax.sharding.Sharding, ...])
    assert_type(static.dispatch, str)

session = InferenceSession(devices=[CPU()])
loaded = session.load(g, weights_registry={"w": np.ones(2, np.float32)})
assert_type(loaded, LoadedModel)
assert_type(loaded.execute(np.ones(4, np.int16), np.ones(4, np.float32)), list[Buffer])
assert_type(loaded(np.ones(4, np.int16), Buffer.from_numpy(np.ones(4, np.float32))), list[Buffer])
assert_type(loaded.execute(np.ones(4, np.int16), np.ones(4, np.float32))[0].to_numpy(), np.ndarray)
"""

GRAPH_REFUSED = """
import numpy as np
from latticecast import DType, Graph, TensorType
from latticecast.max.engine import InferenceSession

with Graph("g", input_types=[TensorType(DType.float32, [2])]) as g:
    g.inputs[0].no_such_attribute
    g.output(g.inputs[0].no_such_method())
g.compile().no_such_method()
g.compile()(np.ones(2, np.float32))[0].no_such_array_method()
InferenceSession().load(g).no_such_method()
InferenceSession().load("model.mef")
"""


def test_graph_runtime_and_engine_faces_are_precise(tmp_path: Path) -> None:
    proc = _mypy(tmp_path, GRAPH_FACES)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_wrong_uses_of_the_graph_and_engine_are_refused(tmp_path: Path) -> None:
    """``g.compile().no_such_method()`` is an error now (``compile()`` returned ``Any``), and so is every
    line here; each is reported on its own line."""
    proc = _mypy(tmp_path, GRAPH_REFUSED)
    assert proc.returncode == 1, proc.stdout
    lines = {int(m) for m in re.findall(r"user\.py:(\d+): error", proc.stdout)}
    wrong = [i + 1 for i, line in enumerate(textwrap.dedent(GRAPH_REFUSED).splitlines())
             if line.strip() and not line.startswith(("import", "from", "with"))]
    assert lines == set(wrong), proc.stdout


ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.rst"))]
ABOUT_GRAPHS = re.compile(r"\bGraph\(|InferenceSession|\blc\.compile\(|\.compile\(\)")
"""An example about the graph, the runtime or the engine: it builds a graph, compiles, or loads."""

LEFT_OUT = {"ir_guide": "its module is jax's `lowered.compiler_ir(...)`, which jax types `Any | None`: the "
                        "example's errors are about jax's face, not latticecast's",
            "policy_guide": "its one Python block is a fragment (a `...` body; `lc`, `Graph` come from the prose)"}

EXPECTED = {
    ("sharding", 'Item "PolymorphicModel" of "Model | PolymorphicModel" has no attribute "devices"'),
    ("sharding", 'Item "PolymorphicModel" of "Model | PolymorphicModel" has no attribute "input_shardings"'),
    ("sharding", 'Item "PolymorphicModel" of "Model | PolymorphicModel" has no attribute "executable"'),
}
"""What mypy says of the examples as they are written. ``lc.compile(text)`` cannot know before reading the
text whether ``@main`` has dynamic dimensions, so it is typed ``Model | PolymorphicModel``; an example that
asks a model for what only a :class:`~latticecast.runtime.Model` has (its devices, shardings, executable)
needs ``isinstance(model, Model)`` first in checked code."""


def _snippets(path: Path) -> list[tuple[int, str]]:
    """The Python of a document, in order, with its line: README's fenced blocks; an rst file's
    ``code-block:: python`` blocks and its doctests (one snippet per run of ``>>>`` examples)."""
    text = path.read_text()
    if path.suffix == ".md":
        return [(text.count("\n", 0, m.start()) + 2, m.group(1))
                for m in re.finditer(r"```python\n(.*?)```", text, re.S)]
    lines = text.splitlines()
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == ".. code-block:: python":
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or lines[j].lstrip().startswith(":")):
                j += 1
            start, body = j, []
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith((" ", "\t"))):
                body.append(lines[j])
                j += 1
            out.append((start + 1, textwrap.dedent("\n".join(body))))
            i = j
        else:
            i += 1
    run: list[str] = []
    run_line = 0
    for part in doctest.DocTestParser().parse(text):
        if isinstance(part, doctest.Example):
            run_line = run_line or part.lineno + 1
            run.append(part.source)
        elif part.strip() and run:  # prose ends a run of examples
            out.append((run_line, "".join(run)))
            run, run_line = [], 0
    if run:
        out.append((run_line, "".join(run)))
    return sorted(out)


def _free_names(code: str) -> set[str]:
    """The names a snippet reads and neither defines nor imports (nor are builtins)."""
    tree = ast.parse(code)
    defined = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            defined.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - defined


def _examples() -> dict[str, str]:
    """Each document's examples as user modules: a snippet that reads names it does not define continues
    the one before it (as the document reads), any other starts a module. Only modules about graphs are
    kept."""
    modules: dict[str, str] = {}
    for path in DOCUMENTS:
        if path.stem in LEFT_OUT:
            continue
        chains: list[tuple[str, list[str]]] = []
        for line, code in _snippets(path):
            if not chains or not _free_names(code):
                chains.append((f"{path.stem.replace('-', '_')}_line{line}", []))
            chains[-1][1].append(code)
        modules.update({name: "\n".join(parts) for name, parts in chains if ABOUT_GRAPHS.search("\n".join(parts))})
    return modules


def test_the_documented_graph_and_engine_examples_type_check(tmp_path: Path) -> None:
    """README's quick start and every example of docs/*.rst that builds a graph, compiles or loads one,
    checked by mypy as user code is: only :data:`EXPECTED` is said of them."""
    examples = _examples()
    assert {"README", "builder", "index", "runtime", "sharding", "guide"} <= {n.split("_line")[0] for n in examples}
    paths = []
    for name, code in examples.items():
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(code)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")  # mypy's defaults, as a user's project has them (not this one's strict)
    proc = _run_mypy(tmp_path, paths, "--config-file", str(config), "--allow-redefinition")
    said = {(name.split("_line")[0], message) for name, message in
            re.findall(r"(\w+)\.py:\d+: error: (.*?)  \[", proc.stdout)}
    assert said == EXPECTED, proc.stdout
