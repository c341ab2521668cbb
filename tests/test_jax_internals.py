"""The private jax/jaxlib names the runtime relies on: all in one module, all present.

If a jax upgrade moves one, this test fails (the runtime itself only warns and takes its
plain path), so the move is noticed in CI instead of as a silent slowdown.
"""

from __future__ import annotations

import ast
from pathlib import Path

import latticecast
from latticecast import jax_internals

SRC = Path(latticecast.__file__).parent
PRIVATE = ("jax._src", "jaxlib._jax")


def _private_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """Imports of, and attribute paths into, jax's and jaxlib's private modules (code, not text)."""
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Attribute):
            names = [ast.unparse(node)]
        found += [(node.lineno, n) for n in names if any(n == p or n.startswith(p + ".") for p in PRIVATE)]
    return found


def test_every_private_name_is_present() -> None:
    assert jax_internals.MISSING == {}
    fast = jax_internals.fastpath()
    assert fast is not None, jax_internals.MISSING
    for name in ("batched_device_put", "array_result_handler", "ZERO_COPY", "DeviceList",
                 "register_upstream_dialects"):
        assert getattr(jax_internals, name) is not None, name
    for name in ("pjit", "function_cache", "fastpath_data", "cache_keys", "shard_arg", "registry", "enable_x64"):
        assert getattr(fast, name) is not None, name
    assert isinstance(jax_internals.backend_errors(), dict)
    assert jax_internals.MISSING == {}  # backend_errors() found its name too


def test_no_other_module_uses_a_private_name() -> None:
    offenders = [f"{path.relative_to(SRC)}:{lineno}: {name}"
                 for path in SRC.rglob("*.py") if path.name != "jax_internals.py"
                 for lineno, name in _private_uses(ast.parse(path.read_text(encoding="utf-8")))]
    assert offenders == [], "\n".join(offenders)
    internals = ast.parse((SRC / "jax_internals.py").read_text(encoding="utf-8"))
    assert _private_uses(internals), "the check must see the private names where they are"


def test_the_models_use_the_fast_path_on_this_jax() -> None:
    import numpy as np

    model = latticecast.compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }")
    model(np.ones(2, np.float32))
    assert model.dispatch == "dispatch"
