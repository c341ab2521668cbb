#!/usr/bin/env python3
"""Set up and run latticecast on a machine that has only Python and pip.

    python3 dev.py demo     # the main job: build a mixed-dtype graph, show the pass, run it
    python3 dev.py test     # every test: pytest, lit + FileCheck, then a bounded fixed-seed fuzz run
    python3 dev.py fuzz     # a long fuzz run of latticecast-opt and the Python API (fuzz/README.md)
    python3 dev.py bench    # the benchmarks in benchmarks/ (ratios against JAX)

Each command first makes ``.venv`` (once) and installs the package with its test
dependencies into it (again whenever pyproject.toml changes). Extra arguments go
to the underlying tool: ``python3 dev.py test -k lattice`` runs a subset of pytest.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".latticecast-installed"


def run(*cmd: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check).returncode


def ensure_env() -> None:
    """Create the virtual environment and install the package, unless already current."""
    if sys.version_info < (3, 10):
        sys.exit(f"latticecast needs Python 3.10 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want:
        return
    run(PY, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-e", ".[test]")
    STAMP.write_text(want)


# The bounded run that every `dev.py test` makes (fixed seeds, under two minutes here), and the
# long one of `dev.py fuzz`; both report findings in build/fuzz/ and fail on any.
BOUNDED_FUZZ = (["fuzz.opt_fuzz", "--seed", "0", "--iterations", "200", "--time-limit", "75", "--jobs", "2",
                 "--no-minimize", "--quiet", "--out", "build/fuzz/opt"],
                ["fuzz.api_fuzz", "--seed", "0", "--examples", "1000", "--time-limit", "60", "--no-shrink",
                 "--quiet", "--out", "build/fuzz/api"])
LONG_FUZZ = (["fuzz.opt_fuzz", "--seed", "1", "--iterations", "3000", "--time-limit", "1800", "--jobs", "2",
              "--out", "build/fuzz/opt-long"],
             ["fuzz.api_fuzz", "--seed", "1", "--examples", "3000", "--out", "build/fuzz/api-long"])


def fuzz(runs: tuple[list[str], ...], extra: list[str]) -> int:
    code = 0
    for args in runs:
        code = run(PY, "-m", *args, *extra, check=False) or code
    return code


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("demo", "test", "bench", "fuzz", "setup"):
        print(__doc__)
        return 2
    command, extra = argv[0], argv[1:]
    ensure_env()
    if command == "setup":
        return 0
    if command == "demo":
        return run(BIN / "latticecast", "demo", *extra, check=False)
    if command == "bench":
        return run(PY, "benchmarks/run_all.py", *extra, check=False)
    if command == "fuzz":
        return fuzz(LONG_FUZZ, extra)
    # test: pytest ("no tests collected", exit code 5, is a failure of the set-up, not a pass)
    code = run(PY, "-m", "pytest", *extra, check=False)
    if code == 5:
        print("pytest collected no tests: the test suite is missing", file=sys.stderr)
        return 1
    if code != 0:
        return code
    if extra:  # a pytest subset was asked for; lit runs only with the full suite
        return 0
    # lit from PyPI has no __main__ module (`python -m lit` fails): run its console script.
    lit = BIN / ("lit.exe" if os.name == "nt" else "lit")
    code = run(lit, "-sv", "lit_tests", check=False)
    if code:
        return code
    return fuzz(BOUNDED_FUZZ, [])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
