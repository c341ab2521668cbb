"""MAX's weight sharding strategies (``max.graph.weight``): how a :class:`Weight` is cut into one piece per device.

A strategy is a function ``shard(weight, i, num_devices)`` giving device ``i``'s piece of the weight as
a graph value: a slice (``weight[start:end]``), or slices of several segments joined with ``concat``.
Sizes that do not divide evenly give the first ``size % num_devices`` devices one row (column, head)
more, as MAX does. :class:`ShardingStrategy` pairs such a function with the device count and answers
which kind it is (``is_rowwise``, ``sharded_axis`` ...).

The pieces are ordinary values of the graph being built (``stablehlo.slice`` and
``stablehlo.concatenate``); placing each on its device is the program's business (latticecast
compiles a graph for one device; a graph over a mesh shards a value with ``ops.shard``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable, Sequence, Union

from ..errors import GraphError

if TYPE_CHECKING:
    from .value import Value
    from .weight import Weight

__all__ = ["Segment", "ShardingStrategy", "axiswise_sharding_strategy", "col_sharding_strategy",
           "expert_parallel_sharding_strategy", "gate_up_sharding_strategy", "head_aware_col_sharding_strategy",
           "replicate_sharding_strategy", "row_sharding_strategy", "segmented_sharding_strategy",
           "shard_range", "stacked_qkv_sharding_strategy", "tensor_parallel_sharding_strategy"]

Shardable = Union["Weight", "Value"]
"""What a strategy shards: a :class:`~latticecast.max.Weight` (its value in the graph being built), or a value."""

ShardFunction = Callable[..., "Value"]
"""``shard(weight, i, num_devices)`` -> device ``i``'s piece (a graph value)."""


def shard_range(size: int, i: int, num_devices: int) -> tuple[int, int]:
    """The half-open range ``[start, end)`` of ``size`` items that device ``i`` of ``num_devices`` holds.

    The first ``size % num_devices`` devices hold one item more than the others (MAX's split).

    Args:
        size: How many items (rows, columns, heads) are split.
        i: The device's index, ``0 <= i < num_devices``.
        num_devices: How many devices share the items.

    Returns:
        ``(start, end)``.

    Example:
        >>> from latticecast.graph.weight_sharding import shard_range
        >>> [shard_range(10, i, 3) for i in range(3)]
        [(0, 4), (4, 7), (7, 10)]
    """
    base, extra = divmod(size, num_devices)
    start = i * base + min(i, extra)
    return start, start + base + (1 if i < extra else 0)


def _axis_slice(weight: Shardable, axis: int, start: int, end: int) -> Value:
    rank = len(weight.shape)
    index: list[slice] = [slice(None)] * rank
    index[axis] = slice(start, end)
    return weight[tuple(index)]


def row_sharding_strategy(weight: Shardable, i: int, num_devices: int) -> Value:
    """Device ``i``'s rows (axis 0) of ``weight``, split as evenly as possible over ``num_devices``.

    Args:
        weight: The :class:`~latticecast.max.Weight` (or any value) to shard.
        i: The device's index.
        num_devices: How many devices share the rows.

    Returns:
        The slice ``weight[start:end]`` of the graph being built.

    Example:
        >>> from latticecast.graph.weight_sharding import row_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [10, 5], DeviceRef.CPU())
        ...     [int(row_sharding_strategy(w, i, 3).shape[0]) for i in range(3)]
        [4, 3, 3]
    """
    start, end = shard_range(int(weight.shape[0]), i, num_devices)
    return weight[start:end]


def col_sharding_strategy(weight: Shardable, i: int, num_devices: int) -> Value:
    """Device ``i``'s columns (axis 1) of ``weight``, split as evenly as possible over ``num_devices``.

    Args:
        weight: The weight to shard.
        i: The device's index.
        num_devices: How many devices share the columns.

    Returns:
        The slice ``weight[:, start:end]``.

    Example:
        >>> from latticecast.graph.weight_sharding import col_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [2, 7], DeviceRef.CPU())
        ...     [int(col_sharding_strategy(w, i, 2).shape[1]) for i in range(2)]
        [4, 3]
    """
    start, end = shard_range(int(weight.shape[1]), i, num_devices)
    return weight[:, start:end]


def replicate_sharding_strategy(weight: Shardable, i: int, num_devices: int) -> Value:
    """The whole weight, for every device (``weight[:]``).

    Args:
        weight: The weight.
        i: The device's index (every device gets the same).
        num_devices: How many devices (unused).

    Returns:
        ``weight[:]``.

    Example:
        >>> from latticecast.graph.weight_sharding import replicate_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [2, 7], DeviceRef.CPU())
        ...     [int(d) for d in replicate_sharding_strategy(w, 1, 2).shape]
        [2, 7]
    """
    return weight[:]


def _packed_ratio(actual: int, logical: int) -> tuple[int, int]:
    """How logical slots map to stored ones: ``(numerator, denominator)`` (FP4 packs two per byte, MXFP6 four
    per three bytes)."""
    if actual * 2 == logical:
        return 1, 2
    if actual * 4 == logical * 3:
        return 3, 4
    return 1, 1


def head_aware_col_sharding_strategy(weight: Shardable, i: int, num_devices: int, num_heads: int, head_dim: int) -> Value:
    """Device ``i``'s columns of an attention output projection, split by whole heads.

    Heads are split as :func:`shard_range` splits items; device ``i`` gets the columns of its heads.
    A packed weight (FP4: half the logical columns; MXFP6: three quarters) is sliced at the packed
    positions of the same heads.

    Args:
        weight: The weight, ``[rows, num_heads * head_dim]`` (or packed).
        i: The device's index.
        num_devices: How many devices share the heads.
        num_heads: The number of attention heads.
        head_dim: The size of one head.

    Returns:
        ``weight[:, start:end]`` for device ``i``'s heads.

    Example:
        >>> from latticecast.graph.weight_sharding import head_aware_col_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("o", DType.float32, [6, 6], DeviceRef.CPU())
        ...     [int(head_aware_col_sharding_strategy(w, i, 2, 3, 2).shape[1]) for i in range(2)]
        [4, 2]
    """
    head_start, head_end = shard_range(num_heads, i, num_devices)
    num, den = _packed_ratio(int(weight.shape[1]), num_heads * head_dim)
    return weight[:, head_start * head_dim * num // den:head_end * head_dim * num // den]


@dataclass(frozen=True)
class Segment:
    """One contiguous region of a weight's sharded axis (see :func:`segmented_sharding_strategy`).

    Attributes:
        size: The region's extent along the axis (in logical slots).
        num_heads: ``None`` for a region split evenly; the number of heads for one split by whole heads
            (then ``size == num_heads * head_dim``).

    Example:
        >>> from latticecast.graph.weight_sharding import Segment
        >>> Segment.even(512)
        Segment(size=512, num_heads=None)
        >>> Segment.head_aware(8, 64).size
        512
        >>> Segment.head_aware(3, 2).shard_range(0, 2)
        (0, 4)
    """

    size: int
    num_heads: int | None

    @staticmethod
    def even(size: int) -> "Segment":
        """A region of ``size`` slots split as evenly as possible over the devices.

        Args:
            size: The region's extent.

        Returns:
            The :class:`Segment`.
        """
        return Segment(size=size, num_heads=None)

    @staticmethod
    def head_aware(num_heads: int, head_dim: int) -> "Segment":
        """A region of ``num_heads`` heads of ``head_dim`` slots, split by whole heads.

        Args:
            num_heads: The number of heads.
            head_dim: The size of one head.

        Returns:
            The :class:`Segment`.
        """
        return Segment(size=num_heads * head_dim, num_heads=num_heads)

    def shard_range(self, i: int, num_devices: int) -> tuple[int, int]:
        """Device ``i``'s ``(start, end)`` within this region (slots, relative to the region's start).

        Args:
            i: The device's index.
            num_devices: How many devices share the region.

        Returns:
            ``(start, end)``.
        """
        if self.num_heads is None:
            return shard_range(self.size, i, num_devices)
        head_dim = self.size // self.num_heads
        start, end = shard_range(self.num_heads, i, num_devices)
        return start * head_dim, end * head_dim


def segmented_sharding_strategy(weight: Shardable, i: int, num_devices: int, *, axis: int,
                                segments: Sequence[Segment]) -> Value:
    """Device ``i``'s piece of each segment along ``axis``, concatenated along ``axis``.

    The segments lie one after the other and must cover the axis: their sizes sum to its length, or
    to twice it for a packed FP4 weight (then every slot index is halved).

    Args:
        weight: The weight to shard.
        i: The device's index.
        num_devices: How many devices share each segment.
        axis: The axis the segments lie along (negative counts from the end).
        segments: The :class:`Segment` s in order.

    Returns:
        ``ops.concat`` of the per-segment slices along ``axis``.

    Raises:
        GraphError: (a ``ValueError``) The segments do not cover the axis.

    Example:
        >>> from latticecast.graph.weight_sharding import Segment, segmented_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [8, 3], DeviceRef.CPU())
        ...     piece = segmented_sharding_strategy(w, 0, 2, axis=0, segments=(Segment.even(4), Segment.even(4)))
        ...     [int(d) for d in piece.shape]
        [4, 3]
    """
    from . import ops

    rank = len(weight.shape)
    axis = axis + rank if axis < 0 else axis
    logical = sum(segment.size for segment in segments)
    actual = int(weight.shape[axis])
    if actual == logical:
        packing = 1
    elif actual * 2 == logical:
        packing = 2
    else:
        raise GraphError(f"Segmented sharding: segments cover {logical} slots along axis {axis}, but weight has "
                         f"{actual} (expected {logical} or {logical // 2} for packed FP4); give segments whose "
                         "sizes sum to the axis' length")
    pieces = []
    offset = 0
    for segment in segments:
        start, end = segment.shard_range(i, num_devices)
        pieces.append(_axis_slice(weight, axis, (offset + start) // packing, (offset + end) // packing))
        offset += segment.size
    return ops.concat(pieces, axis=axis)


def stacked_qkv_sharding_strategy(weight: Shardable, i: int, num_devices: int, num_heads: int, head_dim: int) -> Value:
    """Device ``i``'s heads of each of Q, K and V of a stacked ``[3 * hidden, hidden]`` weight.

    Args:
        weight: The stacked QKV weight (``hidden == num_heads * head_dim``).
        i: The device's index.
        num_devices: How many devices share the heads.
        num_heads: The number of attention heads.
        head_dim: The size of one head.

    Returns:
        Device ``i``'s Q, K and V rows, concatenated along axis 0.

    Raises:
        GraphError: (a ``ValueError``) The rows are not three times ``num_heads * head_dim``.

    Example:
        >>> from latticecast.graph.weight_sharding import stacked_qkv_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("qkv", DType.float32, [42, 14], DeviceRef.CPU())
        ...     [int(stacked_qkv_sharding_strategy(w, i, 3, 7, 2).shape[0]) for i in range(3)]
        [18, 12, 12]
    """
    rows = int(weight.shape[0])
    if rows % 3:
        raise GraphError(f"Stacked QKV weight must have shape [3*hidden_size, hidden_size], got shape "
                         f"{list(weight.shape)}; stack Q, K and V along axis 0")
    if rows // 3 != num_heads * head_dim:
        raise GraphError(f"Weight hidden_size {rows // 3} doesn't match num_heads * head_dim = {num_heads} * "
                         f"{head_dim} = {num_heads * head_dim}; pass the model's head count and size")
    segment = Segment.head_aware(num_heads, head_dim)
    return segmented_sharding_strategy(weight, i, num_devices, axis=0, segments=(segment, segment, segment))


def gate_up_sharding_strategy(weight: Shardable, i: int, num_devices: int, axis: int) -> Value:
    """Device ``i``'s halves of a gate/up weight (the two halves of ``axis``, each split evenly).

    Args:
        weight: The weight.
        i: The device's index.
        num_devices: How many devices.
        axis: The axis the gate and up halves are joined along.

    Returns:
        Device ``i``'s gate and up pieces, concatenated along ``axis``.

    Raises:
        GraphError: (a ``ValueError``) ``axis`` has an odd length.

    Example:
        >>> from latticecast.graph.weight_sharding import gate_up_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [2, 8], DeviceRef.CPU())
        ...     [int(d) for d in gate_up_sharding_strategy(w, 1, 4, 1).shape]
        [2, 2]
    """
    full = int(weight.shape[axis])
    if full % 2:
        raise GraphError(f"Dimension {axis} must be even for gate_up sharding, got {full}; the gate and up "
                         "halves have one size")
    half = Segment.even(full // 2)
    return segmented_sharding_strategy(weight, i, num_devices, axis=axis, segments=(half, half))


def axiswise_sharding_strategy(weight: Shardable, i: int, num_devices: int, axis: int) -> Value:
    """Device ``i``'s part of ``axis``, split as evenly as possible.

    Args:
        weight: The weight.
        i: The device's index.
        num_devices: How many devices.
        axis: The axis to split (negative counts from the end).

    Returns:
        The slice of ``axis``.

    Example:
        >>> from latticecast.graph.weight_sharding import axiswise_sharding_strategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [2, 3, 5], DeviceRef.CPU())
        ...     [int(d) for d in axiswise_sharding_strategy(w, 0, 2, -1).shape]
        [2, 3, 3]
    """
    rank = len(weight.shape)
    axis = axis + rank if axis < 0 else axis
    start, end = shard_range(int(weight.shape[axis]), i, num_devices)
    return _axis_slice(weight, axis, start, end)


def tensor_parallel_sharding_strategy(weight: Shardable, i: int, num_devices: int) -> Value:
    """A marker for modules that shard their weights themselves (tensor parallel); calling it is an error.

    Raises:
        NotImplementedError: Always (as in MAX): the module implements its own sharding.

    Example:
        >>> from latticecast.graph.weight_sharding import ShardingStrategy
        >>> ShardingStrategy.tensor_parallel(2).sharded_axis is None
        True
    """
    raise NotImplementedError("tensor_parallel_sharding_strategy is a placeholder and should not be called "
                              "directly. Modules are expected to implement their own tensor parallel sharding "
                              "strategy.")


def expert_parallel_sharding_strategy(weight: Shardable, i: int, num_devices: int) -> Value:
    """A marker for modules that shard their weights themselves (expert parallel); calling it is an error.

    Raises:
        NotImplementedError: Always (as in MAX): the module implements its own sharding.

    Example:
        >>> from latticecast.graph.weight_sharding import ShardingStrategy
        >>> ShardingStrategy.expert_parallel(2).is_expert_parallel
        True
    """
    raise NotImplementedError("expert_parallel_sharding_strategy is a placeholder and should not be called "
                              "directly. Modules are expected to implement their own expert parallel sharding "
                              "strategy.")


def _base(shard: ShardFunction) -> ShardFunction:
    return shard.func if isinstance(shard, partial) else shard


@dataclass(frozen=True)
class ShardingStrategy:
    """A sharding function and the number of devices it shards over (MAX's ``ShardingStrategy``).

    ``strategy(weight, i)`` is ``strategy.shard(weight, i, strategy.num_devices)``. Make one with the
    static constructors (``rowwise``, ``columnwise``, ``replicate``, ``axiswise``, ``stacked_qkv``,
    ``head_aware_columnwise``, ``gate_up``, ``segmented``, ``tensor_parallel``, ``expert_parallel``).

    Attributes:
        num_devices: How many devices the weight is sharded over.
        shard: ``shard(weight, i, num_devices)`` -> device ``i``'s piece.

    Example:
        >>> from latticecast.graph.weight_sharding import ShardingStrategy
        >>> from latticecast.max import DType, DeviceRef, Graph, Weight
        >>> strategy = ShardingStrategy.rowwise(num_devices=2)
        >>> strategy.is_rowwise, strategy.sharded_axis
        (True, 0)
        >>> with Graph("g", input_types=[]):
        ...     w = Weight("w", DType.float32, [5, 4], DeviceRef.CPU())
        ...     [int(d) for d in strategy(w, 1).shape]
        [2, 4]
    """

    num_devices: int
    shard: ShardFunction

    def __call__(self, weight: Shardable, i: int) -> Value:
        """Device ``i``'s piece of ``weight``."""
        return self.shard(weight, i, self.num_devices)

    @property
    def is_rowwise(self) -> bool:
        """Whether this shards rows (:func:`row_sharding_strategy`)."""
        return self.shard is row_sharding_strategy

    @property
    def is_colwise(self) -> bool:
        """Whether this shards columns (:func:`col_sharding_strategy`; head-aware is another kind)."""
        return self.shard is col_sharding_strategy

    @property
    def is_replicate(self) -> bool:
        """Whether every device gets the whole weight."""
        return self.shard is replicate_sharding_strategy

    @property
    def is_head_aware_colwise(self) -> bool:
        """Whether this shards columns by whole heads."""
        return _base(self.shard) is head_aware_col_sharding_strategy

    @property
    def is_stacked_qkv(self) -> bool:
        """Whether this shards a stacked QKV weight."""
        return _base(self.shard) is stacked_qkv_sharding_strategy

    @property
    def is_tensor_parallel(self) -> bool:
        """Whether this is the tensor-parallel marker."""
        return self.shard is tensor_parallel_sharding_strategy

    @property
    def is_expert_parallel(self) -> bool:
        """Whether this is the expert-parallel marker."""
        return self.shard is expert_parallel_sharding_strategy

    @property
    def is_gate_up(self) -> bool:
        """Whether this shards a gate/up weight."""
        return _base(self.shard) is gate_up_sharding_strategy

    @property
    def is_segmented(self) -> bool:
        """Whether this shards segment by segment."""
        return _base(self.shard) is segmented_sharding_strategy

    @property
    def is_axiswise(self) -> bool:
        """Whether this shards one configured axis evenly."""
        return _base(self.shard) is axiswise_sharding_strategy

    @property
    def sharded_axis(self) -> int | None:
        """The axis split across devices: 0 (rows, stacked QKV), 1 (columns, head-aware columns), the
        configured axis (gate/up, axiswise, segmented), or ``None`` (replicate and the markers)."""
        if self.is_rowwise or self.is_stacked_qkv:
            return 0
        if self.is_colwise or self.is_head_aware_colwise:
            return 1
        if isinstance(self.shard, partial) and (self.is_gate_up or self.is_axiswise or self.is_segmented):
            axis: int = self.shard.keywords["axis"]
            return axis
        return None

    @staticmethod
    def rowwise(num_devices: int) -> "ShardingStrategy":
        """Rows split over ``num_devices`` (:func:`row_sharding_strategy`)."""
        return ShardingStrategy(num_devices, row_sharding_strategy)

    @staticmethod
    def columnwise(num_devices: int) -> "ShardingStrategy":
        """Columns split over ``num_devices`` (:func:`col_sharding_strategy`)."""
        return ShardingStrategy(num_devices, col_sharding_strategy)

    @staticmethod
    def replicate(num_devices: int) -> "ShardingStrategy":
        """The whole weight on each of ``num_devices``."""
        return ShardingStrategy(num_devices, replicate_sharding_strategy)

    @staticmethod
    def axiswise(axis: int, num_devices: int) -> "ShardingStrategy":
        """``axis`` split over ``num_devices`` (:func:`axiswise_sharding_strategy`)."""
        return ShardingStrategy(num_devices, partial(axiswise_sharding_strategy, axis=axis))

    @staticmethod
    def stacked_qkv(num_devices: int, num_heads: int, head_dim: int) -> "ShardingStrategy":
        """A stacked QKV weight split by heads (:func:`stacked_qkv_sharding_strategy`)."""
        return ShardingStrategy(num_devices, partial(stacked_qkv_sharding_strategy, num_heads=num_heads,
                                                     head_dim=head_dim))

    @staticmethod
    def head_aware_columnwise(num_devices: int, num_heads: int, head_dim: int) -> "ShardingStrategy":
        """Columns split by whole heads (:func:`head_aware_col_sharding_strategy`)."""
        return ShardingStrategy(num_devices, partial(head_aware_col_sharding_strategy, num_heads=num_heads,
                                                     head_dim=head_dim))

    @staticmethod
    def gate_up(num_devices: int, axis: int = 2) -> "ShardingStrategy":
        """A gate/up weight joined along ``axis`` (default 2, MoE experts' layout)."""
        return ShardingStrategy(num_devices, partial(gate_up_sharding_strategy, axis=axis))

    @staticmethod
    def segmented(num_devices: int, axis: int, segments: Sequence[Segment]) -> "ShardingStrategy":
        """Segments along ``axis``, each split on its own (:func:`segmented_sharding_strategy`)."""
        return ShardingStrategy(num_devices, partial(segmented_sharding_strategy, axis=axis,
                                                     segments=tuple(segments)))

    @staticmethod
    def tensor_parallel(num_devices: int) -> "ShardingStrategy":
        """The tensor-parallel marker (a module shards its own weights)."""
        return ShardingStrategy(num_devices, tensor_parallel_sharding_strategy)

    @staticmethod
    def expert_parallel(num_devices: int) -> "ShardingStrategy":
        """The expert-parallel marker (a module shards its own weights)."""
        return ShardingStrategy(num_devices, expert_parallel_sharding_strategy)
