"""The public API is documented: every public function has a Google-style docstring.

A public function is one named in the ``__all__`` of ``latticecast``, ``latticecast.ops``
(``latticecast.graph.ops``, ``latticecast.max.ops``) or ``latticecast.runtime``, plus
``Model.__call__``. Its docstring must exist, have ``Args:`` when it takes arguments and
``Returns:`` (or ``Yields:``) when it returns something; an op of the builder's op set also
needs a runnable ``>>>`` example (the docs' doctest pass, ``python3 dev.py docs``, runs them).

``NOT_YET`` lists the functions still to be written up (issue 17); a function that passes is
a failure there too, so that the list only shrinks.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Callable

import pytest

import latticecast

MODULES = ("latticecast", "latticecast.ops", "latticecast.graph.ops", "latticecast.max.ops", "latticecast.runtime")
OP_MODULES = ("latticecast.ops", "latticecast.graph.ops", "latticecast.max.ops")

# Public functions whose docstrings are not yet in the Google style (issue 17).
NOT_YET: frozenset[str] = frozenset()


def _module(name: str) -> Any:
    if name == "latticecast.max.ops":  # latticecast.max.ops is latticecast.ops, an attribute (no submodule)
        return importlib.import_module("latticecast.max").ops
    return importlib.import_module(name)


def public_functions() -> dict[str, Callable[..., Any]]:
    """Each public function once, under the first name it has in :data:`MODULES`."""
    found: dict[str, Callable[..., Any]] = {}
    seen: set[int] = set()
    for module_name in MODULES:
        module = _module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and id(obj) not in seen:
                seen.add(id(obj))
                found[f"{module_name}.{name}"] = obj
    found["latticecast.runtime.Model.__call__"] = latticecast.runtime.Model.__call__
    return found


def _is_op(name: str) -> bool:
    return name.rsplit(".", 1)[0] in OP_MODULES


def problems(name: str, fn: Callable[..., Any]) -> list[str]:
    """What the docstring of ``fn`` lacks (empty when it is complete)."""
    doc = inspect.getdoc(fn)
    if not doc:
        return ["no docstring"]
    sig = inspect.signature(fn)
    params = [p for p in sig.parameters.values() if p.name != "self"]
    missing = []
    if params and "Args:" not in doc:
        missing.append("no Args: section")
    if sig.return_annotation not in (None, "None", inspect.Signature.empty) and \
            "Returns:" not in doc and "Yields:" not in doc:
        missing.append("no Returns: section")
    if _is_op(name) and ">>>" not in doc:
        missing.append("no runnable example (>>>)")
    return missing


FUNCTIONS = public_functions()


@pytest.mark.parametrize("name", sorted(set(FUNCTIONS) - NOT_YET))
def test_public_function_is_documented(name: str) -> None:
    missing = problems(name, FUNCTIONS[name])
    assert not missing, f"{name}: {', '.join(missing)} (Google style: Args:, Returns:, Raises:, Example:)"


def test_not_yet_list_only_shrinks() -> None:
    unknown = sorted(NOT_YET - set(FUNCTIONS))
    assert not unknown, f"NOT_YET names functions that are not public: {unknown}"
    done = sorted(n for n in NOT_YET if not problems(n, FUNCTIONS[n]))
    assert not done, f"documented now, remove from NOT_YET: {done}"


def test_every_public_module_is_walked() -> None:
    assert len(FUNCTIONS) > 100  # the op set alone has more than 80


def _documented_objects() -> set[int]:
    """The objects that the reference's pages (docs/*.rst) show with an ``auto*`` directive."""
    from pathlib import Path
    import re

    shown: set[int] = set()
    for page in sorted((Path(__file__).resolve().parent.parent / "docs").glob("*.rst")):
        current = ""
        for line in page.read_text().splitlines():
            m = re.match(r"\.\. (?:currentmodule|module):: (\S+)", line)
            if m:
                current = m.group(1)
                continue
            m = re.match(r"\.\. auto(?:function|class|exception|data):: (\S+)", line)
            if not m:
                continue
            name = m.group(1)
            path = name if name.startswith("latticecast.") else f"{current}.{name}"
            parts = path.split(".")
            for i in range(1, len(parts) + 1):  # as Sphinx reads it: a module, then attributes
                try:
                    obj: Any = importlib.import_module(".".join(parts[:i]))
                    for attr in parts[i:]:
                        obj = getattr(obj, attr)
                except (ImportError, AttributeError):
                    continue
                shown.add(id(obj))
                if inspect.isclass(obj):
                    shown.update(id(v) for v in vars(obj).values() if inspect.isfunction(v))
                break
    return shown


def test_every_public_function_is_in_the_reference() -> None:
    """Each public function appears on a page of docs/, so that its example is run by the doctest pass."""
    shown = _documented_objects()
    missing = sorted(name for name, fn in FUNCTIONS.items() if id(fn) not in shown)
    assert not missing, f"not shown by any auto* directive in docs/*.rst: {missing}"


def test_dev_py_builds_the_docs_with_warnings_as_errors() -> None:
    """``dev.py docs`` (and the full ``dev.py test``) build the HTML with -W, then run the doctest builder."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("latticecast_dev_docs", root / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    assert "docs" in dev.COMMANDS
    assert dev.parse_args(["docs"]) == ("docs", None, [])
    for args, builder in ((dev.DOCS_HTML, "html"), (dev.DOCS_DOCTEST, "doctest")):
        assert "-W" in args and args[args.index("-b") + 1] == builder and "docs" in args
