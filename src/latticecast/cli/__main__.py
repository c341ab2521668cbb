"""``python -m latticecast.cli``: the same as the ``latticecast`` command."""

import sys

from .main import main

sys.exit(main())
