"""The graph builder's ops, as functions: ``latticecast.ops.exp(x)``, ``latticecast.ops.where(c, x, y)``."""

from .graph.ops import *  # noqa: F401,F403
from .graph.ops import __all__  # noqa: F401
