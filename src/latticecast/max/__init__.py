"""MAX's module tree: a MAX program runs after ``max.`` becomes ``latticecast.max.`` in its imports.

``latticecast.max.graph`` (with ``graph.ops`` and its submodules, ``graph.type``, ``graph.value``,
``graph.weight``, ``graph.weights``, ``graph.quantization``, ``graph.dim``), ``latticecast.max.dtype``,
``latticecast.max.driver``, ``latticecast.max.engine`` and ``latticecast.max.nn`` are MAX 26.7's modules
under MAX's names (``tests/data/max_tree_26_7.json`` records MAX's tree and ``tests/test_max_tree.py``
compares them). This package also holds the most used names in one import:
``from latticecast.max import DType, DeviceRef, Graph, TensorType, ops``.

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

from . import dtype, graph  # noqa: A004  # MAX's module names
from .dtype import DType
from .dtype.dtype import MAX_POLICY
from .graph import (AlgebraicDim, BufferType, BufferValue, DeviceKind, DeviceRef, Dim, Graph, KernelLibrary, Shape,
                    StaticDim, SymbolicDim, TensorType, TensorValue, Type, Value, Weight, dtype_promotion, ops)
from .graph.graph import default_policy
from .graph.weight import (Segment, ShardingStrategy, axiswise_sharding_strategy, col_sharding_strategy,
                           expert_parallel_sharding_strategy, gate_up_sharding_strategy,
                           head_aware_col_sharding_strategy, replicate_sharding_strategy, row_sharding_strategy,
                           segmented_sharding_strategy, stacked_qkv_sharding_strategy,
                           tensor_parallel_sharding_strategy)
from ..promotion.tensor_type import ConvInputLayout, FilterLayout

import sys as _sys  # noqa: E402
_sys.modules[f"{__name__}.dtype_promotion"] = dtype_promotion  # the import path of earlier releases still works

__all__ = ["AlgebraicDim", "BufferType", "BufferValue", "Type", "DType", "DeviceKind", "DeviceRef", "Dim", "Graph",
           "KernelLibrary", "Shape", "StaticDim", "SymbolicDim", "TensorType", "TensorValue", "Value",
           "Weight", "ops", "MAX_POLICY", "default_policy", "dtype", "dtype_promotion", "graph",
           "Segment", "ShardingStrategy", "axiswise_sharding_strategy", "col_sharding_strategy",
           "expert_parallel_sharding_strategy", "gate_up_sharding_strategy", "head_aware_col_sharding_strategy",
           "replicate_sharding_strategy", "row_sharding_strategy", "segmented_sharding_strategy",
           "stacked_qkv_sharding_strategy", "tensor_parallel_sharding_strategy", "FilterLayout", "ConvInputLayout"]
