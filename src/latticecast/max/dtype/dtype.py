"""MAX's ``max.dtype.DType``: latticecast's :class:`~latticecast.DType`, iterated as MAX 26.7's 21 members.

Example:
    >>> from latticecast.max.dtype.dtype import DType
    >>> DType.float32 in DType, [d.name for d in DType][:3]
    (True, ['bool', 'int8', 'int16'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...promotion.dtypes import DType as _DType
from ...policies import policy

__all__ = ["DType", "MAX_POLICY"]

MAX_POLICY = "max-python"
"""The policy that reproduces MAX 26.7's promotion (``max.graph`` as measured): the default of a MAX program's
:class:`~latticecast.max.graph.Graph`, and the one whose dtypes are MAX's."""


class _MaxDTypes(type):
    """``DType`` as MAX's enum: iterating gives MAX 26.7's 21 members only; everything else is
    :class:`latticecast.DType`'s (``DType.float32`` *is* latticecast's member)."""

    def __iter__(cls) -> Iterator[_DType]:
        return iter(policy(MAX_POLICY).dtypes)

    def __len__(cls) -> int:
        return len(policy(MAX_POLICY).dtypes)

    def __contains__(cls, item: object) -> bool:
        return item in policy(MAX_POLICY).dtypes

    def __getattr__(cls, name: str) -> object:
        return getattr(_DType, name)

    def __getitem__(cls, name: str) -> _DType:
        return _DType[name]

    def __call__(cls, value: object) -> _DType:
        return _DType(value)

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _DType)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _DType)

    def __repr__(cls) -> str:
        return "<enum 'DType'>"


if TYPE_CHECKING:  # to a type checker it is latticecast's DType: its members and methods are
    DType = _DType
else:
    class DType(metaclass=_MaxDTypes):
        """MAX's ``max.dtype.DType``: latticecast's :class:`~latticecast.DType` whose iteration (``for d in
        DType``, ``len(DType)``) gives the 21 dtypes MAX 26.7 has, as a MAX program (or MAX's test suite)
        enumerating dtypes expects; ``DType.float32`` and every method are latticecast's."""
