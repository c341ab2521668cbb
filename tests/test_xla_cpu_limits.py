"""What crashes XLA's CPU compiler is refused before it is compiled (runtime/guards.py), and the
measured fact the guard rests on is measured again here, in a process of its own."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

import latticecast as lc
from latticecast.runtime import UnsupportedModuleError
from latticecast.jax_internals import JAXLIB_VERSION
from latticecast.runtime.guards import _CPU_ELEMENT_LIMIT

HUGE = """func.func @main(%x: tensor<68719476736xi8>) -> tensor<68719476736xi8> {
  %0 = stablehlo.negate %x : tensor<68719476736xi8>
  return %0 : tensor<68719476736xi8>
}"""
"""2**36 elements (found by api_fuzz on jaxlib 0.12: lc.compile died with SIGFPE)."""

RAW_COMPILE = """
import jax, jax.numpy as jnp
jax.jit(jnp.negative).lower(jax.ShapeDtypeStruct((2**36,), jnp.int8)).compile()
print("compiled")
"""

NEW_JAXLIB = JAXLIB_VERSION >= (0, 12)


@pytest.mark.skipif(not NEW_JAXLIB, reason="the crash was measured on jaxlib 0.12; older jaxlib compiles it")
def test_a_tensor_xla_cpu_crashes_on_is_refused_with_the_reason() -> None:
    with pytest.raises(UnsupportedModuleError, match=r"2\*\*36 or more elements.*crashes the process"):
        lc.compile(HUGE)


def test_the_limit_is_what_this_jaxlib_does() -> None:
    """The guard's limit is the measured behaviour of the installed jaxlib: where it is set, XLA's CPU
    compiler still dies on such a tensor; where it is not, XLA compiles it. Fails when jaxlib moves."""
    proc = subprocess.run([sys.executable, "-c", RAW_COMPILE], capture_output=True, text=True, timeout=600)
    crashed = proc.returncode == -signal.SIGFPE
    assert crashed == (_CPU_ELEMENT_LIMIT is not None), (proc.returncode, proc.stdout, proc.stderr[-1000:])
    if not crashed:
        assert proc.returncode == 0 and "compiled" in proc.stdout, proc.stderr[-1000:]
