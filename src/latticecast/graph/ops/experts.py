"""MAX's expert-parallel ``ops.distributed_ep`` (``dispatch_*`` and ``combine``), refused with the reason.

``ops.distributed_ep`` is a namespace of this module's functions (MAX's is a module), as ``ops.allreduce``
is of :func:`~latticecast.graph.ops.collectives.allreduce_sum`.

MAX's EP dispatch and combine are Mojo kernels that write tokens straight into other GPUs' memory
through raw pointers: ``send_ptrs``, ``recv_ptrs`` and ``recv_count_ptrs`` are host tensors of
device addresses, and the atomic counters are buffers the kernels increment across devices.
StableHLO has no device addresses, no atomics and no buffers, so these ops have no StableHLO form.
Each function takes MAX's arguments, checks what MAX checks (``input_tokens`` must be non-empty,
with MAX's ``ValueError``), and then raises :class:`~latticecast.errors.UnsupportedOpError` with
what to write instead: the routing as graph ops (a ``top_k`` of the router, ``gather`` of the
tokens per expert) and the exchange as ``ops.allgather`` over a mesh (``Graph(..., mesh=...)``),
which XLA lowers to its own collectives.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import NoReturn, Sequence

from ...errors import GraphError, UnsupportedOpError

__all__ = ["dispatch_bf16", "dispatch_fp8", "dispatch_block_scaled_nv", "dispatch_block_scaled_nv_dyn_global_scales",
           "dispatch_mxfp4", "combine", "distributed_ep"]

_WHY = ("its Mojo kernel writes tokens into other GPUs' memory through the device addresses in send_ptrs/recv_ptrs "
        "and atomic counter buffers, and StableHLO has no device addresses, atomics or buffers; route the tokens "
        "with graph ops (ops.top_k of the router scores, ops.gather of the tokens per expert) and exchange them "
        "with ops.allgather or ops.reducescatter.sum over a mesh (Graph(..., mesh=...)), which XLA lowers to "
        "its own collectives")


def _refuse(op: str, input_tokens: Sequence[object]) -> NoReturn:
    if len(list(input_tokens)) == 0:
        raise GraphError("input_tokens must be non-empty (one tensor of tokens per device)")
    raise UnsupportedOpError(f"ops.distributed_ep.{op} has no StableHLO form: {_WHY}")


def dispatch_bf16(input_tokens: Sequence[object], *args: object, **kwargs: object) -> NoReturn:
    """MAX's multi-device expert-parallel BF16 dispatch: refused (see the module).

    Args:
        input_tokens: One tensor of tokens per device.
        *args: MAX's other arguments (``topk_ids``, the pointer tables, the counters, the output types).
        **kwargs: MAX's keyword arguments (``hidden_size``, ``top_k``, ``n_experts``, ...).

    Returns:
        Nothing: it always raises.

    Raises:
        GraphError: ``input_tokens`` is empty (MAX's ``ValueError``).
        UnsupportedOpError: Otherwise, with the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.distributed_ep.dispatch_bf16([])
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: input_tokens must be non-empty (one tensor of tokens per device)
    """
    _refuse("dispatch_bf16", input_tokens)


def dispatch_fp8(input_tokens: Sequence[object], *args: object, **kwargs: object) -> NoReturn:
    """MAX's multi-device expert-parallel FP8 dispatch: refused (see the module).

    Args:
        input_tokens: One tensor of tokens per device.
        *args: MAX's other arguments.
        **kwargs: MAX's keyword arguments (``dispatch_scale_granularity``, ``hidden_size``, ...).

    Returns:
        Nothing: it always raises.

    Raises:
        GraphError: ``input_tokens`` is empty (MAX's ``ValueError``).
        UnsupportedOpError: Otherwise, with the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.distributed_ep.dispatch_fp8([object()])
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.distributed_ep.dispatch_fp8 has no StableHLO form: ...
    """
    _refuse("dispatch_fp8", input_tokens)


def dispatch_block_scaled_nv(input_tokens: Sequence[object], *args: object, **kwargs: object) -> NoReturn:
    """MAX's multi-device expert-parallel NVFP4 dispatch: refused (see the module).

    Args:
        input_tokens: One tensor of tokens per device.
        *args: MAX's other arguments.
        **kwargs: MAX's keyword arguments.

    Returns:
        Nothing: it always raises.

    Raises:
        GraphError: ``input_tokens`` is empty (MAX's ``ValueError``).
        UnsupportedOpError: Otherwise, with the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.distributed_ep.dispatch_block_scaled_nv([])
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: input_tokens must be non-empty (one tensor of tokens per device)
    """
    _refuse("dispatch_block_scaled_nv", input_tokens)


def dispatch_block_scaled_nv_dyn_global_scales(input_tokens: Sequence[object], *args: object,
                                               **kwargs: object) -> NoReturn:
    """MAX's multi-device expert-parallel NVFP4 dispatch with dynamic global scales: refused (see the module).

    Args:
        input_tokens: One tensor of tokens per device.
        *args: MAX's other arguments.
        **kwargs: MAX's keyword arguments.

    Returns:
        Nothing: it always raises.

    Raises:
        GraphError: ``input_tokens`` is empty (MAX's ``ValueError``).
        UnsupportedOpError: Otherwise, with the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.distributed_ep.dispatch_block_scaled_nv_dyn_global_scales([])
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: input_tokens must be non-empty (one tensor of tokens per device)
    """
    _refuse("dispatch_block_scaled_nv_dyn_global_scales", input_tokens)


def dispatch_mxfp4(input_tokens: Sequence[object], *args: object, **kwargs: object) -> NoReturn:
    """MAX's multi-device expert-parallel MXFP4 dispatch: refused (see the module).

    Args:
        input_tokens: One tensor of tokens per device.
        *args: MAX's other arguments.
        **kwargs: MAX's keyword arguments.

    Returns:
        Nothing: it always raises.

    Raises:
        GraphError: ``input_tokens`` is empty (MAX's ``ValueError``).
        UnsupportedOpError: Otherwise, with the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.distributed_ep.dispatch_mxfp4([])
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: input_tokens must be non-empty (one tensor of tokens per device)
    """
    _refuse("dispatch_mxfp4", input_tokens)


def combine(input_tokens: Sequence[object], *args: object, **kwargs: object) -> NoReturn:
    """MAX's multi-device expert-parallel combine: refused (see the module).

    Args:
        input_tokens: One tensor of expert outputs per device.
        *args: MAX's other arguments (``src_info``, the pointer tables, the router weights, ...).
        **kwargs: MAX's keyword arguments.

    Returns:
        Nothing: it always raises.

    Raises:
        GraphError: ``input_tokens`` is empty (MAX's ``ValueError``).
        UnsupportedOpError: Otherwise, with the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.distributed_ep.combine([])
        Traceback (most recent call last):
        ...
        latticecast.errors.GraphError: input_tokens must be non-empty (one tensor of tokens per device)
    """
    _refuse("combine", input_tokens)


distributed_ep = SimpleNamespace(dispatch_bf16=dispatch_bf16, dispatch_fp8=dispatch_fp8,
                                 dispatch_block_scaled_nv=dispatch_block_scaled_nv,
                                 dispatch_block_scaled_nv_dyn_global_scales=dispatch_block_scaled_nv_dyn_global_scales,
                                 dispatch_mxfp4=dispatch_mxfp4, combine=combine)
"""MAX's ``ops.distributed_ep`` module: ``distributed_ep.dispatch_bf16(...)``, ``distributed_ep.combine(...)``."""
