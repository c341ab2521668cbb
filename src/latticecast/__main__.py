"""``python -m latticecast``: the same as the ``latticecast`` command."""

import sys

from .cli.main import main

if __name__ == "__main__":
    sys.exit(main())
