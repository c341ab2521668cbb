"""The refusal of the names of MAX's own dialects (``m``, ``mo``, ``mosh``, ``rmo``)."""

from __future__ import annotations

from typing import Callable, NoReturn


def absent(module: str) -> Callable[[str], NoReturn]:
    """A module ``__getattr__`` whose every name raises ``AttributeError`` naming it and why it is absent."""
    short = module.rsplit(".", 1)[-1]

    def __getattr__(name: str) -> NoReturn:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"max._core.dialects.{short}.{name} is MAX's own IR ({short} dialect): latticecast "
                             "builds StableHLO, which has no such op, type or attribute; build the graph with "
                             "latticecast.max.graph.ops, and read types with TensorType.from_mlir")
    return __getattr__
