"""The package's names as tools see them: ``dir(latticecast)`` lists the lazily imported ones too."""

import subprocess
import sys

import latticecast


def test_dir_lists_every_public_name() -> None:
    assert set(latticecast.__all__) <= set(dir(latticecast))


def test_dir_imports_nothing_lazy() -> None:
    # dir() names the IR and runtime layers without loading them (jaxlib.mlir stays unimported)
    code = ("import sys, latticecast; names = dir(latticecast); "
            "assert 'Graph' in names and 'compile' in names; "
            "assert 'latticecast.graph' not in sys.modules and 'latticecast.runtime' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
