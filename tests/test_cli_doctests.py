"""The examples in the docstrings of the command line's picture, table and progress modules run (the
documentation's doctest build runs only the pages' own; these modules are not on a page)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("latticecast.cli.drawing", "latticecast.cli.svg_layout", "latticecast.cli.render_graph",
           "latticecast.cli.html_page", "latticecast.cli.table_view", "latticecast.cli.table_diff",
           "latticecast.cli.lattice_cmd", "latticecast.cli.progress", "latticecast.cli.opt.driver",
           "latticecast.cli.opt.registered", "latticecast.demo")


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0, result
