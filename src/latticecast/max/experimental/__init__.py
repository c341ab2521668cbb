"""MAX's ``max.experimental``: its eager ``Tensor`` API, outside the graph API latticecast mirrors. The modules
load (MAX code that imports them runs); using their names raises, saying what to write instead.

Example:
    >>> from latticecast.max.experimental.tensor import Tensor
    >>> Tensor([1.0], dtype=None)
    Traceback (most recent call last):
    ...
    latticecast.errors.UnsupportedOpError: max.experimental.tensor.Tensor is MAX's eager tensor API ...
"""
