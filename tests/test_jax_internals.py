"""The private jax/jaxlib names the runtime relies on: all in one module, all present.

If a jax upgrade moves one, this test fails (the runtime itself only warns and takes its
plain path), so the move is noticed in CI instead of as a silent slowdown.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import latticecast
from latticecast import jax_internals
from latticecast.runtime.custom_calls import is_host_callback

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
    """On a tested jax every gated name is there and used (the public alternatives are tested below)."""
    assert jax_internals.PRIVATE_ALLOWED, jax_internals.MISSING
    assert jax_internals.MISSING == {}
    for name in ("batched_device_put", "ZERO_COPY", "DeviceList", "GSPMDSharding", "register_upstream_dialects"):
        assert getattr(jax_internals, name) is not None, name
    assert jax_internals._array_result_handler is not None
    assert isinstance(jax_internals.backend_errors(), dict)
    assert jax_internals.MISSING == {}  # backend_errors() found its name too


def test_the_private_names_are_gated_on_latticecast_s_own_jaxlib_requirement() -> None:
    """The range that gates the private names is the one pyproject.toml declares (read from the metadata)."""
    import jaxlib

    from latticecast import _versions

    assert jax_internals.TESTED_JAX == _versions.supported_ranges()["jaxlib"]
    assert jax_internals.PRIVATE_ALLOWED == _versions.satisfies(jaxlib.__version__, jax_internals.TESTED_JAX)


def test_the_result_handler_matches_this_jaxlib() -> None:
    """array_result_handler lost its _skip_checks argument in jaxlib 0.11: the gate picks the call."""
    import jax
    import jax.core
    import numpy as np

    sharding = jax.sharding.SingleDeviceSharding(jax.devices("cpu")[0])
    handler = jax_internals.result_handler(jax.core.ShapedArray((2,), np.float32), sharding)
    assert handler is not None


def test_no_other_module_uses_a_private_name() -> None:
    offenders = [f"{path.relative_to(SRC)}:{lineno}: {name}"
                 for path in SRC.rglob("*.py") if path.name != "jax_internals.py"
                 for lineno, name in _private_uses(ast.parse(path.read_text(encoding="utf-8")))]
    assert offenders == [], "\n".join(offenders)
    internals = ast.parse((SRC / "jax_internals.py").read_text(encoding="utf-8"))
    assert _private_uses(internals), "the check must see the private names where they are"


def test_one_device_models_run_through_jax_jit() -> None:
    import numpy as np

    model = latticecast.compile("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }")
    model(np.ones(2, np.float32))
    assert model.dispatch == "jax.jit"


def _resolve(dotted: str):
    """Import the longest module prefix of ``dotted`` and get the attributes after it."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(f"no module in {dotted}")


@pytest.mark.parametrize("dotted", jax_internals.NAMES)
def test_each_private_name_is_present(dotted: str) -> None:
    assert _resolve(dotted) is not None


def test_nothing_is_missing_on_this_jax() -> None:
    assert jax_internals.gspmd_device_count("{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}") == 8
    assert jax_internals.gspmd_device_count("{maximal device=3}") == 4
    assert jax_internals.gspmd_device_count("{replicated}") == 1
    assert jax_internals.gspmd_device_count("{not a sharding") is None
    jax_internals.lapack_targets()
    assert jax_internals.lazily_registered_cpu_targets().get("cpu_csr_sparse_dense_ffi") == "jax.experimental.sparse"
    jax_internals.registered_custom_call_targets("cpu")
    assert jax_internals.MISSING == {}


def test_the_lapack_kernels_are_registered_and_can_be_prepared() -> None:
    import jax

    jax.devices("cpu")  # creating the client registers what `import jax` queued
    lapack = jax_internals.lapack_targets()
    registered = jax_internals.registered_custom_call_targets("cpu")
    assert {"lapack_spotrf_ffi", "lapack_sgesdd_ffi", "lapack_dsyevd_ffi"} <= lapack
    assert registered is not None and lapack <= registered
    jax_internals.prepare_lapack()
    jax_internals.prepare_lapack()  # idempotent


def test_every_host_callback_target_is_recognised() -> None:
    """The runtime refuses host callbacks by target name; a new spelling must not slip through."""
    import jax

    jax.devices("cpu")
    registered = jax_internals.registered_custom_call_targets("cpu") or frozenset()
    callbacks = {t for t in registered if "callback" in t}
    assert callbacks, registered
    assert all(is_host_callback(t) for t in callbacks), callbacks
    assert not any(is_host_callback(t) for t in jax_internals.lapack_targets())
    assert is_host_callback("xla_python_gpu_callback") and is_host_callback("xla_ffi_partitioned_python_gpu_callback")


def test_the_public_sharding_refuses_a_device_list_out_of_partition_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """An explicit device list that is not in partition order has no mesh in partition order: the
    public path says so and names the fix, rather than laying tiles out wrongly."""
    import jax
    from jaxlib import xla_client

    monkeypatch.setattr(jax_internals, "GSPMDSharding", None)
    proto = xla_client.HloSharding.from_string("{devices=[2]1,0}").to_proto()
    cpu = jax.devices("cpu")[0]
    with pytest.raises(ValueError, match=r"lists its devices out of partition order; latticecast's public runtime "
                                         r"path cannot lay arrays out for it \(a tested jaxlib can: pip install "
                                         r"\"jaxlib>=0\.10\.2,<0\.13\"\)"):
        jax_internals.sharding_of(proto, [cpu, cpu])


def test_shardys_public_module_is_whole_after_latticecast_registers_the_dialects() -> None:
    """jaxlib 0.12's native Shardy library imports its public module while it loads: registering the
    dialect through the native library first left ``jaxlib.mlir.dialects.sdy`` without its attributes."""
    import subprocess
    import sys

    code = ("from latticecast.dialect_utils.context import make_context\nmake_context(lenient=True)\n"
            "from jaxlib.mlir.dialects import sdy\nprint(hasattr(sdy, 'TensorShardingPerValueAttr'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "True", out.stderr


def test_a_name_jax_internals_does_not_hold_is_an_attribute_error_that_names_it() -> None:
    """The lazily found jaxlib names answer through the module's ``__getattr__``; any other name is
    Python's usual AttributeError, naming the module and the name."""
    with pytest.raises(AttributeError, match=r"module 'latticecast.jax_internals' has no attribute 'no_such_name'"):
        jax_internals.no_such_name  # noqa: B018
