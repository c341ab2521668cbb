"""``python3 dev.py bench``: the table of performance targets, then the sharded-run overhead.

``targets.py`` measures every target of the performance issue side by side with JAX (and
MAX, with ``LATTICECAST_MAX_PYTHON``); ``bench_sharded.py`` measures a partitioned run
against ``jax.jit`` on 8 CPU devices; ``bench_startup.py`` the start-up of ``latticecast-opt``
against importing jaxlib's MLIR bindings. The other scripts here break single measurements
down further (``bench_graph.py``, ``bench_runtime.py``, ``bench_jax_module.py``); run them
directly. Arguments are forwarded to ``targets.py`` (``--quick``, ``--repeats N``).
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

import jax  # noqa: E402
import jaxlib  # noqa: E402

print(f"stack: Python {sys.version.split()[0]}, jax {jax.__version__}, jaxlib {jaxlib.__version__}", flush=True)
for script, args in (("targets.py", sys.argv[1:]), ("bench_sharded.py", []), ("bench_startup.py", [])):
    print(f"\n### {script}\n", flush=True)
    code = subprocess.call([sys.executable, str(HERE / script), *args])
    if code:
        sys.exit(code)
