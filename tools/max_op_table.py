"""The table of MAX 26.7's ``max.graph.ops`` functions against ``latticecast.ops``.

Usage::

    python tools/max_op_table.py                       # print the markdown table and counts
    python tools/max_op_table.py --write               # also record the statuses in the data file
    python tools/max_op_table.py --measure [--max-python PY | --checkout DIR]   # re-measure MAX's list

MAX's list is data, ``tests/data/max_ops_26_7.json``, measured by ``--measure``: the public functions of
the installed ``max.graph.ops`` (``--max-python``, default ``/work/venv-max/bin/python`` with
``max==26.7.0``: every public name that is callable and neither a class nor a module), or, without MAX,
the names ``max/python/max/graph/ops/__init__.py`` of a modular/modular checkout imports (``--checkout``).

Each op's status in latticecast:

- ``implemented``: ``latticecast.ops`` has a function of that name that is not a refusal;
- ``refused``: it has one whose docstring's first paragraph says it refuses the op (the word
  ``refuse``/``refused``/``refuses``; the function raises, saying why and what to write instead), or the
  function has a ``__refused__`` attribute;
- ``missing``: ``latticecast.ops`` has no such name.

``--write`` stores the statuses next to MAX's list; ``tests/test_max_op_table.py`` checks the stored
statuses are what this tool finds now, so the recorded table cannot go stale silently.
"""

from __future__ import annotations

import argparse
import ast
import collections
import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "max_ops_26_7.json"
MAX_PYTHON = "/work/venv-max/bin/python"

_LIST_MAX_OPS = """
import inspect, json, types
import max, max.graph.ops as ops
names = sorted(n for n in dir(ops) if not n.startswith("_") and callable(getattr(ops, n))
               and not isinstance(getattr(ops, n), (type, types.ModuleType)))
from importlib.metadata import version
print(json.dumps({"version": version("max"), "ops": names}))
"""


def max_ops_installed(python: str) -> tuple[str, list[str]]:
    """MAX's version and public op functions, from the MAX installed for ``python``."""
    out = subprocess.run([python, "-c", _LIST_MAX_OPS], check=True, capture_output=True, text=True).stdout
    found = json.loads(out.strip().splitlines()[-1])
    return found["version"], list(found["ops"])


def max_ops_checkout(checkout: Path) -> list[str]:
    """The public functions ``max/graph/ops/__init__.py`` of a modular/modular checkout imports."""
    package = checkout / "max" / "python" / "max" / "graph" / "ops"
    names: set[str] = set()
    for node in ast.parse((package / "__init__.py").read_text()).body:
        if not isinstance(node, ast.ImportFrom) or node.level != 1 or not node.module:
            continue
        for alias in node.names:
            if alias.name == "*":
                names.update(_public_names(package / f"{node.module.replace('.', '/')}.py"))
            else:
                names.add(alias.asname or alias.name)
    return sorted(n for n in names if not n.startswith("_") and not n[0].isupper())


def _public_names(path: Path) -> set[str]:
    """What ``from module import *`` gives: its ``__all__``, else its functions and assigned names."""
    body = ast.parse(path.read_text()).body
    for node in body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    names = {n.name for n in body if isinstance(n, ast.FunctionDef)}
    names.update(t.id for n in body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name))
    return names


def is_refusal(func: Callable[..., Any]) -> bool:
    """Whether ``func`` is latticecast's documented refusal of an op (see the module)."""
    if getattr(func, "__refused__", None):
        return True
    first = (inspect.getdoc(func) or "").split("\n\n")[0].lower()
    return any(word in first for word in ("refuse ", "refused", "refuses"))


def status_of(name: str, namespace: Any) -> str:
    """``implemented``, ``refused`` or ``missing``: what ``namespace`` (``latticecast.ops``) has for ``name``."""
    func = getattr(namespace, name, None)
    if func is None or not callable(func):
        return "missing"
    return "refused" if is_refusal(func) else "implemented"


def table(names: list[str], namespace: Any) -> dict[str, str]:
    """Each op's status."""
    return {name: status_of(name, namespace) for name in names}


def markdown(statuses: dict[str, str], version: str) -> str:
    """The table and counts as markdown."""
    counts = collections.Counter(statuses.values())
    lines = [f"MAX {version} `max.graph.ops`: {len(statuses)} functions; "
             + ", ".join(f"{counts[s]} {s}" for s in ("implemented", "refused", "missing")), "",
             "| op | latticecast.ops |", "| --- | --- |"]
    lines += [f"| `{name}` | {status} |" for name, status in sorted(statuses.items())]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", action="store_true", help="re-measure MAX's op list into the data file")
    parser.add_argument("--max-python", default=MAX_PYTHON, help="the Python with max==26.7.0 installed")
    parser.add_argument("--checkout", type=Path, help="measure from a modular/modular checkout instead")
    parser.add_argument("--write", action="store_true", help="record the current statuses in the data file")
    parser.add_argument("--data", type=Path, default=DATA, help="the data file")
    args = parser.parse_args(argv)
    data: dict[str, Any] = json.loads(args.data.read_text()) if args.data.exists() else {}
    if args.measure:
        if args.checkout:
            version, names = "checkout", max_ops_checkout(args.checkout)
            source = f"names imported by max/python/max/graph/ops/__init__.py of {args.checkout}"
        else:
            version, names = max_ops_installed(args.max_python)
            source = "public callables of the installed max.graph.ops (not classes or modules)"
        data = {"max_version": version, "source": source, "measured_by": "python tools/max_op_table.py --measure",
                "ops": {name: data.get("ops", {}).get(name, "missing") for name in names}}
    if not data:
        parser.error(f"{args.data} does not exist: run with --measure first")
    import latticecast.ops
    statuses = table(sorted(data["ops"]), latticecast.ops)
    if args.write or args.measure:
        data["ops"] = statuses
        args.data.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(markdown(statuses, data["max_version"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
