"""``python -m latticecast.cli.opt``: the same as the ``latticecast-opt`` command."""

import sys

from . import main

sys.exit(main())
