# -*- Python -*-
"""lit configuration for latticecast's FileCheck tests.

Tests are ``.mlir`` files (RUN lines drive ``latticecast-opt``) and ``.py`` files
(RUN lines run the file with ``%python`` and FileCheck what it prints). Every tool
is found next to the Python running lit (``sys.executable``), so the suite runs
the same from ``python3 dev.py test``, ``.venv/bin/lit`` or ``python -m lit`` in
any fresh virtual environment, without anything on PATH:

* ``latticecast-opt``: the console script, or ``python -m latticecast.cli.opt``;
* ``FileCheck`` (and ``filecheck``): the PyPI ``filecheck`` package, under the name
  MLIR's tests use;
* ``%python``: that Python;
* ``not``: lit's internal shell implements it (``ShTest(execute_external=False)``),
  on every platform, so no helper is needed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile

import lit.formats

config.name = "latticecast"  # noqa: F821 (lit provides `config`)
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Keep lit's Output/ directories (%t) out of the source tree.
_tag = hashlib.sha256(config.test_source_root.encode()).hexdigest()[:12]
config.test_exec_root = os.path.join(tempfile.gettempdir(), f"latticecast-lit-{_tag}")

_bin = os.path.dirname(sys.executable)


def _quote(path: str) -> str:
    return f'"{path}"' if any(c.isspace() for c in path) else path


def _tool(script: str, module: str) -> str:
    """The console script ``script`` next to this Python, else ``python -m module``."""
    found = shutil.which(script, path=_bin)
    if found:
        return _quote(found)
    return f"{_quote(sys.executable)} -m {module}"


def _word(name: str) -> str:
    """A substitution pattern for ``name`` as a whole command word (not inside a path)."""
    return r"(?<![\w./\\-])" + name.replace("-", r"\-") + r"(?![\w.-])"


_python = _quote(sys.executable)
config.substitutions.append(("%python", _python))
config.substitutions.append(("%latticecast", _tool("latticecast", "latticecast.cli")))
config.substitutions.append((_word("latticecast-opt"), _tool("latticecast-opt", "latticecast.cli.opt")))
config.substitutions.append((_word("FileCheck"), _tool("filecheck", "filecheck")))
config.substitutions.append((_word("filecheck"), _tool("filecheck", "filecheck")))

# Python tests import latticecast from the same environment; keep JAX quiet and on the CPU.
for var in ("HOME", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "PYTHONPATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["JAX_PLATFORMS"] = "cpu"
config.environment["PYTHONIOENCODING"] = "utf-8"
