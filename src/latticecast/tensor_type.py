"""The graph's types (``TensorType``, ``BufferType``, ...): ``latticecast.tensor_type``, the path the documentation gave, kept as a re-export.

Their home is :mod:`latticecast.promotion.tensor_type`; this module only names it.
"""

from .promotion.tensor_type import *  # noqa: F401,F403
from .promotion.tensor_type import __all__  # noqa: F401
