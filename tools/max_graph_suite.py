"""Run MAX's own graph tests (``max/tests/tests/graph`` of modular/modular) against ``latticecast.max``.

Usage::

    python tools/max_graph_suite.py CHECKOUT --out results.json [--real-max] [--baseline FILE]
                                    [--max-examples N] [--files F ...] [-- PYTEST ARGS]

``CHECKOUT`` is a directory holding ``max/tests/tests/graph`` (a work tree or ``git archive`` of
modular/modular; nothing of it is copied into latticecast). The tests run in a subprocess of this
Python under pytest with this file as a plugin (``-p max_graph_suite``) that installs a **shim that
only maps names** (:data:`MODULE_MAP`, :data:`NAME_MAP`): ``import max.graph`` gives a module whose
attributes are ``latticecast.max``'s, ``max.graph.ops`` is ``latticecast.ops``, and so on. A name the
target lacks is a :class:`MissingName` placeholder (a type, so MAX's ``conftest.py`` can still
register hypothesis strategies for it) whose every use raises :class:`MissingNameError`; that is
how each failing test's cause names what is missing.

``--real-max`` first runs the same files under real MAX (``--max-python``, default
``/work/venv-max/bin/python`` with ``max==26.7.0``, pytest and hypothesis) with the plugin recording
but no shim: the baseline. ``--baseline FILE`` reuses the baseline of an earlier ``--out`` file.

Tests that probe MAX internals are left out of the comparison by one rule (:func:`probes_internals`):
the test function's body, or a helper function of its module that the body calls, matches one of
:data:`INTERNAL_PATTERNS` (MLIR text, ``_mlir_op``, MAX's dialects, its kernel library, buffers ...) or uses
a name its module imports from MAX's internal modules (``max._core``, ``max.mlir``), or its file is in
:data:`INTERNAL_FILES`.

Printed and written to ``--out``: tests passed with MAX, of those not internal, passed here, the
percentage, and the failure causes (missing names with counts; other exceptions grouped by type
and first message line). Hypothesis tests run ``--max-examples`` examples (default 10) in both runs.
"""

from __future__ import annotations

import argparse
import ast
import collections
import functools
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any, Iterator, Sequence

SUITE = Path("max/tests/tests/graph")
"""Where MAX's graph tests live inside a modular/modular checkout."""

MAX_PYTHON = "/work/venv-max/bin/python"
"""The Python with real MAX 26.7 (``pip install max==26.7.0 pytest hypothesis``) for the baseline."""

MODULE_MAP: dict[str, tuple[str, ...]] = {
    "max": ("latticecast.max",),
    "max.graph": ("latticecast.max",),
    "max.graph.type": ("latticecast.max",),
    "max.graph.value": ("latticecast.max",),
    "max.graph.graph": ("latticecast.max",),
    "max.graph.weight": ("latticecast.max",),
    "max.graph.ops": ("latticecast.ops",),
    "max.dtype": ("latticecast.max",),
    "max.driver": ("latticecast.max.driver", "latticecast.driver"),
    "max.engine": ("latticecast.max.engine", "latticecast.engine"),
    "max.mlir": ("jaxlib.mlir.ir",),
    "max.graph.dtype_promotion": ("latticecast.max.dtype_promotion",),
    "max.graph.ops.random": ("latticecast.graph.ops.random",),
    "max.graph.ops.elementwise": ("latticecast.graph.ops.elementwise",),
    "max.graph.ops.reduction": ("latticecast.graph.ops.reduction",),
    "max.graph.ops.complex": ("latticecast.graph.ops.complex",),
    "max.graph.ops.irfft": ("latticecast.graph.ops.signal",),
    "max.nn": ("latticecast.max.nn",),
}
"""Each MAX module and the latticecast (or MLIR binding) modules its names come from, first importable
one wins. A ``max`` module not listed here (MAX's internals such as ``max._core.dialects``, and the parts of
MAX latticecast has no counterpart for, such as ``max.experimental``) maps to nothing: every name in it is a
:class:`MissingName`, so a test file that imports it at the top still collects and only the tests that use
its names fail, each with the missing name as its recorded cause."""

NAME_MAP: dict[str, str] = {
    "max._mlir_context.default_mlir_context": "max_graph_suite:current_default_context",
}
"""Single names mapped to a differently named object (``module:attribute``)."""


def current_default_context() -> Any:
    """What MAX's ``default_mlir_context()`` gives MAX's ``mlir_context`` fixture: the context graphs are
    built in, already current (MAX's is current once MAX is imported). Here: latticecast's default
    context, made current. The fixture's ``mlir.Location.unknown()`` needs a current context."""
    from latticecast.dialect_utils.context import default_context
    context = default_context()
    context.__enter__()
    return context

INTERNAL_PATTERNS: tuple[str, ...] = (
    r"_mlir_op", r"_mlir_value", r"\bmlir\.", r"\bmlir_context\b", r"\b_core\b", r"\._module\b",
    r"str\((graph|g)\)", r"\bkgen\b", r"\br?mo\.", r"_OpaqueType", r"\bkernel_library\b", r"KernelLibrary",
    r"custom_extensions", r"\bBuffer(Type|Value)\b", r"(?i)filecheck", r"\bdevice_chains\b", r"\b_Chain(Type|Value)\b",
)
"""Regular expressions: a test whose function *body* (its signature's fixtures do not count) matches
one probes MAX's IR, compiler or buffers, not its graph API (``device_chains`` and ``_ChainType`` are
the ``!mo.chain`` values MAX threads through its side-effecting ops)."""

INTERNAL_FILES: tuple[str, ...] = (
    "test_dialects.py", "test_debug.py", "test_uninit_check_e2e.py", "test_compile_init.py",
    "test_tensor_lifecycle.py", "test_buffer.py", "test_custom.py",
)
"""Files about MAX's compiler, dialects, Mojo kernels or buffers as a whole."""

RESULTS_ENV = "MAX_GRAPH_SUITE_RESULTS"
SHIM_ENV = "MAX_GRAPH_SUITE_SHIM"
EXAMPLES_ENV = "MAX_GRAPH_SUITE_MAX_EXAMPLES"


class MissingNameError(AttributeError):
    """A MAX name the shim has no latticecast object for was used."""


_collecting = True
"""True until pytest has collected the tests: a test module's top level (decorators, parametrize lists) may
call or reach into a missing name while it is imported. Then a placeholder gives a placeholder, so the module
collects and the tests that use the name fail when they run; once collection is done, every use raises."""


class _MissingMeta(type):
    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if _collecting:
            return missing(f"{cls.__qualname__}()")
        raise MissingNameError(f"missing name: {cls.__qualname__}")

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if _collecting:
            return missing(f"{cls.__qualname__}.{name}")
        raise MissingNameError(f"missing name: {cls.__qualname__}")

    def __instancecheck__(cls, obj: Any) -> bool:
        return False


class MissingName(metaclass=_MissingMeta):
    """Base of the placeholders the shim gives for names latticecast lacks."""


def missing(qualified: str) -> type:
    """A placeholder type for the MAX name ``qualified`` (``max.graph.ops.gather``)."""
    cls = _MissingMeta(qualified.rsplit(".", 1)[-1], (MissingName,), {})
    cls.__qualname__ = qualified
    return cls


def _import_first(candidates: Sequence[str]) -> types.ModuleType | None:
    for name in candidates:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


class ShimModule(types.ModuleType):
    """The module a MAX import gets: its attributes are the mapped modules' (or placeholders)."""

    def __init__(self, name: str, targets: Sequence[types.ModuleType]) -> None:
        super().__init__(name)
        self.__path__: list[str] = []  # a package, so `max.graph.ops` can be imported under it
        self._shim_targets = list(targets)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        qualified = f"{self.__name__}.{attr}"
        if qualified in NAME_MAP:
            module, _, name = NAME_MAP[qualified].partition(":")
            value = getattr(importlib.import_module(module), name)
        elif (found := self._target_attribute(attr)) is not None:
            value = found
        elif qualified in MODULE_MAP or any(key.startswith(qualified + ".") for key in MODULE_MAP):
            return importlib.import_module(qualified)
        else:
            value = missing(qualified)
        setattr(self, attr, value)
        return value

    def __setattr__(self, attr: str, value: Any) -> None:
        # Importing a submodule sets it on its parent; where the parent's name is a function of the same
        # name (MAX's `ops.irfft` beside its module `max.graph.ops.irfft`), the function stays, as in MAX.
        if isinstance(value, types.ModuleType) and (found := self._target_attribute(attr)) is not None:
            value = found
        super().__setattr__(attr, value)

    def _target_attribute(self, attr: str) -> Any:
        """The first mapped module's attribute ``attr`` that is not a module itself, else ``None``."""
        for target in self.__dict__.get("_shim_targets", ()):
            value = getattr(target, attr, None)
            if value is not None and not isinstance(value, types.ModuleType):
                return value
        return None


class ShimFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``sys.meta_path`` finder that answers ``max`` and ``max.*`` with :class:`ShimModule` s."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "max" and not fullname.startswith("max."):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: Any) -> types.ModuleType:
        targets = [m for m in [_import_first(MODULE_MAP.get(spec.name, ()))] if m is not None]
        return ShimModule(spec.name, targets)

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def install_shim() -> ShimFinder:
    """Put the shim first on ``sys.meta_path`` (any real ``max`` modules already imported are dropped)."""
    for name in [n for n in sys.modules if n == "max" or n.startswith("max.")]:
        del sys.modules[name]
    finder = ShimFinder()
    sys.meta_path.insert(0, finder)
    return finder


def uninstall_shim(finder: ShimFinder) -> None:
    """Undo :func:`install_shim` (for the unit test)."""
    sys.meta_path.remove(finder)
    for name in [n for n in sys.modules if n == "max" or n.startswith("max.")]:
        del sys.modules[name]


INTERNAL_MODULES = re.compile(r"^max\.(_core|_mlir\w*|mlir)(\.|$)")
"""MAX's internal modules: a name a test module imports from one of them is an internal name."""


def probes_internals(path: str, source: str, helpers: dict[str, str] | None = None,
                     internal_names: Sequence[str] = ()) -> str | None:
    """The rule that leaves a test out: the pattern (or file name) it matched, else ``None``.

    ``helpers`` maps the names of the test module's own top-level functions to their sources: a helper the
    test body calls (directly or through other helpers) counts as part of the body, so a test whose
    assertions live in ``assert_matmul_properties(graph)`` is judged by what that function reads.
    ``internal_names`` are the names the module imports from MAX's internal modules (:data:`INTERNAL_MODULES`,
    such as ``safe_open`` from ``max._core.safetensors``): a body that uses one probes internals."""
    if Path(path).name in INTERNAL_FILES:
        return Path(path).name
    body = _body(source)
    known = helpers or {}
    reached = _helpers_reached(body, known)
    for helper in reached:
        body += "\n" + _body(known[helper])
    found = next((p for p in INTERNAL_PATTERNS if re.search(p, body)), None)
    if found is None and internal_names:
        used = set().union(*(_names_used(text) for text in [source, *(known[h] for h in reached)]))
        found = next((name for name in internal_names if name in used), None)
    return found


def _names_used(source: str) -> set[str]:
    """The names a function's body reads (not its decorators, signature, or the text of its strings)."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return set()
    func = tree.body[0] if tree.body else None
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    return {node.id for stmt in func.body for node in ast.walk(stmt) if isinstance(node, ast.Name)}


def module_internal_names(tests_root: Path, path: str) -> list[str]:
    """The names a test module imports from MAX's internal modules (``from max._core.x import a as b``: ``b``)."""
    tree = _parsed(tests_root / path)
    names: list[str] = []
    for node in tree.body if tree is not None else ():
        if isinstance(node, ast.ImportFrom) and node.module and INTERNAL_MODULES.match(node.module):
            names += [alias.asname or alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            names += [alias.asname for alias in node.names if alias.asname and INTERNAL_MODULES.match(alias.name)]
    return names


def _helpers_reached(body: str, helpers: dict[str, str]) -> list[str]:
    """The helpers (names in ``helpers``) that ``body`` calls, and those they call, each once, in order."""
    reached: list[str] = []
    pending = [body]
    while pending:
        text = pending.pop()
        for name in helpers:
            if name not in reached and re.search(rf"\b{re.escape(name)}\s*\(", text):
                reached.append(name)
                pending.append(_body(helpers[name]))
    return reached


def _body(source: str) -> str:
    """A function's source without its decorators and signature."""
    text = textwrap.dedent(source)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return source
    func = tree.body[0] if tree.body else None
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or not func.body:
        return source
    return "\n".join(text.splitlines()[func.body[0].lineno - 1:])


_GROUPED = re.compile(r"^\s*\| ([\w.]*(?:Error|Exception|Exit)): (.*)$", re.MULTILINE)
"""A sub-exception's last line in an exception group's traceback (``| ValueError: ...``)."""

def first_in_group(traceback: str) -> str | None:
    """The first sub-exception (``Type: message``) of an exception group's printed traceback."""
    found = _GROUPED.search(traceback)
    return f"{found.group(1)}: {found.group(2)}" if found else None


_ADDRESS = re.compile(r" at 0x[0-9a-f]+|0x[0-9a-f]{6,}")


def cause_of(exc_type: str, message: str) -> str:
    """A failure grouped: ``missing max.graph.ops.gather``, or the type and message's first line."""
    found = re.search(r"missing name: (\S+)", message)
    if found:
        return f"missing {found.group(1)}"
    found = re.search(r"No module named '(max[\w.]*)'", message)
    if found:
        return f"missing module {found.group(1)}"
    found = re.search(r"module '(latticecast[\w.]*)' has no attribute '(\w+)'", message)
    if found:
        return f"missing {found.group(1)}.{found.group(2)}"
    first = _ADDRESS.sub("", (message.strip().splitlines() or [""])[0])[:160]
    return f"{exc_type}: {first}"


# ---- the pytest plugin (loaded in the subprocess with -p max_graph_suite) ----

_records: dict[str, dict[str, Any]] = {}


if os.environ.get(SHIM_ENV) == "1":  # at plugin import: MAX's conftest.py imports max before pytest_configure
    install_shim()


def pytest_collection_finish(session: Any) -> None:
    global _collecting
    _collecting = False
    from hypothesis import settings
    settings.register_profile("max_graph_suite", deadline=None,
                              max_examples=int(os.environ.get(EXAMPLES_ENV, "10")))
    settings.load_profile("max_graph_suite")  # after MAX's conftest loaded its own profile


def _key_of(item: Any) -> str:
    func = getattr(item, "originalname", item.name)
    return f"{item.nodeid.split('::')[0]}::{func}"


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for item in items:
        key = _key_of(item)
        _records[item.nodeid] = {"outcome": "not run", "position": f"{key}#{seen[key]}"}
        seen[key] += 1


def pytest_collectreport(report: Any) -> None:
    if report.failed:
        text = str(report.longrepr)
        lines = [ln[2:] for ln in text.splitlines() if ln.startswith("E ")]
        message = "\n".join(lines) or text
        etype = message.split(":", 1)[0].strip() if ":" in message else "CollectionError"
        _records[f"collect:{report.nodeid}"] = {"outcome": "collection error", "file": report.nodeid,
                                                "cause": cause_of(etype, message.split(":", 1)[-1]),
                                                "position": None}


def pytest_runtest_logreport(report: Any) -> None:
    record = _records.setdefault(report.nodeid, {"outcome": "not run", "position": None})
    if report.when == "call" or report.outcome != "passed":
        if report.outcome == "passed" and report.when == "call":
            record["outcome"] = "passed"
        elif report.skipped:
            record["outcome"] = "skipped"
        elif report.failed:
            record["outcome"] = "failed" if report.when == "call" else "error"
            info = getattr(report, "longrepr", None)
            crash = getattr(info, "reprcrash", None)
            message = crash.message if crash is not None else str(info)
            if message.startswith("ExceptionGroup"):  # hypothesis found several: count the first one's cause
                message = first_in_group(str(info)) or message
            etype, _, rest = message.partition(":")
            record["cause"] = cause_of(etype.strip(), rest if rest else message)
    if report.when == "call" and getattr(report, "wasxfail", None) is not None:
        record["outcome"] = "xfail"


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    out = os.environ.get(RESULTS_ENV)
    if out:
        Path(out).write_text(json.dumps(_records, indent=1, sort_keys=True))


# ---- the driver ----

def run_suite(python: str, checkout: Path, files: Sequence[str], shim: bool, examples: int,
              extra: Sequence[str], results: Path) -> dict[str, dict[str, Any]]:
    """Run the suite's ``files`` under ``python`` (with or without the shim); the per-test records."""
    tests_root = checkout / SUITE.parent
    if not (checkout / SUITE).is_dir():
        raise SystemExit(f"{checkout} has no {SUITE}: pass the root of a modular/modular checkout "
                         "(git archive HEAD max/tests | tar -x -C DIR)")
    here = Path(__file__).resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(here.parent), str(here.parent.parent / "src"),
                                         env.get("PYTHONPATH", "")])
    env[RESULTS_ENV] = str(results)
    env[SHIM_ENV] = "1" if shim else "0"
    env[EXAMPLES_ENV] = str(examples)
    targets = [str(SUITE.relative_to(SUITE.parent) / f) for f in files] or [SUITE.name]
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "max_graph_suite", "--continue-on-collection-errors",
           "--rootdir", str(tests_root), *extra, *targets]
    results.unlink(missing_ok=True)
    run = subprocess.run(cmd, cwd=tests_root, env=env, check=False, capture_output=True, text=True)
    if results.exists():
        return dict(json.loads(results.read_text()))
    # pytest stopped before the session (a conftest.py that does not import): every test fails with that
    errors = [ln[1:].strip() for ln in (run.stdout + run.stderr).splitlines() if ln.startswith("E ")]
    if not errors:
        raise SystemExit(f"the run under {python} wrote no results: run `{' '.join(cmd)}` in {tests_root}")
    etype, _, message = errors[-1].partition(":")
    return {"collect:conftest": {"outcome": "collection error", "file": "", "position": None,
                                 "cause": "conftest.py: " + cause_of(etype.strip(), message)}}


def _tests(records: dict[str, dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    return ((k, v) for k, v in records.items() if not k.startswith("collect:"))


def module_helpers(tests_root: Path, path: str) -> dict[str, str]:
    """The sources of the test module's top-level functions that are not tests (``matmul_graph``, ...)."""
    tree = _parsed(tests_root / path)
    if tree is None:
        return {}
    text = (tests_root / path).read_text()
    return {node.name: ast.get_source_segment(text, node) or "" for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("test")}


def test_source(tests_root: Path, nodeid: str) -> tuple[str, str]:
    """The file and the source of the test function ``nodeid`` names (``graph/x.py::Class::test[param]``)."""
    path, *names = nodeid.split("::")
    name = names[-1].split("[")[0] if names else ""
    tree = _parsed(tests_root / path)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return path, ast.get_source_segment((tests_root / path).read_text(), node) or ""
    return path, ""


@functools.lru_cache(maxsize=None)
def _parsed(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text())
    except (OSError, SyntaxError):
        return None


def compare(baseline: dict[str, dict[str, Any]], ours: dict[str, dict[str, Any]],
            tests_root: Path) -> dict[str, Any]:
    """The summary: counts, percentage and failure causes of the tests real MAX passes (``tests_root`` is
    the checkout's ``max/tests/tests``, where the rule for internal tests reads their source)."""
    by_position = {v["position"]: k for k, v in _tests(ours) if v.get("position")}
    collect_errors = {v["file"]: v["cause"] for k, v in ours.items() if k.startswith("collect:")}
    passed_max = [k for k, v in _tests(baseline) if v["outcome"] == "passed"]
    internal = {k: probes_internals(*test_source(tests_root, k), module_helpers(tests_root, k.split("::")[0]),
                                    module_internal_names(tests_root, k.split("::")[0]))
                for k in passed_max}
    api = [k for k in passed_max if not internal[k]]
    passed_here: list[str] = []
    causes: collections.Counter[str] = collections.Counter()
    failing: dict[str, str] = {}
    for nodeid in api:
        mine = ours.get(nodeid) or ours.get(by_position.get(baseline[nodeid]["position"], ""), None)
        if mine is not None and mine["outcome"] == "passed":
            passed_here.append(nodeid)
            continue
        if mine is None:
            file = nodeid.split("::")[0]
            cause = next((c for f, c in collect_errors.items() if file.endswith(f) or f.endswith(file)),
                         "not collected under the shim")
        else:
            cause = mine.get("cause", mine["outcome"])
        causes[cause] += 1
        failing[nodeid] = cause
    missing_names = collections.Counter({c[len("missing "):]: n for c, n in causes.items()
                                         if c.startswith("missing ")})
    return {
        "passed_with_max": len(passed_max),
        "not_internal": len(api),
        "passed_here": len(passed_here),
        "percentage": round(100.0 * len(passed_here) / len(api), 1) if api else 0.0,
        "missing_names": dict(missing_names.most_common()),
        "causes": dict(causes.most_common()),
        "internal": {k: v for k, v in internal.items() if v},
        "failing": failing,
        "passing": sorted(passed_here),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="root of a modular/modular checkout")
    parser.add_argument("--out", type=Path, required=True, help="JSON file for the results")
    parser.add_argument("--real-max", action="store_true", help="also run the suite under real MAX (baseline)")
    parser.add_argument("--max-python", default=MAX_PYTHON, help="the Python with max==26.7.0 installed")
    parser.add_argument("--baseline", type=Path, help="reuse the baseline of an earlier --out file (or its .max-raw.json)")
    parser.add_argument("--ours", type=Path, help="reuse the shim run of an earlier --out file (or its .shim-raw.json)")
    parser.add_argument("--max-examples", type=int, default=10, help="hypothesis examples per test")
    parser.add_argument("--files", nargs="*", default=[], help="test files relative to max/tests/tests/graph")
    args, extra = parser.parse_known_args(argv)
    extra = [a for a in extra if a != "--"]
    out: Path = args.out
    if args.real_max:
        baseline = run_suite(args.max_python, args.checkout, args.files, False, args.max_examples, extra,
                             out.with_suffix(".max-raw.json"))
    elif args.baseline:
        earlier = json.loads(args.baseline.read_text())
        baseline = earlier.get("baseline", earlier)  # an --out file, or the raw records of a --real-max run
    else:
        parser.error("give --real-max (run the baseline under real MAX) or --baseline FILE (an earlier --out)")
    if args.ours:
        earlier = json.loads(args.ours.read_text())
        ours = earlier.get("ours", earlier)
    else:
        ours = run_suite(sys.executable, args.checkout, args.files, True, args.max_examples, extra,
                         out.with_suffix(".shim-raw.json"))
    summary = compare(baseline, ours, args.checkout / SUITE.parent)
    out.write_text(json.dumps({"summary": summary, "baseline": baseline, "ours": ours}, indent=1))
    print(f"passed with MAX:          {summary['passed_with_max']}")
    print(f"  of those not internal:  {summary['not_internal']}")
    print(f"passed here:              {summary['passed_here']} ({summary['percentage']}%)")
    print("failure causes:")
    for cause, count in list(summary["causes"].items())[:40]:
        print(f"  {count:5d}  {cause}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
