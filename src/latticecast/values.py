"""Whether a value fits a dtype, and whether a conversion loses magnitude or precision: ``latticecast.values``, the path the documentation gave, kept as a re-export.

Their home is :mod:`latticecast.promotion.value_fit`; this module only names it.
"""

from .promotion.value_fit import *  # noqa: F401,F403
from .promotion.value_fit import __all__  # noqa: F401
