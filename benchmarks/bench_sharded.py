#!/usr/bin/env python
"""Sharded-model benchmark: per-call overhead of a model partitioned over 8 devices against ``jax.jit``
with the same shardings, side by side in one run.

    .venv/bin/python benchmarks/bench_sharded.py                 # a few seconds
    .venv/bin/python benchmarks/bench_sharded.py --rounds 5 --calls 50

The program is the builder's mixed-precision layer (bf16 activations, int8 weights with f32
scales, an f16 bias; ``x @ (w_q * scale) + bias``, ReLU) on a 4x2 mesh of host CPU devices
(``XLA_FLAGS=--xla_force_host_platform_device_count=8``, set here before jax is imported
unless the environment already asks for a device count). Both sides run the same partitioned
computation (checked bit for bit first), so the difference is each side's per-call work:
checking and placing the arguments, dispatching, and gathering the results. Two paths:

1. NumPy in, NumPy out: ``model(*arrays)`` against ``np.asarray(jax.jit(f, ...)(*arrays))``;
2. ``jax.Array`` s laid out as the model expects in, ``jax.Array`` s out:
   ``model(*placed, return_arrays=True)`` against ``jitted(*placed)`` (both waited on).

The two sides alternate, round by round, in one process; each ratio is the median of the
per-round ratios of medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import Any, Sequence

DEVICES = 8
_FLAG = "--xla_force_host_platform_device_count"
if _FLAG not in os.environ.get("XLA_FLAGS", "") and "JAX_NUM_CPU_DEVICES" not in os.environ:
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_FLAG}={DEVICES}".strip()
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_runtime import alternate, per_call_us, ratio  # noqa: E402  (one home for the timing helpers)

NOTE = ("note: the 8 devices are virtual CPU devices sharing this machine's cores (2 on the project's "
        "machines), so wall time says nothing about how the program scales with devices; only the "
        "ratio to jax.jit, measured in the same run on the same partitioned computation, is meaningful.")


def row(name: str, value: str, note: str = "") -> None:
    print(f"  {name:<66} {value:>12}  {note}")


def layer() -> tuple[Any, Any, list[np.ndarray], list[Any]]:
    """The mesh (4x2 of this process's first 8 CPU devices), the builder's mixed-precision layer compiled on
    it, its NumPy arguments, and the same placed as the model expects them (``before_after.py`` measures
    latticecast's side of this benchmark with it too)."""
    import jax
    from jax.sharding import AxisType

    from latticecast.demo import build_sharded_layer

    mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2,
                         devices=jax.devices("cpu")[:DEVICES])
    model = build_sharded_layer("jax", mesh).compile()
    arrays = [np.asarray(np.random.default_rng(i).standard_normal(t.shape)).astype(t.np_dtype)
              for i, t in enumerate(model.input_types)]
    placed = [jax.device_put(a, s) for a, s in zip(arrays, model.input_shardings)]
    return mesh, model, arrays, placed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds (default 9)")
    parser.add_argument("--calls", type=int, default=100, help="calls per side per round (default 100)")
    args = parser.parse_args(argv)

    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    if len(jax.devices("cpu")) < DEVICES:
        print(f"bench_sharded: needs {DEVICES} CPU devices, this process has {len(jax.devices('cpu'))}; run it "
              f"with XLA_FLAGS={_FLAG}={DEVICES}", file=sys.stderr)
        return 2
    mesh, model, arrays, placed = layer()
    specs = (("data", "model"), ("model", None), ("model", None), ("data", None))
    jitted = jax.jit(lambda x, w_q, scale, bias: jnp.maximum(x @ (w_q * scale) + bias, 0),
                     in_shardings=[NamedSharding(mesh, P(*s)) for s in specs],
                     out_shardings=NamedSharding(mesh, P("data", None)))
    ours, theirs = model(*arrays)[0], np.asarray(jitted(*arrays))
    if ours.tobytes() != theirs.tobytes():
        print("bench_sharded: latticecast and jax.jit disagree; not timing", file=sys.stderr)
        return 1

    def lc_numpy() -> float:
        return per_call_us(lambda: model(*arrays), args.calls)

    def jx_numpy() -> float:
        return per_call_us(lambda: np.asarray(jitted(*arrays)), args.calls)

    def lc_arrays() -> float:
        return per_call_us(lambda: model(*placed, return_arrays=True)[0].block_until_ready(), args.calls)

    def jx_arrays() -> float:
        return per_call_us(lambda: jitted(*placed).block_until_ready(), args.calls)

    fns = [lc_numpy, jx_numpy, lc_arrays, jx_arrays]
    for fn in fns:  # warm up: first calls, the dispatcher's caches
        fn()
    lcn, jxn, lca, jxa = alternate(fns, args.rounds)
    shapes = ", ".join(str(t) for t in model.input_types)
    print(f"sharded per-call overhead: the mixed-precision layer ({shapes}) on a 4x2 mesh of {DEVICES} CPU "
          f"devices, against jax.jit with the same shardings ({args.rounds} rounds x {args.calls} calls, medians)")
    print(f"  results identical to jax.jit, bit for bit: yes; partitioned HLO has "
          f"{model.executable.hlo_modules()[0].to_string().count(' all-reduce(')} all-reduce(s)")
    row("(1) latticecast model(*numpy) -> NumPy", f"{statistics.median(lcn):8.1f} us")
    row("    jax: np.asarray(jitted(*numpy))", f"{statistics.median(jxn):8.1f} us")
    row("    ratio latticecast / jax.jit", f"{ratio(lcn, jxn):8.2f} x")
    row("(2) latticecast model(*placed, return_arrays=True) -> jax.Array", f"{statistics.median(lca):8.1f} us")
    row("    jax: jitted(*placed)", f"{statistics.median(jxa):8.1f} us")
    row("    ratio latticecast / jax.jit", f"{ratio(lca, jxa):8.2f} x")
    print(NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
