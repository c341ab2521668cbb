"""Size facts of the source, for a before/after note: ``python3 tools/size_facts.py [SRC]``.

Prints the lines of ``policies/base.py``, how many ``type: ignore`` comments, ``Any``
names and ``except Exception`` handlers ``src/latticecast`` has, and its longest
functions by their lines without the docstring (methods too; a nested function counts
in its own right and in its parent's lines). ``SRC`` is a ``src`` directory (default:
this checkout's), so another revision is measured from its worktree: ``git worktree add
/tmp/base main && python3 tools/size_facts.py /tmp/base/src``.
"""

from __future__ import annotations

import argparse
import ast
import io
import sys
import tokenize
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


def comments(text: str) -> Iterator[str]:
    """The comments of a Python source text."""
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.string


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int, int]]:
    """``(qualified name, lines, lines without the docstring)`` of every function in ``tree``, decorators
    excluded."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            first = node.body[0]
            has_doc = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                       and isinstance(first.value.value, str))
            doc = (first.end_lineno or first.lineno) - first.lineno + 1 if has_doc else 0
            yield name, lines, lines - doc
            yield from functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, prefix + node.name + ".")
        else:
            yield from functions(node, prefix)


def facts(src: Path, longest: int = 10) -> list[str]:
    """The report's lines for the package under ``src`` (a directory holding ``latticecast/``).

    Raises:
        SystemExit: ``src`` has no ``latticecast`` package.
    """
    package = src / "latticecast"
    if not (package / "__init__.py").is_file():
        raise SystemExit(f"{src} has no latticecast/__init__.py; pass a checkout's src directory")
    ignores = anys = broad = 0
    sizes: list[tuple[int, int, str]] = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text()
        tree = ast.parse(text, str(path))
        ignores += sum("type: ignore" in c for c in comments(text))
        anys += sum(1 for n in ast.walk(tree)
                    if (isinstance(n, ast.Name) and n.id == "Any")
                    or (isinstance(n, ast.Attribute) and n.attr == "Any"))
        broad += sum(1 for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.type is not None
                     and any(isinstance(t, ast.Name) and t.id == "Exception"
                             for t in (n.type.elts if isinstance(n.type, ast.Tuple) else [n.type])))
        module = path.relative_to(src).with_suffix("").as_posix()
        sizes += [(code, lines, f"{module}: {name}") for name, lines, code in functions(tree)]
    base = package / "policies" / "base.py"
    out = [f"lines of policies/base.py: {len(base.read_text().splitlines()) if base.is_file() else 'absent'}",
           f"'type: ignore' comments: {ignores}",
           f"'Any' used (names, annotations and imports): {anys}",
           f"'except Exception' handlers: {broad}",
           f"the {longest} longest functions (lines without the docstring / with it):"]
    longest_first = sorted(sizes, key=lambda s: (-s[0], s[2]))[:longest]
    out += [f"  {code:4d} / {lines:4d}  {where}" for code, lines, where in longest_first]
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", nargs="?", type=Path, default=ROOT / "src")
    ap.add_argument("--longest", type=int, default=10, help="how many of the longest functions to list")
    args = ap.parse_args(argv)
    print("\n".join(facts(args.src, args.longest)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
