"""MAX's import surface: ``from latticecast.max import DType, DeviceRef, Graph, TensorType, ops``.

A program written for Modular MAX 26.7 the way MAX's documentation writes it
(``from max.graph import DeviceRef, Graph, TensorType, ops`` and
``from max.dtype import DType``) builds under latticecast with only those import lines
changed: every name here means what MAX's means (see "The graph builder in MAX's terms" in
docs/guide.rst for the few deliberate refusals). ``Weight`` is MAX's too: a named tensor whose value the engine
supplies at load time (:mod:`latticecast.graph.weight`). The graph runs as MAX runs it,
``InferenceSession(devices=[CPU()]).load(graph, weights_registry=...).execute(...)``, with
:mod:`latticecast.max.engine` and :mod:`latticecast.max.driver` in place of ``max.engine`` and
``max.driver``; or with latticecast's ``g.compile()`` (``model(*arrays)`` returns NumPy arrays).

The spelling ``latticecast.max`` mirrors ``max.graph`` + ``max.dtype`` in one import,
and reads as "latticecast's MAX"; MAX itself is never imported (its ``DType``,
``DeviceRef`` and ``TensorType`` objects are accepted duck-typed where latticecast's are).

:class:`Graph` here differs from :class:`latticecast.Graph` in one thing: a MAX program
names no promotion policy, so its default is MAX's own, ``"max-python"`` (MAX 26.7's
``max.graph`` as measured: it never widens, refuses what it cannot convert exactly, and
divides two integers in float64), where :class:`latticecast.Graph` defaults to ``"jax"``.
``policy=`` still picks any other (``"max"`` is the promotion table MAX published before).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .. import ops
from ..device_ref import DeviceKind, DeviceRef
from ..dims import AlgebraicDim, Dim, Shape, StaticDim, SymbolicDim
from ..dtypes import DType as _DType
from ..graph import Graph as _Graph
from ..graph import Value
from ..graph.graph import KernelLibrary
from ..graph.ops.operands import as_value, graph_of
from ..graph.weight import Weight
from ..graph.weight_sharding import (Segment, ShardingStrategy, axiswise_sharding_strategy, col_sharding_strategy,
                                     expert_parallel_sharding_strategy, gate_up_sharding_strategy,
                                     head_aware_col_sharding_strategy, replicate_sharding_strategy,
                                     row_sharding_strategy, segmented_sharding_strategy,
                                     stacked_qkv_sharding_strategy, tensor_parallel_sharding_strategy)
from ..policies import Policy, policy
from ..graph.value import BufferValue
from ..tensor_type import BufferType, ConvInputLayout, FilterLayout, TensorType, Type

__all__ = ["AlgebraicDim", "BufferType", "BufferValue", "Type", "DType", "DeviceKind", "DeviceRef", "Dim", "Graph", "KernelLibrary", "Shape", "StaticDim",
           "SymbolicDim", "TensorType", "TensorValue", "Value",
           "Weight", "ops", "MAX_POLICY", "default_policy",
           "Segment", "ShardingStrategy", "axiswise_sharding_strategy", "col_sharding_strategy",
           "expert_parallel_sharding_strategy", "gate_up_sharding_strategy", "head_aware_col_sharding_strategy",
           "replicate_sharding_strategy", "row_sharding_strategy", "segmented_sharding_strategy",
           "stacked_qkv_sharding_strategy", "tensor_parallel_sharding_strategy", "FilterLayout", "ConvInputLayout"]

MAX_POLICY = "max-python"
"""The policy that reproduces MAX 26.7's promotion (``max.graph`` as measured)."""


class _MaxDTypes(type):
    """``DType`` as MAX's enum: iterating gives MAX 26.7's 21 members only; everything else is
    :class:`latticecast.DType`'s (``DType.float32`` *is* latticecast's member)."""

    def __iter__(cls) -> Any:
        return iter(policy(MAX_POLICY).dtypes)

    def __len__(cls) -> int:
        return len(policy(MAX_POLICY).dtypes)

    def __contains__(cls, item: object) -> bool:
        return item in policy(MAX_POLICY).dtypes

    def __getattr__(cls, name: str) -> Any:
        return getattr(_DType, name)

    def __getitem__(cls, name: str) -> _DType:
        return _DType[name]

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return _DType(*args, **kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _DType)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _DType)

    def __repr__(cls) -> str:
        return "<enum 'DType'>"


class DType(metaclass=_MaxDTypes):
    """MAX's ``max.dtype.DType``: latticecast's :class:`~latticecast.DType` whose iteration (``for d in
    DType``, ``len(DType)``) gives the 21 dtypes MAX 26.7 has, as a MAX program (or MAX's test suite)
    enumerating dtypes expects; ``DType.float32`` and every method are latticecast's."""


class _ValueType(type):
    """``isinstance(v, TensorValue)`` holds for every graph value (they are all tensors here) and, as in
    MAX, for every :class:`Weight`."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, (Value, Weight))

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, (Value, Weight))


class TensorValue(metaclass=_ValueType):
    """MAX's ``TensorValue``: ``TensorValue(x)`` is ``x`` as a value of its graph (a NumPy array becomes a
    constant of the current graph; a Python scalar is refused, as in MAX), and every graph value is an
    instance. The values themselves are :class:`latticecast.Value`."""

    def __new__(cls, value: Any) -> Value:  # type: ignore[misc]  # MAX's constructor gives a graph value
        return as_value(value, graph_of(value))


def default_policy() -> str:
    """The policy a MAX program gets when it names none: :data:`MAX_POLICY`."""
    return MAX_POLICY


class Graph(_Graph):
    """:class:`latticecast.Graph` with MAX's promotion as the default policy (see the module)."""

    def __init__(self, name: str, forward: Callable[..., Any] | None = None, input_types: Iterable[Any] = (),
                 path: Any = None, *args: Any, policy: "str | Policy | None" = None, **kwargs: Any) -> None:
        super().__init__(name, forward, input_types, path, *args,
                         policy=default_policy() if policy is None else policy, **kwargs)


from . import dtype_promotion  # noqa: E402  # MAX's max.graph.dtype_promotion (it builds on this module's names)
