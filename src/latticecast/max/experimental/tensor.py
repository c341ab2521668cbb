"""MAX's ``max.experimental.tensor``: the eager ``Tensor``, refused (see :mod:`latticecast.max.experimental`).

Example:
    >>> from latticecast.max.experimental import tensor
    >>> tensor.Tensor.__name__
    'Tensor'
"""

from __future__ import annotations

from typing import NoReturn

from ...errors import UnsupportedOpError

__all__ = ["Tensor"]


class Tensor:
    """MAX's eager tensor: refused. Build a graph (``latticecast.max.graph``) and run it with
    ``InferenceSession``, or hold host data in a ``latticecast.max.driver.Buffer``.

    Raises:
        UnsupportedOpError: Always.
    """

    def __new__(cls, *args: object, **kwargs: object) -> NoReturn:
        raise UnsupportedOpError("max.experimental.tensor.Tensor is MAX's eager tensor API, which latticecast does "
                                 "not provide: build a graph with latticecast.max.graph and run it with "
                                 "InferenceSession, or hold host data in latticecast.max.driver.Buffer")
