"""Sphinx configuration of latticecast's API reference.

Build it with ``python3 dev.py docs`` (or ``sphinx-build -W --keep-going -b html docs build/docs``);
``python3 dev.py test`` builds it with warnings as errors and then runs its examples
(``sphinx-build -b doctest``). The policy tables and the command-line help are generated at
build time from the library itself (``_ext/latticecast_docs.py``), never copied by hand.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent / "src"))  # a checkout builds without an installed package too
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")  # no XLA INFO lines in the build's output

import latticecast  # noqa: E402

project = "latticecast"
author = "the latticecast authors"
copyright = "the latticecast authors; Apache-2.0"
release = version = latticecast.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "latticecast_docs",  # the policy tables and the CLIs' --help, generated from the library
]

exclude_patterns = ["_build"]
templates_path: list[str] = []
html_static_path = ["_static"]
html_css_files = ["latticecast.css"]
html_theme = "alabaster"
# wide enough for 100-column code blocks and the comparison pages; narrower windows shrink it
html_theme_options = {"page_width": "1240px", "sidebar_width": "230px", "body_max_width": "none"}
html_title = f"latticecast {release}"

# Google-style docstrings (Args:, Returns:, Raises:, Example:); no NumPy style.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_default_options = {"member-order": "bysource"}
# Signatures show the library's names for its argument types, not their expansions.
autodoc_type_aliases = {name: name for name in ("TensorValueLike", "DTypeLike", "DeviceRefLike", "DeviceLike",
                                                "ModuleSource", "CacheDir", "PType")}

# The doctest builder runs every ``>>>`` block of the pages and of the docstrings they show.
doctest_global_setup = """
import numpy as np
import latticecast as lc
"""
import doctest as _doctest  # noqa: E402
doctest_default_flags = (_doctest.ELLIPSIS | _doctest.NORMALIZE_WHITESPACE | _doctest.DONT_ACCEPT_TRUE_FOR_1
                         | _doctest.IGNORE_EXCEPTION_DETAIL)  # an error is checked by its class name
