"""The runtime on public JAX alone: what runs on a jax newer than the tested range.

``latticecast.jax_internals`` uses its private names only on a tested jax; elsewhere, or with
``LATTICECAST_PUBLIC_ONLY=1``, every runtime path takes its public alternative (``jax.device_put``,
``jax.make_array_from_single_device_arrays``, a ``NamedSharding`` for XLA's ``OpSharding``,
``compile_and_load`` with a plain device list). The flag is read when latticecast is imported,
so the runtime's tests run again here in a process of their own with it set: on one device and,
through ``test_sharded.py``, on 8.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PUBLIC_ONLY = os.environ.get("LATTICECAST_PUBLIC_ONLY") == "1"
TESTS = Path(__file__).resolve().parent
SUITES = ["test_runtime.py", "test_runtime_partitioning.py", "test_runtime_cache.py", "test_sharded.py"]

if not PUBLIC_ONLY:

    def test_the_runtime_tests_pass_on_public_jax_alone() -> None:
        env = dict(os.environ, LATTICECAST_PUBLIC_ONLY="1", TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", __file__,
                               *(str(TESTS / s) for s in SUITES)],
                              capture_output=True, text=True, env=env, timeout=1200, cwd=TESTS.parent)
        assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-3000:]
        assert " passed" in proc.stdout, proc.stdout[-2000:]

else:

    def test_no_private_name_is_used() -> None:
        from latticecast import jax_internals

        assert not jax_internals.PRIVATE_ALLOWED
        for name in ("DeviceList", "GSPMDSharding", "batched_device_put", "ZERO_COPY", "_array_result_handler"):
            assert getattr(jax_internals, name) is None, name
        assert all(why.startswith("not used: LATTICECAST_PUBLIC_ONLY") for why in jax_internals.MISSING.values())
        assert jax_internals.register_upstream_dialects is not None  # not gated: nothing parses without it

    def test_a_one_device_client_executable_runs_on_public_calls() -> None:
        import jax
        import numpy as np

        from latticecast.jax_internals import compile_on
        from latticecast.runtime.partitioning import compile_options, read_partitioning
        from latticecast.runtime.sharded import ShardedCall
        from latticecast.runtime.signature import read_signature
        from latticecast.runtime.source import parse_runnable_module

        module = parse_runnable_module("func.func @main(%a: tensor<3xi64>) -> tensor<3xi64> {\n"
                              "  %0 = stablehlo.add %a, %a : tensor<3xi64>\n  return %0 : tensor<3xi64>\n}")
        devices = [jax.devices("cpu")[0]]
        call = ShardedCall(compile_on(devices, module, compile_options(devices)), devices, read_signature(module),
                           read_partitioning(module, "<input>"))
        assert call._handlers is None and call._put is None
        big = np.array([2**40, 1, 2], np.int64)
        np.testing.assert_array_equal(call([big])[0], big * 2)
