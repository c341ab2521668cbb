# The modules JAX writes for lax.while_loop, lax.cond, lax.fori_loop and lax.switch
# (legal StableHLO: stablehlo.while and stablehlo.case whose regions mix nothing)
# pass through implicit-cast unchanged under every policy: each prints exactly as
# it prints after parsing alone.
# RUN: %python %s | FileCheck %s

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from latticecast import policy as get_policy
from latticecast.dialect_utils.parsing import parse_module
from latticecast.passes import ImplicitCastOptions
from latticecast.passes.implicit_cast import run_implicit_cast

x16 = np.arange(4, dtype=np.float16)
programs = {
    "while_loop": (lambda x: lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 0.5 + 1),
                                            (jnp.int32(0), x)), (x16,)),
    "cond": (lambda p, x: lax.cond(p, lambda v: v * 2, lambda v: v - 1, x), (np.bool_(True), x16)),
    "fori_loop": (lambda x: lax.fori_loop(0, 3, lambda i, v: v * 2 + i, x), (x16,)),
    "switch": (lambda k, x: lax.switch(k, [lambda v: v + 1, lambda v: v * 3, jnp.sin], x), (np.int32(1), x16)),
}
for name, (f, args) in programs.items():
    text = jax.jit(f).lower(*args).as_text()
    assert any(op in text for op in ("stablehlo.while", "stablehlo.case")), text
    for policy in ("jax", "max-python", "numpy", "torch"):
        module = parse_module(text)
        before = str(module)
        result = run_implicit_cast(module, ImplicitCastOptions(policy=get_policy(policy)))
        assert result.ok, (name, policy)
        assert str(module) == before, (name, policy, str(module))
        print(name, policy, "unchanged")

# CHECK: while_loop jax unchanged
# CHECK: while_loop max-python unchanged
# CHECK: cond jax unchanged
# CHECK: fori_loop torch unchanged
# CHECK: switch max-python unchanged
