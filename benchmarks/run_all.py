"""Run every benchmark in one go: ``python3 dev.py bench`` (arguments are not forwarded)."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

for script in ("bench_graph.py", "bench_runtime.py", "bench_jax_module.py", "bench_sharded.py"):
    print(f"\n### {script}\n", flush=True)
    code = subprocess.call([sys.executable, str(HERE / script)])
    if code:
        sys.exit(code)
