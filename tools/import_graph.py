#!/usr/bin/env python3
"""Print latticecast's internal import graph, package by package, and its cycles.

    python3 tools/import_graph.py            # edges between layers (sub-packages / top modules)
    python3 tools/import_graph.py --modules  # edges between modules
    python3 tools/import_graph.py --check    # exit 1 if a layer imports upward, MLIR below rank 1,
                                             # or an unexpected cycle exists

Reads the source with ``ast`` (nothing is imported). An import inside a function is
reported as ``(deferred)``: it still is a dependency, only a later one. The check also
reads imports from outside latticecast: ``jax``, ``jaxlib`` and ``mlir`` (:data:`MLIR_PACKAGES`)
only from rank 1 up (the promotion layer has no MLIR), a deferred import included; an import
under ``if TYPE_CHECKING:`` is not one (it never runs).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "latticecast"


MLIR_PACKAGES = ("jax", "jaxlib", "mlir")
"""Top-level packages that load MLIR (or JAX, which loads it): none of them below rank 1."""


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, node: ast.ImportFrom, package: str = "latticecast") -> list[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = current.split(".")
        if not is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    if base.split(".")[0] != package:
        return []
    if node.module is None or node.level and not node.module:
        return [f"{base}.{a.name}" for a in node.names]
    return [base] + [f"{base}.{a.name}" for a in node.names]


def edges(root: Path = ROOT) -> dict[tuple[str, str], bool]:
    """(importer, imported module) -> True when every such import is deferred (inside a def)."""
    return _imports(root)[0]


def external_imports(root: Path = ROOT) -> dict[tuple[str, str], bool]:
    """(importer, module of :data:`MLIR_PACKAGES` it imports, as written) -> True when every such
    import is deferred."""
    return _imports(root)[1]


def _imports(root: Path) -> tuple[dict[tuple[str, str], bool], dict[tuple[str, str], bool]]:
    """The package under ``root`` (a directory named after it): its internal edges, and its imports of
    :data:`MLIR_PACKAGES`."""
    files = {module_name(p, root): p for p in root.rglob("*.py")}
    known = set(files)
    out: dict[tuple[str, str], bool] = {}
    outside: dict[tuple[str, str], bool] = {}
    package = root.name
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        deferred_nodes = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                          for n in ast.walk(f)}
        type_only = {id(n) for s in ast.walk(tree) if isinstance(s, ast.If)
                     and "TYPE_CHECKING" in ast.unparse(s.test) for n in ast.walk(s)}
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            targets: list[str] = []
            written: list[str] = []
            if isinstance(node, ast.ImportFrom):
                targets = resolve(mod, is_package, node, package)
                written = [node.module] if node.level == 0 and node.module else []
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.split(".")[0] == package]
                written = [a.name for a in node.names]
            for w in written:
                if w.split(".")[0] in MLIR_PACKAGES:
                    key = (mod, w)
                    outside[key] = outside.get(key, True) and id(node) in deferred_nodes
            for t in targets:
                while t and t not in known:
                    t = t.rpartition(".")[0]
                if not t or t == mod:
                    continue
                deferred = id(node) in deferred_nodes
                key = (mod, t)
                out[key] = out.get(key, True) and deferred
    return out, outside


def layer(mod: str) -> str:
    parts = mod.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else mod


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    result.append(sorted(comp))
    return result


RANKS: dict[str, int] = {
    "latticecast.promotion": 0, "latticecast.policies": 0, "latticecast.evidence": 0, "latticecast.errors": 0,
    "latticecast._versions": 0,
    **{f"latticecast.{m}": 0 for m in ("tensor_type", "op_rules", "values")},  # documented paths, re-exports
    "latticecast.dialect_utils": 1, "latticecast.jax_internals": 1,
    "latticecast.passes": 2, "latticecast.runtime": 2,
    "latticecast.graph": 3, "latticecast.retargeting": 3,
    "latticecast.ops": 4, "latticecast.max": 4,
    "latticecast.demo": 5, "latticecast.cli": 5, "latticecast": 5, "latticecast.__main__": 5,
}
"""The layers, bottom up: the promotion layer (rank 0: the ``promotion`` package, the policies built on
it, their evidence, the errors; no MLIR, no JAX) <- MLIR's (dialect_utils, which also converts the
promotion layer's graph types to MLIR, and jax_internals that loads jaxlib) <- {passes, runtime} <- {graph,
retargeting (lift under one policy, legalise and run under another)} <- the surfaces built on it. A module
imports only its own rank and below (a deferred import too), and :data:`MLIR_PACKAGES` only from rank 1 up."""

ACCEPTED_CYCLE = {"latticecast.graph.value", "latticecast.graph.ops"}
"""The one module cycle by design: a value's methods are the ops, and the ops make values."""


def problems(es: dict[tuple[str, str], bool], outside: dict[tuple[str, str], bool] | None = None) -> list[str]:
    """Upward imports between layers, layer cycles, module cycles other than value <-> ops, and imports of
    :data:`MLIR_PACKAGES` (``outside``, as :func:`external_imports` gives them) below rank 1."""
    found = []
    for (a, imported), deferred in sorted((outside or {}).items()):
        rank = RANKS.get(layer(a))
        if rank is None:
            found.append(f"{layer(a)} has no rank in tools/import_graph.py's RANKS")
        elif rank < 1:
            found.append(f"{a} imports {imported}{' (deferred)' if deferred else ''}: rank {rank} has no MLIR "
                         "(move the code up, to dialect_utils or the layer that uses it)")
    for (a, b) in sorted(es):
        la, lb = layer(a), layer(b)
        if la in RANKS and lb in RANKS and RANKS[lb] > RANKS[la]:
            found.append(f"{a} imports {b}, a higher layer")
        elif la not in RANKS or lb not in RANKS:
            found.append(f"{la if la not in RANKS else lb} has no rank in tools/import_graph.py's RANKS")
    layers: dict[str, set[str]] = defaultdict(set)
    modules: dict[str, set[str]] = defaultdict(set)
    for a, b in es:
        modules[a].add(b)
        if layer(a) != layer(b):
            layers[layer(a)].add(layer(b))
    found += [f"layer cycle {' <-> '.join(c)}" for c in cycles(layers)]
    found += [f"module cycle {' <-> '.join(c)}" for c in cycles(modules) if not ACCEPTED_CYCLE <= set(c)
              or not all(m.startswith("latticecast.graph.ops") or m in ACCEPTED_CYCLE for m in c)]
    return sorted(set(found))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modules", action="store_true", help="module-level edges instead of layers")
    ap.add_argument("--check", action="store_true", help="only check; exit 1 on an upward import or a cycle")
    args = ap.parse_args(argv)
    es = edges()
    if args.check:
        found = problems(es, external_imports())
        for p in found:
            print(p)
        print(f"{len(found)} problem(s)" if found else "layers, MLIR imports and cycles as designed")
        return 1 if found else 0
    graph: dict[str, set[str]] = defaultdict(set)
    shown: dict[tuple[str, str], bool] = {}
    for (a, b), deferred in es.items():
        if not args.modules:
            a, b = layer(a), layer(b)
            if a == b:
                continue
        graph[a].add(b)
        shown[(a, b)] = shown.get((a, b), True) and deferred
    for a in sorted(graph):
        targets = ", ".join(b + (" (deferred)" if shown[(a, b)] else "") for b in sorted(graph[a]))
        print(f"{a} -> {targets}")
    found = cycles(graph)
    print("\ncycles:" if found else "\ncycles: none")
    for comp in found:
        print("  " + " <-> ".join(comp))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
