"""Several hosts: 2 processes x 4 CPU devices on 127.0.0.1, joined by ``jax.distributed``, run one
program partitioned 8 ways (JAX's module and the builder's) through ``latticecast.compile``, and get
``jax.jit``'s result, bit for bit. Bounded in time: a hung coordinator fails the test, never the run."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

WORKER = Path(__file__).with_name("multihost_worker.py")
TIMEOUT = 240


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_of_four_devices_run_one_program_of_eight() -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_NUM_CPU_DEVICES", "LATTICECAST_TEST_DEVICES")}
    env.update(XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
    procs = [subprocess.Popen([sys.executable, str(WORKER), str(i), str(port)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(2)]
    deadline = time.monotonic() + TIMEOUT
    results = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
            assert p.returncode == 0, f"worker exited with {p.returncode}:\n{out[-3000:]}\n{err[-5000:]}"
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert sorted(r["process"] for r in results) == [0, 1]
    for r in results:
        assert r["global_devices"] == 8 and r["local_devices"] == 4, r
        assert len(r["model_devices"]) == 8 and r["model_devices"] == results[0]["model_devices"], r
        assert r["builder_devices"] == r["model_devices"], r
        assert r["jax_module_bitwise"] and r["arrays_bitwise"] and r["builder_bitwise"], r
        assert r["arrays_out_fully_addressable"] is False, r  # half of each output lives in the other process
