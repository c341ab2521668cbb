"""Every private jax/jaxlib name the runtime relies on is where it expects it.

:mod:`latticecast.runtime.jax_internals` is the only module that touches them. When a jax
upgrade moves one, the runtime degrades (a warning and the plain call path) or refuses a
module it could run, so this test must fail first: each name is imported on its own,
by its dotted path, here.
"""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("jax")

from latticecast.runtime import jax_internals  # noqa: E402
from latticecast.runtime.custom_calls import is_host_callback  # noqa: E402


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
    jax_internals.lapack_targets()
    assert jax_internals.lazily_registered_cpu_targets().get("cpu_csr_sparse_dense_ffi") == "jax.experimental.sparse"
    jax_internals.registered_custom_call_targets("cpu")
    assert jax_internals.MISSING == {}
    assert jax_internals.FASTPATH is not None


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
