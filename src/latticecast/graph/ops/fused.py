"""MAX's fused multi-device ops, written as the ops they fuse: ``allgather_rms_norm``,
``reduce_scatter_rms_norm`` and ``parallel``.

MAX runs each of these as one GPU kernel launch. StableHLO has no such kernels: the collective is
a StableHLO collective (see :mod:`.collectives`) and the norm is :func:`.nn.rms_norm`, and XLA
fuses what it can. The numbers are MAX's definition (bf16 in and out, the norm computed in float32
and cast once, ``multiply_before_cast=True``), not its kernels' rounding on a particular GPU: MAX
itself documents that its fused and unfused paths agree only to RMSNorm's ULP tolerance off AMD.

``parallel`` runs its body once per launch. MAX traces the body once into an ``mo.parallel``
region that its runtime dispatches per launch; latticecast traces it once per launch's inputs, so
each launch's ops carry that launch's values and XLA's partitioner places them. The results are
the same; a body with Python side effects runs them once per launch.

The MXFP8/MXFP6 variants of ``allgather_rms_norm`` emit MAX's block-scaled quantisation encodings,
which latticecast refuses (see :mod:`.unsupported`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ...promotion.dtypes import DType
from ...errors import GraphError
from ..value import TensorValueLike, Value
from .collectives import allgather, reducescatter_sum
from .elementwise import add, cast
from .nn import rms_norm
from .operands import graph_of, operand

if TYPE_CHECKING:
    from ...promotion.tensor_type import TensorType

__all__ = ["allgather_rms_norm", "reduce_scatter_rms_norm", "parallel"]


def _tensors(values: Iterable[TensorValueLike], what: str) -> list[Value]:
    found = list(values)
    if not found:
        return []
    g = graph_of(*found)
    tensors = [operand(v, g) for v in found]
    if not all(isinstance(t, Value) for t in tensors):
        raise GraphError(f"{what} takes tensors, one per device, not Python scalars")
    return [t for t in tensors if isinstance(t, Value)]


def _validate(what: str, inputs: list[Value], signal_buffers: list[object], gammas: list[Value],
              group_size: int | None, residuals: list[Value] | None = None) -> int:
    """MAX's operand checks of its fused all-gather and reduce-scatter norms; the group size."""
    count = len(inputs)
    collective = "all-gather" if what.startswith("allgather") else "reduce-scatter"
    if count < 2:
        raise GraphError(f"{what} requires at least two inputs (one per device); the {collective} is a no-op "
                         f"otherwise. Got: {count}")
    if len(signal_buffers) != count:
        raise GraphError(f"expected number of inputs ({count}) and number of signal buffers "
                         f"({len(signal_buffers)}) to match")
    if len(gammas) != count:
        raise GraphError(f"expected number of inputs ({count}) and number of gammas ({len(gammas)}) to match")
    if residuals is not None and len(residuals) != count:
        raise GraphError(f"expected number of inputs ({count}) and number of residuals ({len(residuals)}) to match")
    dtype = inputs[0].dtype
    if dtype != DType.bfloat16:
        raise GraphError(f"{what} is bfloat16-only (the kernel and fuse threshold assume it). Got: {dtype}; "
                         "cast the inputs to bfloat16, or use the collective and ops.rms_norm separately")
    if any(t.dtype != dtype for t in inputs[1:]):
        raise GraphError(f"{what} requires the same dtype across all input tensors. Got: "
                         f"{[t.dtype for t in inputs]}")
    rank = inputs[0].rank
    if any(t.rank != rank for t in inputs[1:]):
        raise GraphError(f"{what} requires the same rank across all input tensors. Got: "
                         f"{[list(t.shape) for t in inputs]}")
    if what == "allgather_rms_norm" and rank != 2:
        raise GraphError(f"{what} is 2D-only ([rows, cols]); the fused kernel indexes rows and cols directly. "
                         f"Got rank: {rank}")
    size = group_size or count
    if size < 2:
        raise GraphError(f"{what} requires group_size to be at least 2 (the {collective} is a no-op otherwise). "
                         f"Got: group_size={size}")
    if count % size:
        raise GraphError(f"{what} requires group_size to evenly divide the number of input tensors. "
                         f"Got: group_size={size} and num_devices={count}")
    if any(list(t.shape)[1:] != list(inputs[0].shape)[1:] for t in inputs[1:]):
        raise GraphError(f"{what} requires the same shape in all dimensions except axis 0 (rows) across every "
                         f"input tensor, including across groups. Got: {[list(t.shape) for t in inputs]}")
    for device, (x, r) in enumerate(zip(inputs, residuals or [])):
        if list(r.shape) != list(x.shape) or r.dtype != x.dtype:
            raise GraphError(f"{what} requires each residual to match its input's shape and dtype on device "
                             f"{device}. Got residual {list(r.shape)}/{r.dtype} vs input {list(x.shape)}/{x.dtype}")
    return size


def allgather_rms_norm(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object],
                       gammas: Iterable[TensorValueLike], epsilon: float, weight_offset: float = 0.0,
                       group_size: int | None = None) -> tuple[list[Value], list[Value]]:
    """All-gather row shards along axis 0, then RMS-normalise every gathered row (MAX's
    ``ops.allgather_rms_norm``; bfloat16 in and out, the norm in float32 with ``multiply_before_cast``).

    Args:
        inputs: One ``[rows_i, cols]`` bfloat16 shard per device of the graph's mesh.
        signal_buffers: MAX's synchronisation buffers, one per input (not used by StableHLO).
        gammas: One RMSNorm weight per device, of length ``cols``.
        epsilon: The norm's epsilon.
        weight_offset: Added to each gamma (``1.0`` for Gemma's norms).
        group_size: Devices per independent gather group; default all of them.

    Returns:
        ``(normed, residual)``: per device, the norm of its group's gathered rows and the gathered
        rows themselves.

    Raises:
        GraphError: MAX's operand checks (at least two bfloat16 rank-2 inputs, one gamma and one
            signal buffer per input, ``group_size`` at least 2 and dividing the inputs, equal column
            shapes) or :func:`~latticecast.ops.allgather`'s.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("agn", input_types=[TensorType(DType.bfloat16, [2, 4])]) as g:
        ...     ops.allgather_rms_norm(g.inputs, [None], [g.inputs[0][0]], epsilon=1e-6)
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: allgather_rms_norm requires at least two inputs (one per device); ...
    """
    values = _tensors(inputs, "allgather_rms_norm")
    weights = _tensors(gammas, "allgather_rms_norm")
    buffers = list(signal_buffers)
    size = _validate("allgather_rms_norm", values, buffers, weights, group_size)
    residual = allgather(values, buffers, axis=0, group_size=size)
    normed = [rms_norm(rows, gamma, epsilon, weight_offset=weight_offset, multiply_before_cast=True)
              for rows, gamma in zip(residual, weights)]
    return normed, residual


def reduce_scatter_rms_norm(inputs: Iterable[TensorValueLike], signal_buffers: Iterable[object],
                            gammas: Iterable[TensorValueLike], epsilon: float,
                            residuals: Iterable[TensorValueLike] | None = None, weight_offset: float = 0.0,
                            group_size: int | None = None) -> tuple[list[Value], list[Value]]:
    """Reduce-scatter (sum) along axis 0, add each device's rows of the residual stream, and
    RMS-normalise the device's shard (MAX's ``ops.reduce_scatter_rms_norm``).

    The sum is taken in float32 and normalised from float32, as MAX's fused kernel keeps it in
    registers; both results are bfloat16.

    Args:
        inputs: One ``[rows, cols]`` bfloat16 tensor per device of the graph's mesh.
        signal_buffers: MAX's synchronisation buffers, one per input (not used by StableHLO).
        gammas: One RMSNorm weight per device, of length ``cols``.
        epsilon: The norm's epsilon.
        residuals: Optionally, the replicated residual stream, one per device, of the inputs'
            shape: device ``i`` adds the rows of its own shard.
        weight_offset: Added to each gamma (``1.0`` for Gemma's norms).
        group_size: Devices per independent reduce-scatter group; default all of them.

    Returns:
        ``(normed, residual)``: per device, the norm of its shard of the sum, and the shard.

    Raises:
        GraphError: MAX's operand checks, or :func:`~latticecast.ops.reducescatter`'s.

    Example:
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("rsn", input_types=[TensorType(DType.float32, [2, 4])] * 2) as g:
        ...     ops.reduce_scatter_rms_norm(g.inputs, [None, None], [g.inputs[0][0]] * 2, epsilon=1e-6)
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: reduce_scatter_rms_norm is bfloat16-only (the kernel and fuse threshold ...
    """
    values = _tensors(inputs, "reduce_scatter_rms_norm")
    weights = _tensors(gammas, "reduce_scatter_rms_norm")
    streams = None if residuals is None else _tensors(residuals, "reduce_scatter_rms_norm")
    buffers = list(signal_buffers)
    size = _validate("reduce_scatter_rms_norm", values, buffers, weights, group_size, streams)
    sums = reducescatter_sum([cast(x, DType.float32) for x in values], buffers, axis=0, group_size=size)
    if streams is not None:
        start = 0
        for device, shard in enumerate(sums):
            if device % size == 0:
                start = 0
            rows = shard.shape[0]
            if not isinstance(rows, int) or not isinstance(start, int):
                raise GraphError("reduce_scatter_rms_norm with residuals needs a static number of rows; "
                                 "rebind axis 0 to a size first")
            sums[device] = add(shard, cast(streams[device][start:start + rows], DType.float32))
            start += rows
    normed = [cast(rms_norm(total, gamma, epsilon, weight_offset=weight_offset, multiply_before_cast=True),
                   DType.bfloat16) for total, gamma in zip(sums, weights)]
    return normed, [cast(total, DType.bfloat16) for total in sums]


def parallel(inputs: Sequence[Sequence[TensorValueLike]], body_fn: Callable[..., "Value | Iterable[Value]"], *,
             buffers: Iterable[object] | None = None, chain: object = None,
             result_types: Sequence[Sequence["TensorType"]]) -> list[list[Value]]:
    """Run ``body_fn`` for each launch: launch ``i`` gets the ``i``-th value of every input bundle
    (MAX's ``ops.parallel``).

    Args:
        inputs: The input bundles: each a sequence of one value per launch, all of one length.
        body_fn: Takes one value per input bundle and returns one value (or a sequence of them)
            per output bundle.
        buffers: MAX's per-launch buffers for buffer ops in the body; refused (latticecast has no
            buffer ops).
        chain: MAX's chain for sequencing buffer ops; refused with ``buffers``.
        result_types: Per output bundle, one :class:`~latticecast.TensorType` per launch: what
            each launch's result must be.

    Returns:
        Per output bundle, the list of each launch's result.

    Raises:
        GraphError: MAX's checks (no bundle, no launch, bundles of different lengths,
            ``result_types`` not one per launch, a body that yields the wrong number of values), or
            a launch's result whose dtype or shape is not its ``result_types`` entry.
        UnsupportedOpError: ``buffers`` or ``chain`` is given.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> t = TensorType(DType.float32, [2])
        >>> with Graph("parallel", input_types=[t, t]) as g:
        ...     (doubled,) = ops.parallel([g.inputs], lambda x: x * 2, result_types=[[t, t]])
        ...     g.output(*doubled)
        >>> [r.tolist() for r in g.compile()(np.ones(2, np.float32), np.arange(2, dtype=np.float32))]
        [[2.0, 2.0], [0.0, 2.0]]
    """
    from ...errors import UnsupportedOpError

    if buffers is not None or chain is not None:
        raise UnsupportedOpError("parallel: buffers and chain sequence MAX's buffer ops, which have no StableHLO "
                                 "form; pass tensors only (a tensor body needs no chain)")
    bundles = [list(bundle) for bundle in inputs]
    if not bundles:
        raise GraphError("parallel requires at least one input bundle")
    launches = len(bundles[0])
    if launches == 0:
        raise GraphError("each input bundle must have at least one launch")
    for i, bundle in enumerate(bundles[1:], start=1):
        if len(bundle) != launches:
            raise GraphError(f"input bundle {i} has {len(bundle)} launches; bundle 0 has {launches}")
    outputs = [list(types) for types in result_types]
    for i, types in enumerate(outputs):
        if len(types) != launches:
            raise GraphError(f"result_types[{i}] has {len(types)} types; expected {launches} (one per launch)")
    results: list[list[Value]] = [[] for _ in outputs]
    for launch in range(launches):
        args = [_tensors([bundle[launch]], "parallel")[0] for bundle in bundles]
        produced = body_fn(*args)
        values = [produced] if isinstance(produced, Value) else list(produced)
        if len(values) != len(outputs):
            raise GraphError(f"parallel body yielded {len(values)} tensor(s), expected {len(outputs)} "
                             "(one per output bundle)")
        for i, value in enumerate(values):
            expected = outputs[i][launch]
            if value.dtype != expected.dtype or list(value.shape) != list(expected.shape):
                raise GraphError(f"parallel: launch {launch}'s result {i} is {value.dtype}{list(value.shape)}, "
                                 f"but result_types[{i}][{launch}] is {expected.dtype}{list(expected.shape)}; "
                                 "give the type the body returns")
            results[i].append(value)
    return results
