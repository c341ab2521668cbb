"""Measure MAX's module tree: the public names of each module a MAX program imports.

Usage (in a Python with ``max==26.7.0``; the project's own venv never imports MAX)::

    /work/venv-max/bin/python tools/measure_max_tree.py > tests/data/max_tree_26_7.json

For each module of :data:`MODULES` the names it exports, by one rule (:func:`exports`): its ``__all__``
where it has one; otherwise the public names its own source binds (``def``, ``class``, assignments) or
imports from MAX's public modules, and its public submodules. Names it imports from elsewhere (``typing``,
``numpy``, the standard library) or from MAX's internals (``max._core``, ``max.mlir``, ``max._mlir_context``:
MAX's compiler and its dialects) are not its exports. ``tests/test_max_tree.py`` compares the recorded tree
with ``latticecast.max``'s, and with MAX's live one when ``LATTICECAST_MAX_PYTHON`` names a Python with MAX.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import sys
import types
from typing import Any

MODULES = (
    "max.graph", "max.graph.ops", "max.graph.ops.random", "max.graph.ops.allreduce",
    "max.graph.ops.elementwise", "max.graph.ops.reduction", "max.graph.ops.complex", "max.graph.ops.irfft",
    "max.graph.ops.distributed_ep", "max.graph.type", "max.graph.value", "max.graph.weight",
    "max.graph.weights", "max.graph.quantization", "max.graph.dim", "max.dtype", "max.driver", "max.engine",
    "max.nn",
)
"""The modules of MAX's tree that ``latticecast.max`` mirrors (issue 26)."""

INTERNAL = ("max._core", "max.mlir", "max._mlir")
"""MAX's internal modules: names imported from them are not a module's exports."""


def _absolute(module: types.ModuleType, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _is_public_max(name: str) -> bool:
    return (name == "max" or name.startswith("max.")) and not name.startswith(INTERNAL)


def exports(module: types.ModuleType) -> list[str]:
    """The names ``module`` exports (see the module docstring for the rule)."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return sorted(set(declared))
    names: set[str] = set()
    tree = ast.parse(inspect.getsource(module))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and _is_public_max(_absolute(module, node)):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.asname for alias in node.names if alias.asname and _is_public_max(alias.name))
    if hasattr(module, "__path__"):
        names.update(info.name for info in pkgutil.iter_modules(module.__path__))
    return sorted(n for n in names if not n.startswith("_") and n != "annotations" and hasattr(module, n))


def kind(value: Any) -> str:
    """What a name is: ``module``, ``class``, ``function`` or ``value``."""
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "value"


def measure() -> dict[str, Any]:
    """MAX's tree: ``{"version": ..., "modules": {module: {name: kind}}}``."""
    import max  # noqa: F401  (the installed MAX)
    from importlib.metadata import version
    tree: dict[str, dict[str, str]] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        tree[name] = {n: kind(getattr(module, n)) for n in exports(module)}
    return {"version": version("max"), "measured_by": "tools/measure_max_tree.py", "modules": tree}


if __name__ == "__main__":
    json.dump(measure(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
