"""Cutting, padding and repeating: MAX's ``pad``, ``split``, ``chunk``, ``tile`` and
``repeat_interleave``, in StableHLO's ``pad``, ``slice``, ``concatenate``, ``broadcast_in_dim`` and
``gather``.

They move data and keep the input's dtype and weakness. Where NumPy's function of the same name
differs, MAX's signature wins:

=================================  ======================================================================
``pad(x, paddings, mode, value)``  MAX's flat ``[before_0, after_0, before_1, ...]``; NumPy's pairs
                                   (``[(before_0, after_0), ...]``) are accepted too. Modes
                                   ``constant``, ``reflect`` (mirror without the edge) and ``edge``
``split(x, split_sizes, axis=0)``  MAX's: the sizes of the pieces (NumPy's ``np.split`` takes the
                                   cut points or a number of equal pieces: ``chunk`` is the latter)
``chunk(x, chunks, axis=0)``       MAX's (PyTorch's name): ``chunks`` equal pieces
``tile(x, repeats)``               MAX's: one positive count per axis (NumPy's ``np.tile`` also takes
                                   fewer counts, and 0)
``repeat_interleave``              MAX's (PyTorch's): each element repeated; NumPy's ``np.repeat``
``fold``                           MAX's (PyTorch's ``nn.Fold``, col2im): sliding blocks summed back
                                   into an image, by ``stablehlo.scatter``
=================================  ======================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

import numpy as np
from jaxlib.mlir import ir

from ...promotion.dims import Dim, DimensionError, StaticDim, SymbolicDim, as_dim, is_static, static_size
from ...promotion.dtypes import DType
from ...errors import AxisError, GraphError, GraphTypeError
from ..value import TensorValueLike, Value
from .dynamic import iota, shape_value
from .elementwise import less_equal
from .gather import _scatter, gather
from .indexing import slice_tensor
from .operands import Literal, broadcast, constant_value, convert, graph_of, operand, unary_operand
from .reduction import reduce_sum
from .shape import _reshaped, format_shape, normalize_axis
from .sorting import cumsum

if TYPE_CHECKING:
    from ...promotion.dims import DimLike
    from .shape import Dimension

__all__ = ["pad", "split", "chunk", "tile", "repeat_interleave", "fold"]


def _count(n: object, what: str) -> int:
    """``n`` as an ``int``, or a :class:`GraphTypeError` (a ``TypeError``, as MAX's ``int(dim)`` raises for a
    symbolic dimension) naming ``what``."""
    if isinstance(n, SymbolicDim):
        raise GraphTypeError(f"{what} must be an integer: int({n!r}): Int conversions only supported for static "
                             "dims; a symbolic size would give algebraic result sizes, which latticecast does not "
                             "support: use static sizes")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise DimensionError(f"{what} must be an integer, not {n!r}")
    return int(n)


def _static(v: Value, axis: int, what: str) -> int:
    n = v.shape[axis]
    if not isinstance(n, int):
        raise DimensionError(f"{what}: int({n!r}): Int conversions only supported for static dims: axis {axis} "
                             f"of {format_shape(v.shape)} is {n}, not a static dimension; rebind it to a size first "
                             "(x.rebind([...]))")
    return int(n)


def _concat(parts: Sequence[Value], axis: int, like: Value) -> Value:
    parts = [p for p in parts if p.shape[axis] != 0] or [parts[0]]
    if len(parts) == 1:
        return parts[0]
    g = like.graph
    size: Dimension = StaticDim(0)
    for p in parts:
        size = size + p.shape[axis]
    shape = tuple(size if d == axis else n for d, n in enumerate(like.shape))
    with g.context:
        attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis)}
    op = g._add_op("stablehlo.concatenate", [g.tc.tensor(like.storage, shape)], [p.ir for p in parts], attrs,
                   weak=like.is_weak)
    return Value(g, op.result, like.ptype, shape, storage=like.storage)


def _take(v: Value, axis: int, start: int, stop: "int | None") -> Value:
    return slice_tensor(v, [slice(None)] * axis + [slice(start, stop)])


def _reverse(v: Value, axis: int) -> Value:
    g = v.graph
    with g.context:
        attrs = {"dimensions": ir.DenseI64ArrayAttr.get([axis])}
    op = g._add_op("stablehlo.reverse", [g.tc.tensor(v.storage, v.shape)], [v.ir], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, v.shape, storage=v.storage)


def _repeated(v: Value, axis: int, k: int) -> Value:
    """``v`` (size 1 along ``axis``) broadcast to size ``k`` there."""
    shape = tuple(k if d == axis else n for d, n in enumerate(v.shape))
    return _broadcast_in_dim(v, shape, list(range(v.rank)))


def _broadcast_in_dim(v: Value, shape: Sequence[int | Dim], dims: Sequence[int]) -> Value:
    g = v.graph
    with g.context:
        attrs = {"broadcast_dimensions": ir.DenseI64ArrayAttr.get(list(dims))}
    if is_static(shape):
        op = g._add_op("stablehlo.broadcast_in_dim", [g.tc.tensor(v.storage, shape)], [v.ir], attrs, weak=v.is_weak)
    else:  # sizes known when the graph runs
        op = g._add_op("stablehlo.dynamic_broadcast_in_dim", [g.tc.tensor(v.storage, shape)],
                       [v.ir, shape_value(g, shape)], attrs, weak=v.is_weak)
    return Value(g, op.result, v.ptype, shape, storage=v.storage)


def _paddings(v: Value, paddings: object) -> list[tuple[int, int]]:
    if isinstance(paddings, (str, bytes, Value)) or not isinstance(paddings, Iterable):
        raise GraphError(f"pad needs paddings as [before_0, after_0, before_1, after_1, ...], not {paddings!r}")
    raw = list(paddings)
    if raw and all(isinstance(p, (tuple, list)) for p in raw):  # NumPy's pairs
        if any(len(p) != 2 for p in raw):
            raise GraphError(f"pad: NumPy's form takes one (before, after) pair per axis, not {raw!r}")
        raw = [b for p in raw for b in p]
    flat = [_count(p, "pad: each padding") for p in raw]
    if len(flat) != 2 * v.rank:
        raise GraphError(f"pad: {len(flat)} paddings for a value of rank {v.rank} (shape {format_shape(v.shape)}); "
                         f"give {2 * v.rank}: a before and an after for each axis")
    if any(p < 0 for p in flat):
        raise GraphError(f"pad: paddings must be non-negative, not {flat} (as in MAX); slice the value to cut it")
    return [(flat[2 * d], flat[2 * d + 1]) for d in range(v.rank)]


def pad(input: TensorValueLike, paddings: Iterable[int | np.integer | Sequence[int]], mode: str = "constant", value: TensorValueLike = 0) -> Value:
    """``input`` with elements added before and after each axis (MAX's ``ops.pad``).

    Args:
        input: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        paddings: ``[before_0, after_0, before_1, after_1, ...]``, non-negative (MAX's form), or
            NumPy's ``[(before_0, after_0), ...]``.
        mode: ``"constant"`` (``value``), ``"reflect"`` (the elements mirrored about the edge one,
            which is not repeated; a longer padding reflects again, as NumPy's and MAX's) or
            ``"edge"`` (the edge element repeated).
        value: The fill of ``"constant"``: a Python number that fits ``input``'s dtype, or a rank-0
            value of that dtype.

    Returns:
        A value of ``input``'s dtype with each axis longer by its two paddings.

    Raises:
        GraphError: The paddings are not two per axis or are negative, ``mode`` is unknown, or an
            axis to reflect or to repeat the edge of is empty.
        LiteralRangeError: ``value`` does not fit ``input``'s dtype.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("pad", input_types=[TensorType(DType.int32, [3])]) as g:
        ...     x = g.inputs[0]
        ...     g.output(ops.pad(x, [1, 2], value=9), ops.pad(x, [2, 1], mode="reflect"), ops.pad(x, [1, 1], "edge"))
        >>> [r.tolist() for r in g.compile()(np.array([1, 2, 3], np.int32))]
        [[9, 1, 2, 3, 9, 9], [3, 2, 1, 2, 3, 2], [1, 1, 2, 3, 3]]
    """
    v = unary_operand(input, "pad")
    pads = _paddings(v, paddings)
    if mode not in ("constant", "reflect", "edge"):
        raise GraphError(f"pad: unsupported padding mode {mode!r}; expected 'constant', 'reflect', or 'edge'")
    if mode == "constant":
        return _pad_constant(v, pads, value)
    out = v
    for d, (lo, hi) in enumerate(pads):
        if not lo and not hi:
            continue
        if mode == "reflect":
            n = out.shape[d]  # a symbolic axis must be longer than its paddings when the graph runs
            if isinstance(n, int) and (lo > n - 1 or hi > n - 1):  # reflected again and again, as NumPy's (and MAX's, measured)
                if n == 0:
                    raise GraphError(f"pad: axis {d} is empty, so it has nothing to reflect; use mode='constant'")
                period = max(2 * (n - 1), 1)
                where = np.arange(-lo, n + hi) % period
                source = np.where(where < n, where, period - where)
                out = gather(out, constant_value(out.graph, source.astype(np.int64), DType.int64), d)
                continue
            parts = [_reverse(_take(out, d, 1, lo + 1), d), out, _reverse(_take(out, d, n - 1 - hi, n - 1), d)]
        else:
            if isinstance(out.shape[d], int) and out.shape[d] == 0:
                raise GraphError(f"pad: axis {d} is empty, so it has no edge element to repeat; use mode='constant'")
            parts = [_repeated(_take(out, d, 0, 1), d, lo), out, _repeated(_take(out, d, -1, None), d, hi)]
        out = _concat(parts, d, out)
    return out


def _pad_constant(v: Value, pads: list[tuple[int, int]], value: TensorValueLike) -> Value:
    g = v.graph
    fill = operand(value, g)
    if isinstance(fill, Literal):
        fill = constant_value(g, fill.value, v.storage)
    if fill.rank != 0 or fill.storage is not v.storage:
        raise GraphError(f"pad: the value must be a number or a rank-0 value of the input's dtype "
                         f"{v.storage.name}, not {fill.storage.name}{format_shape(fill.shape)}; cast it first")
    if all(lo == 0 and hi == 0 for lo, hi in pads):
        return v
    if v.is_weak:  # the fill is a strong constant of the stored dtype: pad the value as that dtype
        v = convert(v, v.storage)
    shape = tuple(n + lo + hi for n, (lo, hi) in zip(v.shape, pads))  # algebraic where n is symbolic
    with g.context:
        attrs = {"edge_padding_low": ir.DenseI64ArrayAttr.get([lo for lo, _ in pads]),
                 "edge_padding_high": ir.DenseI64ArrayAttr.get([hi for _, hi in pads]),
                 "interior_padding": ir.DenseI64ArrayAttr.get([0] * v.rank)}
    op = g._add_op("stablehlo.pad", [g.tc.tensor(v.storage, shape)], [v.ir, fill.ir], attrs)
    return Value(g, op.result, v.storage, shape)


def split(x: TensorValueLike, split_sizes: Sequence[DimLike], axis: int = 0) -> list[Value]:
    """``x`` cut along ``axis`` into pieces of ``split_sizes`` (MAX's ``ops.split``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        split_sizes: The sizes of the pieces, non-negative, adding up to the size of ``axis``.
        axis: The axis to cut (negative counts from the end); default 0.

    Returns:
        One value per size, of ``x``'s dtype (``[]`` for no sizes).

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: The sizes are negative or do not add up to the axis, or the axis is symbolic.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("split", input_types=[TensorType(DType.float32, [2, 3])]) as g:
        ...     a, b = ops.split(g.inputs[0], [1, 2], axis=1)
        >>> a.shape, b.shape
        ([Dim(2), Dim(1)], [Dim(2), Dim(2)])
    """
    if isinstance(split_sizes, (str, bytes)) or not isinstance(split_sizes, Iterable):
        raise GraphError(f"split needs a list of piece sizes such as [1, 2], not {split_sizes!r}")
    sizes = [_count(s, "split: each size") for s in split_sizes]
    if not sizes:
        return []
    v = unary_operand(x, "split")
    if isinstance(axis, int) and not isinstance(axis, bool) and not -v.rank <= axis < v.rank:
        raise AxisError(f"Axis must be in range [{-v.rank}, {v.rank}), got {axis}: split's axis is out of range "
                        f"for a value of rank {v.rank} (shape {format_shape(v.shape)})")
    a = normalize_axis(axis, v.rank, "split")
    n = _static(v, a, "split")
    if any(s < 0 for s in sizes):
        raise GraphError(f"Split sizes must be positive: sizes={sizes} (split: a size may be 0, not negative)")
    if sum(sizes) != n:
        raise GraphError(f"Split sizes must sum to dimension value; x.shape[axis]={Dim(n)!r} != sum(sizes={sizes}): "
                         f"split: sizes {sizes} add up to {sum(sizes)}, but axis {axis} of {format_shape(v.shape)} "
                         f"has size {n}")
    starts = np.cumsum([0] + sizes).tolist()
    return [_take(v, a, start, start + s) for start, s in zip(starts, sizes)]


def chunk(x: TensorValueLike, chunks: int, axis: int = 0) -> list[Value]:
    """``x`` cut along ``axis`` into ``chunks`` pieces of equal size (MAX's ``ops.chunk``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        chunks: The number of pieces, positive; it must divide the size of ``axis``.
        axis: The axis to cut (negative counts from the end); default 0.

    Returns:
        ``chunks`` values of ``x``'s dtype.

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``chunks`` is not positive or does not divide the axis, or the axis is symbolic.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("chunk", input_types=[TensorType(DType.float32, [4])]) as g:
        ...     g.output(*ops.chunk(g.inputs[0], 2))
        >>> [r.tolist() for r in g.compile()(np.array([1, 2, 3, 4], np.float32))]
        [[1.0, 2.0], [3.0, 4.0]]
    """
    count = _count(chunks, "chunk: chunks")
    v = unary_operand(x, "chunk")
    if v.rank and count != 1:
        _static(v, normalize_axis(axis, v.rank, "chunk"), "chunk")  # MAX's TypeError comes first
    if count <= 0:
        raise GraphError(f"chunk: chunks must be positive, not {count}")
    if v.rank == 0:
        if count == 1:
            return [v]
        raise GraphError(f"chunk: cannot cut a scalar into {count} pieces")
    a = normalize_axis(axis, v.rank, "chunk")
    n = _static(v, a, "chunk")
    if n % count:
        raise GraphError(f"chunk: chunks={count} must statically divide x.shape[axis]=Dim({n}): {count} chunks do "
                         f"not divide axis {axis} of {format_shape(v.shape)} (size {n}) evenly; use ops.split "
                         "with the sizes you want")
    size = n // count
    return [_take(v, a, k * size, (k + 1) * size) for k in range(count)]


def tile(x: TensorValueLike, repeats: Iterable[DimLike]) -> Value:
    """``x`` repeated ``repeats[d]`` times along each axis ``d`` (MAX's ``ops.tile``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        repeats: One positive count per axis of ``x``.

    Returns:
        A value of ``x``'s dtype, each axis ``repeats[d]`` times as long.

    Raises:
        GraphError: ``repeats`` does not have one positive count per axis, or an axis repeated
            more than once is symbolic.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("tile", input_types=[TensorType(DType.int32, [1, 2])]) as g:
        ...     g.output(ops.tile(g.inputs[0], [2, 2]))
        >>> g.compile()(np.array([[1, 2]], np.int32))[0].tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    v = unary_operand(x, "tile")
    if isinstance(repeats, (str, bytes, Value)) or not isinstance(repeats, Iterable):
        raise GraphError(f"tile needs one count per axis, such as [2, 1], not {repeats!r}")
    counts: list[int | Dimension] = [as_dim(r, "tile: each count") if isinstance(r, (str, Dim)) and not isinstance(r, int)
                         else _count(r, "tile: each count") for r in repeats]
    if len(counts) != v.rank:
        raise GraphError(f"tile: {len(counts)} counts for a value of rank {v.rank} (shape {format_shape(v.shape)}); "
                         "give one count per axis, as MAX requires")
    if any(isinstance(c, int) and c <= 0 for c in counts):
        raise GraphError(f"tile: counts must be positive, not {counts} (as in MAX)")
    if all(isinstance(c, int) and c == 1 for c in counts):
        return v
    wide = tuple(x for c, n in zip(counts, v.shape) for x in (c, n))
    spread = _broadcast_in_dim(v, wide, [2 * d + 1 for d in range(v.rank)])
    return _reshaped(spread, tuple(c * n for c, n in zip(counts, v.shape)))


def repeat_interleave(x: TensorValueLike, repeats: "int | Value", axis: int | None = None,
                      out_dim: DimLike | None = None) -> Value:
    """Each element of ``x`` repeated along ``axis`` (MAX's ``ops.repeat_interleave``, PyTorch's name;
    NumPy's ``np.repeat``).

    Args:
        x: The value: a graph :class:`~latticecast.Value` (or a NumPy array).
        repeats: A positive count for every element, or a graph value of non-negative integer
            counts, one per element along ``axis`` (or one for all).
        axis: The axis to repeat along (negative counts from the end); ``None``: ``x`` flattened.
        out_dim: The size of the result's axis: required (an integer) when ``repeats`` is a graph
            value, whose total is known only when the graph runs; checked when given otherwise.

    Returns:
        A value of ``x``'s dtype, ``axis`` of size ``out_dim`` (or ``repeats`` times its size).

    Raises:
        AxisError: ``axis`` is out of range.
        GraphError: ``repeats`` is not positive, ``out_dim`` is missing, symbolic or wrong, or an
            axis is symbolic.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("repeat_interleave", input_types=[TensorType(DType.int32, [3])]) as g:
        ...     x = g.inputs[0]
        ...     counts = ops.constant(np.array([2, 0, 1]), DType.int64)
        ...     g.output(ops.repeat_interleave(x, 2), ops.repeat_interleave(x, counts, out_dim=3))
        >>> [r.tolist() for r in g.compile()(np.array([1, 2, 3], np.int32))]
        [[1, 1, 2, 2, 3, 3], [1, 1, 3]]
    """
    v = unary_operand(x, "repeat_interleave")
    if axis is None:
        total: Dimension = StaticDim(1)
        for d in v.shape:
            total = total * d
        v = _reshaped(v, (total,))
        a = 0
    else:
        a = normalize_axis(axis, v.rank, "repeat_interleave")
    n = v.shape[a]
    if isinstance(repeats, Value):
        return _repeat_by_value(v, a, n, repeats, out_dim)
    r = _count(repeats, "repeat_interleave: repeats")
    if r <= 0:
        raise GraphError(f"repeat_interleave: repeats must be positive, not {r} (as in MAX)")
    if out_dim is not None and Dim(out_dim) != n * r:
        raise GraphError(f"repeat_interleave: {r} repeats of an axis of size {n} give {n * r} elements, not "
                         f"out_dim={out_dim!r}")
    spread = _broadcast_in_dim(v, v.shape[:a + 1] + (r,) + v.shape[a + 1:], list(range(a + 1)) +
                               list(range(a + 2, v.rank + 1)))
    return _reshaped(spread, v.shape[:a] + (n * r,) + v.shape[a + 1:])


def _repeat_by_value(v: Value, axis: int, n: int, repeats: Value, out_dim: DimLike | None) -> Value:
    """Counts known when the graph runs: element ``j`` of the result is element ``i`` of ``v`` for the
    number ``i`` of running totals of ``repeats`` at or below ``j``."""
    if out_dim is None or isinstance(out_dim, bool) or not isinstance(out_dim, (int, np.integer)):
        raise GraphError(f"repeat_interleave: repeats given as a graph value need out_dim, the result's size as an "
                         f"integer, not {out_dim!r} (StableHLO needs the size when it builds the graph)")
    graph_of(v, repeats)
    if repeats.storage.is_inexact or repeats.storage.is_bool or repeats.rank > 1 or \
            repeats.shape not in ((), (1,), (n,)):
        raise GraphError(f"repeat_interleave: repeats must be integers with one count per element of the axis "
                         f"(shape [{n}]) or one for all, not {repeats.storage.name}{format_shape(repeats.shape)}")
    counts = convert(repeats, DType.int64)
    if counts.shape != (n,):
        counts = _broadcast_in_dim(_reshaped(counts, ()), (n,), [])
    totals = _reshaped(cumsum(counts), (1, n))
    positions = iota(v.graph, DType.int64, (int(out_dim), 1), 0)
    source = reduce_sum(convert(less_equal(totals, positions), DType.int64), axis=1)
    return gather(v, source, axis)


def _pair(x: object, what: str, least: int) -> tuple[int, int]:
    pair = tuple(x) if isinstance(x, (tuple, list)) else (x, x)
    if len(pair) != 2:
        raise GraphError(f"fold: {what} must be an integer or two, not {x!r}")
    a, b = (_count(p, f"fold: {what}") for p in pair)
    if a < least or b < least:
        raise GraphError(f"fold: {what} must be at least {least}, not {x!r}")
    return a, b


def fold(input: TensorValueLike, output_size: tuple[DimLike, DimLike], kernel_size: tuple[DimLike, DimLike],
         stride: "int | tuple[int, int]" = 1, dilation: "int | tuple[int, int]" = 1,
         padding: "int | tuple[int, int]" = 0) -> Value:
    """Sliding blocks summed back into an image (MAX's ``ops.fold``; PyTorch's ``nn.Fold``, col2im).

    ``input[n, c * kh * kw + i * kw + j, l]`` is element ``(i, j)`` of channel ``c`` of block ``l``
    (blocks in row-major order); each is added at its place in the ``output_size`` image, and
    overlapping places add up. With ``padding``, the result is the padded image cropped at the
    padding, as in PyTorch and MAX's documentation (MAX 26.7's kernel crops it at 0 instead:
    measured in ``tests/test_ops_indexing.py``).

    Args:
        input: A value of shape ``[N, C * kh * kw, L]``, ``L`` the number of blocks.
        output_size: The image's ``(height, width)``.
        kernel_size: The block's ``(kh, kw)``.
        stride: The step between blocks (one integer or two); default 1.
        dilation: The step between a block's elements; default 1.
        padding: Zeros around the image that blocks may cover (dropped from the result); default 0.

    Returns:
        A value of ``input``'s dtype and shape ``[N, C, height, width]``.

    Raises:
        GraphError: ``input`` is not rank 3, its axis 1 is not a multiple of ``kh * kw``, its
            axis 2 is not the number of blocks, a size is not a positive integer, or an axis
            other than the first is symbolic.

    Example:
        >>> import numpy as np
        >>> from latticecast import DType, Graph, TensorType, ops
        >>> with Graph("fold", input_types=[TensorType(DType.float32, [1, 4, 4])]) as g:
        ...     g.output(ops.fold(g.inputs[0], (3, 3), (2, 2)))
        >>> g.compile()(np.ones((1, 4, 4), np.float32))[0][0, 0].tolist()
        [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    v = unary_operand(input, "fold")
    if v.rank != 3:
        raise GraphError(f"fold takes a value of shape [N, C * kh * kw, L], not {format_shape(v.shape)}")
    (h, w), (kh, kw) = _pair(output_size, "output_size", 1), _pair(kernel_size, "kernel_size", 1)
    (sh, sw), (dh, dw), (ph, pw) = _pair(stride, "stride", 1), _pair(dilation, "dilation", 1), \
        _pair(padding, "padding", 0)
    ckk, blocks = _static(v, 1, "fold"), _static(v, 2, "fold")
    if ckk % (kh * kw):
        raise GraphError(f"fold: Dim 1 of the input tensor ({ckk}) must be a multiple of the product of the total "
                         f"kernel size ({kh * kw}): axis 1 of {format_shape(v.shape)} holds C * kh * kw values per "
                         f"block for kernel_size {(kh, kw)}")
    rows, cols = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if rows < 1 or cols < 1 or rows * cols != blocks:
        raise GraphError(f"fold: Last dimension of input tensor ({blocks}) must match the calculated number of "
                         f"blocks ({rows * cols}): axis 2 of {format_shape(v.shape)} ({blocks}) must be the number of blocks, "
                         f"{max(rows, 0)} * {max(cols, 0)} = {max(rows, 0) * max(cols, 0)} for output_size "
                         f"{(h, w)}, kernel_size {(kh, kw)}, stride {(sh, sw)}, dilation {(dh, dw)}, padding "
                         f"{(ph, pw)}")
    channels, hp, wp = ckk // (kh * kw), h + 2 * ph, w + 2 * pw
    k, block = np.arange(ckk)[:, None], np.arange(blocks)[None, :]
    row = (block // cols) * sh + (k // kw % kh) * dh
    col = (block % cols) * sw + (k % kw) * dw
    target = (k // (kh * kw)) * hp * wp + row * wp + col  # [C * kh * kw, L]: a place in the padded image
    g = v.graph
    n = v.shape[0]
    places = constant_value(g, target.reshape(-1, 1), DType.int64)
    image = broadcast(constant_value(g, np.zeros((), v.storage.np_dtype), v.storage), (n, channels * hp * wp))
    summed = _scatter(image, places, _reshaped(v, (n, ckk * blocks)), "add", window_dims=[0], inserted=[1],
                      index_map=[1], index_vector_dim=1)
    padded = _reshaped(summed, (n, channels, hp, wp))
    if not ph and not pw:
        return padded
    return slice_tensor(padded, [slice(None), slice(None), slice(ph, ph + h), slice(pw, pw + w)])
