"""The graph builder's ops, as functions: ``latticecast.ops.exp(x)``, ``latticecast.ops.where(c, x, y)``.

MAX's op submodules are here under MAX's names too: ``ops.random`` (seeded random tensors),
``ops.complex`` (complex numbers as (real, imag) pairs), ``ops.elementwise`` and ``ops.reduction``
(where ``ops.elementwise.max(x, y)`` and ``ops.reduction.max(x, axis)`` live in MAX).
"""

from .graph.ops import *  # noqa: F401,F403
from .graph.ops import __all__  # noqa: F401
from .graph.ops import complex, elementwise, random, reduction  # noqa: F401,A004  # MAX's op submodules
