"""Run MAX's own graph tests (``max/tests/tests/graph`` of modular/modular) against ``latticecast.max``.

Usage::

    python tools/max_graph_suite.py CHECKOUT --out results.json [--real-max] [--baseline FILE]
                                    [--max-pythonpath DIR] [--max-examples N] [--files F ...] [-- PYTEST ARGS]

``CHECKOUT`` is a directory holding ``max/tests/tests/graph`` (a work tree or ``git archive`` of
modular/modular; nothing of it is copied into latticecast). The tests run in a subprocess of this Python
under pytest with this file as a plugin (``-p max_graph_suite``) that only records outcomes. What runs is a
copy of the test directory in a temporary directory in which every ``.py`` file is rewritten by
:func:`rewrite`, the migration a MAX user makes and nothing else::

    sed 's/\\bmax\\./latticecast.max./g; s/^from max import/from latticecast.max import/'

so ``max.graph``, ``max.dtype``, ``max._core`` ... import ``latticecast.max.graph``, ``latticecast.max.dtype``,
``latticecast.max._core``: a module latticecast lacks fails the way it would fail a user.

``--real-max`` first runs the unmodified files under real MAX (``--max-python``, default
``/work/venv-max/bin/python`` with ``max==26.7.0``, pytest and hypothesis; ``--max-pythonpath`` adds a
directory, such as one with ``gguf`` installed by ``pip install --target``, which MAX's GGUF tests need):
the baseline. ``--baseline FILE`` reuses the baseline of an earlier ``--out`` file. Both runs get
``TESTDATA_DIRECTORY`` (the suite's ``testdata``), as MAX's build gives them.

Tests that probe MAX internals are left out of the comparison by one rule (:func:`probes_internals`):
the test function's body, or a helper function of its module that the body calls, matches one of
:data:`INTERNAL_PATTERNS` (MLIR text, ``_mlir_op``, MAX's dialects, its kernel library, buffers ...) or uses
a name its module imports from MAX's internal modules (``max._core``, ``max.mlir``), or its file is in
:data:`INTERNAL_FILES`.

Printed and written to ``--out``: tests passed with MAX, of those not internal, passed here, the
percentage, the failure causes (exceptions grouped by type and first message line), and every test counted
internal with the rule that counted it. Hypothesis tests run ``--max-examples`` examples (default 10) in
both runs.
"""

from __future__ import annotations

import argparse
import ast
import collections
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, Iterator, Sequence

SUITE = Path("max/tests/tests/graph")
"""Where MAX's graph tests live inside a modular/modular checkout."""

MAX_PYTHON = "/work/venv-max/bin/python"
"""The Python with real MAX 26.7 (``pip install max==26.7.0 pytest hypothesis``) for the baseline."""

REWRITES: tuple[tuple[str, str, int], ...] = (
    (r"\bmax\.", "latticecast.max.", 0),
    (r"^from max import", "from latticecast.max import", re.MULTILINE),
)
"""The migration, as ``re.sub`` arguments: ``sed 's/\\bmax\\./latticecast.max./g; s/^from max
import/from latticecast.max import/'``, applied to every line in that order."""


def rewrite(text: str) -> str:
    """``text`` as the migration's ``sed`` line leaves it (see :data:`REWRITES`).

    Example:
        >>> rewrite("from max.graph import ops")
        'from latticecast.max.graph import ops'
        >>> rewrite("from max import mlir"), rewrite("np.max(a)")
        ('from latticecast.max import mlir', 'np.max(a)')
    """
    for pattern, replacement, flags in REWRITES:
        text = re.sub(pattern, replacement, text, flags=flags)
    return text


def rewritten_copy(checkout: Path, into: Path) -> Path:
    """Copy ``checkout``'s ``max/tests/tests/graph`` under ``into`` (same layout), every ``.py`` file rewritten
    by :func:`rewrite` and every other file as it is; the copy's root (``into``)."""
    source = checkout / SUITE
    for path in sorted(source.rglob("*")):
        target = into / SUITE / path.relative_to(source)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".py":
            target.write_text(rewrite(path.read_text()))
        else:
            shutil.copyfile(path, target)
    return into


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
EXAMPLES_ENV = "MAX_GRAPH_SUITE_MAX_EXAMPLES"


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
    """A failure grouped: ``missing module latticecast.max._core``, ``missing latticecast.max.graph.X``, or the
    type and message's first line."""
    found = re.search(r"No module named '((?:latticecast\.)?max[\w.]*)'", message)
    if found:
        return f"missing module {found.group(1)}"
    found = re.search(r"module '(latticecast[\w.]*)' has no attribute '(\w+)'", message)
    if found:
        return f"missing {found.group(1)}.{found.group(2)}"
    found = re.search(r"cannot import name '(\w+)' from '(latticecast[\w.]*)'", message)
    if found:
        return f"missing {found.group(2)}.{found.group(1)}"
    first = _ADDRESS.sub("", (message.strip().splitlines() or [""])[0])[:160]
    return f"{exc_type}: {first}"


# ---- the pytest plugin (loaded in the subprocess with -p max_graph_suite) ----

_records: dict[str, dict[str, Any]] = {}


def pytest_collection_finish(session: Any) -> None:
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

def run_suite(python: str, checkout: Path, files: Sequence[str], examples: int, extra: Sequence[str],
              results: Path, pythonpath: Sequence[str] = (), testdata: Path | None = None) -> dict[str, dict[str, Any]]:
    """Run the suite's ``files`` of ``checkout`` under ``python``; the per-test records. ``pythonpath`` comes
    after this tool's directory on ``PYTHONPATH``."""
    tests_root = checkout / SUITE.parent
    if not (checkout / SUITE).is_dir():
        raise SystemExit(f"{checkout} has no {SUITE}: pass the root of a modular/modular checkout "
                         "(git archive HEAD max/tests | tar -x -C DIR)")
    here = Path(__file__).resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(here.parent), *pythonpath, env.get("PYTHONPATH", "")])
    env[RESULTS_ENV] = str(results)
    env[EXAMPLES_ENV] = str(examples)
    env["TESTDATA_DIRECTORY"] = str(testdata or checkout / SUITE / "testdata")
    env.setdefault("MODULAR_PATH", ".")
    targets = [str(SUITE.relative_to(SUITE.parent) / f) for f in files] or [SUITE.name]
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "max_graph_suite",
           "--continue-on-collection-errors", "--rootdir", str(tests_root), *extra, *targets]
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


def run_rewritten(checkout: Path, files: Sequence[str], examples: int, extra: Sequence[str],
                  results: Path) -> dict[str, dict[str, Any]]:
    """Run the suite rewritten by :func:`rewrite` (in a temporary copy) under this Python, with this
    checkout's ``src`` first on the path; the per-test records."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    with tempfile.TemporaryDirectory(prefix="max-suite-") as tmp:
        copy = rewritten_copy(checkout, Path(tmp))
        return run_suite(sys.executable, copy, files, examples, extra, results, [src],
                         testdata=checkout / SUITE / "testdata")


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
                         "not collected after the rewrite")
        else:
            cause = mine.get("cause", mine["outcome"])
        causes[cause] += 1
        failing[nodeid] = cause
    return {
        "passed_with_max": len(passed_max),
        "not_internal": len(api),
        "passed_here": len(passed_here),
        "percentage": round(100.0 * len(passed_here) / len(api), 1) if api else 0.0,
        "causes": dict(causes.most_common()),
        "internal": {k: v for k, v in internal.items() if v},
        "internal_by_rule": {rule: sorted(k for k, v in internal.items() if v == rule)
                             for rule in sorted({v for v in internal.values() if v})},
        "failing": failing,
        "passing": sorted(passed_here),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="root of a modular/modular checkout")
    parser.add_argument("--out", type=Path, required=True, help="JSON file for the results")
    parser.add_argument("--real-max", action="store_true", help="also run the suite under real MAX (baseline)")
    parser.add_argument("--max-python", default=MAX_PYTHON, help="the Python with max==26.7.0 installed")
    parser.add_argument("--max-pythonpath", action="append", default=[],
                        help="a directory for real MAX's PYTHONPATH (one with gguf, for MAX's GGUF tests)")
    parser.add_argument("--baseline", type=Path, help="reuse the baseline of an earlier --out file (or its .max-raw.json)")
    parser.add_argument("--ours", type=Path, help="reuse the latticecast run of an earlier --out file (or its .ours-raw.json)")
    parser.add_argument("--list-internal", action="store_true", help="also print every test counted internal, by rule")
    parser.add_argument("--max-examples", type=int, default=10, help="hypothesis examples per test")
    parser.add_argument("--files", nargs="*", default=[], help="test files relative to max/tests/tests/graph")
    args, extra = parser.parse_known_args(argv)
    extra = [a for a in extra if a != "--"]
    out: Path = args.out
    if args.real_max:
        baseline = run_suite(args.max_python, args.checkout, args.files, args.max_examples, extra,
                             out.with_suffix(".max-raw.json"), args.max_pythonpath)
    elif args.baseline:
        earlier = json.loads(args.baseline.read_text())
        baseline = earlier.get("baseline", earlier)  # an --out file, or the raw records of a --real-max run
    else:
        parser.error("give --real-max (run the baseline under real MAX) or --baseline FILE (an earlier --out)")
    if args.ours:
        earlier = json.loads(args.ours.read_text())
        ours = earlier.get("ours", earlier)
    else:
        ours = run_rewritten(args.checkout, args.files, args.max_examples, extra, out.with_suffix(".ours-raw.json"))
    summary = compare(baseline, ours, args.checkout / SUITE.parent)
    out.write_text(json.dumps({"summary": summary, "baseline": baseline, "ours": ours}, indent=1))
    print(f"passed with MAX:          {summary['passed_with_max']}")
    print(f"  of those not internal:  {summary['not_internal']}")
    print(f"passed here:              {summary['passed_here']} ({summary['percentage']}%)")
    print("failure causes:")
    for cause, count in list(summary["causes"].items())[:40]:
        print(f"  {count:5d}  {cause}")
    print(f"counted internal:         {len(summary['internal'])}")
    for rule, tests in summary["internal_by_rule"].items():
        print(f"  {len(tests):5d}  {rule}")
        if args.list_internal:
            for test in tests:
                print(f"           {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
