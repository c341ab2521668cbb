"""MAX's ``m`` dialect (``max._core.dialects.m``): MAX's own graph IR, which latticecast does not emit (its
graphs are StableHLO). The module loads, so MAX code that imports it runs; each of its names raises an
``AttributeError`` saying so.

Example:
    >>> from latticecast.max._core.dialects import m
    >>> m.TensorType
    Traceback (most recent call last):
    ...
    AttributeError: max._core.dialects.m.TensorType is MAX's own IR ...
"""

from ._absent import absent

__getattr__ = absent(__name__)
