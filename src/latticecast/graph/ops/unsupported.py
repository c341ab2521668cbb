"""MAX's ops that StableHLO has no form for, refused with the reason and what to write instead.

Each is a function with MAX 26.7's signature, so a MAX program that calls it stops at the call
with an :class:`~latticecast.errors.UnsupportedOpError` naming the op, instead of an
``AttributeError``:

=========================  ============================================================================
``custom``,                a Mojo kernel compiled by MAX; StableHLO calls foreign code only through
``inplace_custom``         ``custom_call`` targets registered with the PJRT plugin (write the kernel as
                           graph ops, or register it as an XLA FFI handler and call it by name)
``buffer_create``,         mutable buffers: StableHLO values are immutable SSA tensors (thread the tensor
``buffer_load``,           through the graph and write ``x = ...`` again; for an in-place slice update,
``buffer_store``,          ``stablehlo.dynamic_update_slice`` is what a new value of the tensor compiles to)
``buffer_store_slice``
``side_stream``            a second device stream: StableHLO has no streams; XLA schedules the ops itself
``qmatmul``                 MAX's fused matmul of GGUF/GPTQ packed blocks, a MAX kernel (``ops.dequantize``
                           unpacks GGUF blocks in the graph: write ``x @ ops.dequantize(enc, w).T``)
``allgather_rms_norm_``    MAX's fused MXFP8/MXFP6 quantise epilogue: packed codes and ``float8_e8m0fnu``
``quant_mxfp8``, ``_mxfp6``  scales in the row-major layout of MAX's ``block_scaled_matmul_amd`` kernels
                           (use ``allgather_rms_norm``, which latticecast has, and keep the norm in bfloat16)
=========================  ============================================================================
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NoReturn, Sequence

from ...errors import UnsupportedOpError

__all__ = ["custom", "inplace_custom", "buffer_create", "buffer_load", "buffer_store", "buffer_store_slice",
           "side_stream", "qmatmul", "allgather_rms_norm_quant_mxfp8",
           "allgather_rms_norm_quant_mxfp6"]

_MOJO = ("it runs a Mojo kernel that MAX compiles, and StableHLO calls foreign code only as a custom_call "
         "target registered with the PJRT plugin; write the kernel as graph ops (latticecast.ops), or register "
         "it as an XLA FFI handler and call it with stablehlo.custom_call")
_BUFFER = ("StableHLO values are immutable tensors, so there is no buffer to {verb}; thread the tensor through the "
           "graph as a value and give its new contents a new name (x = ops.concat(...), x[i] updates become "
           "stablehlo.dynamic_update_slice)")
_QUANTIZED = ("it is MAX's kernel that multiplies by packed blocks without unpacking them; unpack GGUF blocks in the "
              "graph with ops.dequantize(encoding, w) and write x @ ops.dequantize(encoding, w).T (GPTQ's packing "
              "is MAX's own: dequantise it on the host)")

_MX = ("its MXFP8/MXFP6 outputs are MAX's block-scaled encodings (packed codes with float8_e8m0fnu scales in the "
       "layout MAX's block_scaled_matmul_amd kernels read), which only MAX's kernels consume; call "
       "ops.allgather_rms_norm and keep the norm in bfloat16")


def _refuse(op: str, why: str) -> NoReturn:
    raise UnsupportedOpError(f"ops.{op} has no StableHLO form: {why}")


def custom(name: str, device: Any, values: Sequence[Any], out_types: Sequence[Any],
           parameters: Mapping[str, Any] | None = None) -> NoReturn:
    """MAX's Mojo custom kernel call: refused (StableHLO cannot run a Mojo kernel).

    Args:
        name: The kernel's registered name.
        device: The device it runs on.
        values: Its operands.
        out_types: Its result types.
        parameters: Its compile-time parameters.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.custom("my_kernel", None, [], [])
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.custom has no StableHLO form: it runs a Mojo kernel ...
    """
    _refuse("custom", _MOJO)


def inplace_custom(name: str, device: Any, values: Sequence[Any], out_types: Sequence[Any] | None = None,
                   parameters: Mapping[str, Any] | None = None) -> NoReturn:
    """MAX's in-place Mojo kernel call: refused (StableHLO cannot run a Mojo kernel, nor mutate).

    Args:
        name: The kernel's registered name.
        device: The device it runs on.
        values: Its operands, buffers among them.
        out_types: Its result types.
        parameters: Its compile-time parameters.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.inplace_custom("my_kernel", None, [])
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.inplace_custom has no StableHLO form: it runs a Mojo kernel ...
    """
    _refuse("inplace_custom", _MOJO)


def buffer_create(type: Any, init_value: float | bool | None = None) -> NoReturn:
    """MAX's mutable buffer: refused (StableHLO has no mutable memory).

    Args:
        type: The buffer's type.
        init_value: Its initial value.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.buffer_create(None)
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.buffer_create has no StableHLO form: StableHLO values ...
    """
    _refuse("buffer_create", _BUFFER.format(verb="create"))


def buffer_load(x: Any) -> NoReturn:
    """A tensor read from a MAX buffer: refused (StableHLO has no mutable memory).

    Args:
        x: The buffer.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.buffer_load(None)
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.buffer_load has no StableHLO form: StableHLO values ...
    """
    _refuse("buffer_load", _BUFFER.format(verb="load from"))


def buffer_store(destination: Any, source: Any) -> None:
    """A tensor written into a MAX buffer: refused (StableHLO has no mutable memory).

    Args:
        destination: The buffer.
        source: The tensor to store.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.buffer_store(None, None)
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.buffer_store has no StableHLO form: StableHLO values ...
    """
    _refuse("buffer_store", _BUFFER.format(verb="store into"))


def buffer_store_slice(destination: Any, source: Any, indices: Any) -> None:
    """A tensor written into a slice of a MAX buffer: refused (StableHLO has no mutable memory).

    Args:
        destination: The buffer.
        source: The tensor to store.
        indices: The slice.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.buffer_store_slice(None, None, [])
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.buffer_store_slice has no StableHLO form: StableHLO values ...
    """
    _refuse("buffer_store_slice", _BUFFER.format(verb="store into"))


def side_stream(inputs: Sequence[Any], body_fn: Callable[..., Any], *, result_types: Sequence[Any],
                stream_id: int = 1) -> NoReturn:
    """Ops run on a second device stream in MAX: refused (StableHLO has no streams).

    Args:
        inputs: The body's operands.
        body_fn: The ops to run on the stream.
        result_types: The body's result types.
        stream_id: The stream.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.side_stream([], lambda: None, result_types=[])
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.side_stream has no StableHLO form: StableHLO has no ...
    """
    _refuse("side_stream", "StableHLO has no device streams: XLA schedules a program's ops itself; call "
            "body_fn(*inputs) in the graph directly, and XLA overlaps what is independent")


def qmatmul(encoding: Any, config: Any, lhs: Any, *rhs: Any) -> NoReturn:
    """A matrix product with MAX-quantised weights: refused (the encodings are MAX's kernels' own).

    Args:
        encoding: The quantisation encoding.
        config: Its configuration.
        lhs: The float operand.
        rhs: The quantised weights.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.qmatmul(None, None, None)
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.qmatmul has no StableHLO form: MAX's quantisation ...
    """
    _refuse("qmatmul", _QUANTIZED)


def allgather_rms_norm_quant_mxfp8(inputs: Any, signal_buffers: Any, gammas: Any, epsilon: float,
                                   weight_offset: float = 0.0, group_size: int | None = None) -> NoReturn:
    """MAX's all-gather + RMSNorm with an MXFP8 copy of the norm: refused (MAX's quantised encoding).

    Args:
        inputs: The row shards, one per device.
        signal_buffers: MAX's synchronisation buffers.
        gammas: The norm's weights, one per device.
        epsilon: The norm's epsilon.
        weight_offset: Added to the gammas.
        group_size: Devices per gather group.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.allgather_rms_norm_quant_mxfp8([], [], [], 1e-6)
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.allgather_rms_norm_quant_mxfp8 has no StableHLO form: ...
    """
    _refuse("allgather_rms_norm_quant_mxfp8", _MX)


def allgather_rms_norm_quant_mxfp6(inputs: Any, signal_buffers: Any, gammas: Any, epsilon: float,
                                   weight_offset: float = 0.0, group_size: int | None = None,
                                   fp6_format: str = "e2m3") -> NoReturn:
    """MAX's all-gather + RMSNorm with a packed MXFP6 copy of the norm: refused (MAX's quantised encoding).

    Args:
        inputs: The row shards, one per device.
        signal_buffers: MAX's synchronisation buffers.
        gammas: The norm's weights, one per device.
        epsilon: The norm's epsilon.
        weight_offset: Added to the gammas.
        group_size: Devices per gather group.
        fp6_format: ``e2m3`` or ``e3m2``.

    Returns:
        Nothing: it always raises.

    Raises:
        UnsupportedOpError: Always, naming the op, the reason and what to write instead.

    Example:
        >>> from latticecast import ops
        >>> ops.allgather_rms_norm_quant_mxfp6([], [], [], 1e-6)
        Traceback (most recent call last):
        ...
        latticecast.errors.UnsupportedOpError: ops.allgather_rms_norm_quant_mxfp6 has no StableHLO form: ...
    """
    _refuse("allgather_rms_norm_quant_mxfp6", _MX)
