"""The errors a user of the promotion layer sees; each one says how to fix the program."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .dtypes import DType
    from .weak import PType

__all__ = ["PromotionError", "LiteralRangeError", "UnknownPolicyError", "GraphError", "NoCurrentGraphError"]


class PromotionError(TypeError):
    """An implicit promotion the policy does not define.

    ``lhs``, ``rhs`` and ``policy`` say which promotion failed; ``cast_to`` is the
    dtype an explicit cast could target to make the program legal (``None`` when
    there is no sensible suggestion).
    """

    def __init__(self, message: str, *, lhs: "PType | None" = None, rhs: "PType | None" = None,
                 policy: str | None = None, cast_to: "DType | None" = None) -> None:
        super().__init__(message)
        self.lhs = lhs
        self.rhs = rhs
        self.policy = policy
        self.cast_to = cast_to


class LiteralRangeError(PromotionError, OverflowError):
    """A Python literal that its promoted dtype cannot represent (``1000`` as ``int8``).

    A ``TypeError`` like every :class:`PromotionError`, and an ``OverflowError`` as
    JAX and NumPy raise for the same mistake.
    """


class UnknownPolicyError(KeyError, ValueError):
    """A policy name that is not registered. The message lists the registered names."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class GraphError(ValueError):
    """A graph used the wrong way: no output, a value from another graph, a closed graph, a bad
    shape or axis. The message says which, and what to write instead."""


class NoCurrentGraphError(GraphError, LookupError):
    """An op needed the graph being built (``Graph.current``) outside every ``with Graph(...)`` block.

    A :class:`GraphError`, and a ``LookupError`` as MAX raises for the same mistake, so code
    written for MAX catches it unchanged."""
