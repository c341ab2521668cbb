"""MAX's ``max.graph.graph``: :class:`Graph` with MAX's promotion as its default policy, and ``KernelLibrary``.

A MAX program names no promotion policy, so a graph built through ``latticecast.max`` gets MAX's own,
``"max-python"`` (MAX 26.7's ``max.graph`` as measured: it never widens, refuses what it cannot convert
exactly, and divides two integers in float64), where :class:`latticecast.Graph` defaults to ``"jax"``.
``policy=`` still picks any other.

Example:
    >>> from latticecast.max.dtype import DType
    >>> from latticecast.max.graph import Graph, TensorType
    >>> Graph("g", input_types=[TensorType(DType.int8, [2])]).policy.name
    'max-python'
"""

from __future__ import annotations

import enum
import traceback
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from jaxlib.mlir import ir

from ...graph import Graph as _Graph
from ...graph.graph import InputType, KernelLibrary
from ...policies import Policy
from ..dtype.dtype import MAX_POLICY

if TYPE_CHECKING:
    from ...promotion.tensor_type import BufferType, TensorType

__all__ = ["DevicePlacementPolicy", "Graph", "KernelLibrary", "MAX_POLICY", "default_policy"]


class DevicePlacementPolicy(enum.Enum):
    """MAX's report of an op that moves a tensor to the CPU because it has only a CPU kernel: ``Ignore``,
    ``Warn`` (MAX's default) or ``Error``. XLA compiles every op for the graph's own device, so latticecast
    never moves a tensor implicitly and the policy has nothing to report; ``Graph`` keeps it
    (``graph.strict_device_placement``).

    Example:
        >>> from latticecast.max.graph import DevicePlacementPolicy
        >>> DevicePlacementPolicy("error") is DevicePlacementPolicy.Error
        True
    """

    Ignore = "ignore"
    Warn = "warn"
    Error = "error"


def _location(ignore_frames: int = 1) -> ir.Location:
    """MAX's location of an op being built: the Python call stack's innermost caller frame (``file:line``), or
    ``unknown`` when the stack is empty. Needs a current MLIR context, as MAX's.

    Args:
        ignore_frames: Frames to skip below this function's caller.

    Returns:
        The ``ir.Location``.

    Raises:
        RuntimeError: No MLIR context is current (MAX's message).

    Example:
        >>> from latticecast.max.graph import Graph
        >>> with Graph("g") as g:
        ...     str(_location()).startswith("loc(")
        True
    """
    from ...graph.current import current_graph
    try:
        context = ir.Context.current
    except ValueError:
        context = None
    if context is None:
        try:
            context = current_graph().context
        except LookupError:
            raise RuntimeError("Can't create location: No MLIR context active") from None
    stack = traceback.extract_stack()[: -(ignore_frames + 1)]
    if not stack:
        return ir.Location.unknown(context=context)
    frame = stack[-1]
    return ir.Location.file(frame.filename, frame.lineno or 0, 1, context=context)


def default_policy() -> str:
    """The policy a MAX program gets when it names none: :data:`MAX_POLICY`.

    Returns:
        The policy's name.

    Example:
        >>> from latticecast.max.graph.graph import default_policy
        >>> default_policy()
        'max-python'
    """
    return MAX_POLICY


class Graph(_Graph):
    """:class:`latticecast.Graph` with MAX's promotion as the default policy (see the module), and MAX's
    handling of bool arithmetic: ``x - y`` of two bools builds, and compiling the graph then fails with MAX's
    words (:data:`~latticecast.errors.MAX_COMPILE_FAILURE`)."""

    defers_refusals_to_compile = True

    strict_device_placement: DevicePlacementPolicy
    """MAX's :class:`DevicePlacementPolicy` (nothing to decide here: no op moves a tensor implicitly)."""

    def __init__(self, name: str, forward: Callable[..., object] | None = None, input_types: Iterable[InputType] = (),
                 path: object = None, *args: object, policy: "str | Policy | None" = None,
                 strict_device_placement: DevicePlacementPolicy = DevicePlacementPolicy.Warn, **kwargs: Any) -> None:  # Any: Graph's keywords, forwarded
        self.strict_device_placement = DevicePlacementPolicy(strict_device_placement)
        super().__init__(name, forward, input_types, path, *args,
                         policy=default_policy() if policy is None else policy, **kwargs)
