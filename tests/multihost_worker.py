"""One process of ``tests/test_multihost.py``: 4 CPU devices of a 2-process, 8-device program.

    XLA_FLAGS=--xla_force_host_platform_device_count=4 python tests/multihost_worker.py PROCESS_ID PORT

Every process does the same: ``jax.distributed.initialize`` first (before anything compiles), then
compile the same modules over the global devices with ``latticecast.compile`` and run them, each
process passing the same global NumPy arrays (each sends only its own devices' tiles). It prints one
JSON line of findings; the test compares them with ``jax.jit`` in the same processes, bit for bit.
"""

from __future__ import annotations

import json
import sys


def main(process_id: int, port: int) -> None:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.experimental import multihost_utils
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(coordinator_address=f"127.0.0.1:{port}", num_processes=2, process_id=process_id,
                               initialization_timeout=60, heartbeat_timeout_seconds=30, shutdown_timeout_seconds=30)
    import ml_dtypes

    import latticecast as lc
    from latticecast import DType, Graph, TensorType, ops

    report: dict = {"process": jax.process_index(), "global_devices": len(jax.devices()),
                    "local_devices": len(jax.local_devices())}
    mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    s = {name: NamedSharding(mesh, P(*spec)) for name, spec in
         (("x", ("data", "model")), ("w", ("model", None)), ("b", ("data", None)), ("rep", ()))}
    rng = np.random.default_rng(0)  # the same seed everywhere: every process holds the same global arrays
    x = rng.standard_normal((16, 64)).astype(ml_dtypes.bfloat16)
    w = rng.standard_normal((64, 32)).astype(np.float32)
    b = rng.standard_normal((16, 32)).astype(np.float16)

    def layer(x, w, b):
        return jnp.maximum(x @ w + b, 0)

    # the reference: jax.jit in these processes, gathered
    jitted = jax.jit(layer, in_shardings=(s["x"], s["w"], s["b"]), out_shardings=s["b"])
    placed = [jax.make_array_from_callback(a.shape, sh, lambda i, a=a: a[i]) for a, sh in zip((x, w, b), (s["x"], s["w"], s["b"]))]
    want = np.asarray(multihost_utils.process_allgather(jitted(*placed), tiled=True))

    # JAX's module, compiled by latticecast over the global devices
    model = lc.compile(jitted.lower(*placed).as_text())
    report["model_devices"] = [d.id for d in model.devices]
    (got,) = model(x, w, b)                                   # NumPy in; NumPy out, gathered across processes
    report["jax_module_bitwise"] = got.tobytes() == want.tobytes()
    (arr,) = model(*placed, return_arrays=True)               # jax.Arrays in (no copy) and out
    report["arrays_out_fully_addressable"] = arr.is_fully_addressable
    report["arrays_bitwise"] = all(np.asarray(sh.data).tobytes() == want[sh.index].tobytes()
                                   for sh in arr.addressable_shards)

    # the builder's layer over the same global mesh
    with Graph("layer", input_types=[TensorType(DType.bfloat16, [16, 64], sharding=P("data", "model")),
                         TensorType(DType.float32, [64, 32], sharding=P("model", None)),
                         TensorType(DType.float16, [16, 32], sharding=P("data", None))], mesh=mesh) as g:
        gx, gw, gb = g.inputs
        g.output(ops.maximum(gx @ gw + gb, 0), shardings=[P("data", None)])
    built = g.compile()
    report["builder_devices"] = [d.id for d in built.devices]
    report["builder_bitwise"] = built(x, w, b)[0].tobytes() == want.tobytes()
    print(json.dumps(report), flush=True)
    jax.distributed.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
