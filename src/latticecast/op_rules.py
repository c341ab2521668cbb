"""Each op's promotion rule (``UNARY``, ``STABLEHLO``, :func:`decide`): ``latticecast.op_rules``, the path the documentation gave, kept as a re-export.

Their home is :mod:`latticecast.promotion.op_rules`; this module only names it.
"""

from .promotion.op_rules import *  # noqa: F401,F403
from .promotion.op_rules import __all__  # noqa: F401
