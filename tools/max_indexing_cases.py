"""The cases that compare latticecast's indexing, sorting and tiling ops with MAX 26.7's.

Each case is ``(name, inputs, code)``: ``inputs`` are ``(dtype name, values)`` pairs that become
the graph's inputs ``a``, ``b``, ``c`` (in order), and ``code`` is one Python expression over them,
``ops``, ``np`` and ``DType`` that both ``max.graph`` and ``latticecast.max`` read the same way.
``tools/record_max_indexing.py`` runs them with real MAX and writes what MAX did to
``tests/data/max_indexing.json``; ``tests/test_ops_indexing.py`` runs them with latticecast.
The module imports neither library.
"""

from __future__ import annotations

from typing import Any

X = [[3.0, 1.0, 2.0, 5.0], [0.0, 7.0, 7.0, -1.0]]
U = [[10.0, 20.0], [30.0, 40.0]]

Case = tuple[str, list[tuple[str, Any]], str]

#: Cases whose values MAX computes (compiled together as one graph) and latticecast must match.
VALUES: list[Case] = [
    ("gather", [("float32", X), ("int64", [0, -1, 3])], "ops.gather(a, b, axis=1)"),
    ("gather_int32_2d", [("float32", X), ("int32", [[0, 1], [1, 1]])], "ops.gather(a, b, axis=0)"),
    ("gather_nd", [("float32", X), ("int64", [[0, 1], [1, 3], [1, 0]])], "ops.gather_nd(a, b)"),
    ("gather_nd_batch", [("float32", X), ("int64", [[1], [3]])], "ops.gather_nd(a, b, batch_dims=1)"),
    ("gather_nd_rows", [("float32", X), ("int64", [[1]])], "ops.gather_nd(a, b)"),
    ("scatter", [("float32", X), ("float32", U), ("int64", [[0, 2], [3, 1]])], "ops.scatter(a, b, c, axis=1)"),
    ("scatter_axis0", [("float32", X), ("float32", U), ("int64", [[1, 0], [0, 1]])], "ops.scatter(a, b, c, axis=0)"),
    ("scatter_add", [("float32", X), ("float32", U), ("int64", [[0, 0], [3, -1]])], "ops.scatter_add(a, b, c, axis=1)"),
    ("scatter_max", [("float32", X), ("float32", U), ("int64", [[0, 0], [3, 1]])], "ops.scatter_max(a, b, c, axis=1)"),
    ("scatter_min", [("float32", X), ("float32", U), ("int64", [[0, 0], [3, 1]])], "ops.scatter_min(a, b, c, axis=1)"),
    ("scatter_mul", [("float32", X), ("float32", U), ("int64", [[0, 0], [3, 1]])], "ops.scatter_mul(a, b, c, axis=1)"),
    ("scatter_nd", [("float32", X), ("float32", [10.0, 20.0]), ("int64", [[0, 1], [1, 2]])], "ops.scatter_nd(a, b, c)"),
    ("scatter_nd_add", [("float32", X), ("float32", [10.0, 20.0]), ("int64", [[0, 1], [0, 1]])],
     "ops.scatter_nd_add(a, b, c)"),
    ("scatter_nd_max", [("float32", X), ("float32", [10.0, 20.0]), ("int64", [[0, 1], [1, 0]])],
     "ops.scatter_nd_max(a, b, c)"),
    ("scatter_nd_min", [("float32", X), ("float32", [10.0, 20.0]), ("int64", [[0, 1], [1, 0]])],
     "ops.scatter_nd_min(a, b, c)"),
    ("scatter_nd_mul", [("float32", X), ("float32", [10.0, 20.0]), ("int64", [[0, 1], [0, 1]])],
     "ops.scatter_nd_mul(a, b, c)"),
    ("scatter_nd_rows", [("float32", X), ("float32", [[1.0, 1.0, 1.0, 1.0]]), ("int64", [[1]])],
     "ops.scatter_nd(a, b, c)"),
    ("top_k", [("float32", X)], "ops.top_k(a, 2)"),
    ("top_k_axis0", [("float32", X)], "ops.top_k(a, 1, axis=0)"),
    ("top_k_int", [("int32", [4, 9, 9, 1])], "ops.top_k(a, 3)"),
    ("bottom_k", [("float32", X)], "ops.bottom_k(a, 2)"),
    ("argsort", [("float32", [3.0, 1.0, 1.0, 0.0])], "ops.argsort(a)"),
    ("argsort_descending", [("float32", [3.0, 1.0, 1.0, 0.0])], "ops.argsort(a, ascending=False)"),
    ("cumsum", [("float32", X)], "ops.cumsum(a)"),
    ("cumsum_exclusive_axis0", [("float32", X)], "ops.cumsum(a, axis=0, exclusive=True)"),
    ("cumsum_reverse", [("float32", X)], "ops.cumsum(a, reverse=True)"),
    ("cumsum_exclusive_reverse", [("float32", X)], "ops.cumsum(a, exclusive=True, reverse=True)"),
    ("cumsum_int32", [("int32", [1, 2, 3])], "ops.cumsum(a)"),
    ("pad", [("float32", X)], "ops.pad(a, [1, 0, 0, 2], value=9)"),
    ("pad_reflect", [("float32", X)], "ops.pad(a, [1, 1, 2, 1], mode='reflect')"),
    ("pad_edge", [("float32", X)], "ops.pad(a, [1, 1, 2, 1], mode='edge')"),
    ("split", [("float32", X)], "ops.split(a, [1, 3], axis=1)"),
    ("chunk", [("float32", X)], "ops.chunk(a, 2, axis=1)"),
    ("tile", [("float32", X)], "ops.tile(a, [2, 3])"),
    ("repeat_interleave", [("float32", X)], "ops.repeat_interleave(a, 2, axis=0)"),
    ("repeat_interleave_flat", [("float32", X)], "ops.repeat_interleave(a, 2)"),
    ("repeat_interleave_counts", [("float32", [1.0, 2.0, 3.0]), ("int64", [2, 0, 2])],
     "ops.repeat_interleave(a, b, axis=0, out_dim=4)"),
    ("outer", [("float32", [1.0, 2.0]), ("float32", [1.0, 2.0, 3.0])], "ops.outer(a, b)"),
    ("nonzero", [("float32", X)], "ops.nonzero(a, 7)"),
    ("nonzero_bool", [("bool", [False, True, True])], "ops.nonzero(a, 2)"),
    ("masked_scatter", [("float32", X), ("bool", [[True, False, False, True], [False, True, True, False]]),
                        ("float32", [10.0, 20.0, 30.0, 40.0])], "ops.masked_scatter(a, b, c, out_dim=4)"),
    ("fold", [("float32", [[[float(i * 6 + j) for j in range(6)] for i in range(8)]])],
     "ops.fold(a, (4, 3), (2, 2), stride=(2, 1), dilation=1, padding=(1, 0))"),
    ("range_float", [], "ops.range(0, 1, 0.3, dtype=DType.float32, device=DeviceRef.CPU())"),
]

#: Cases MAX only builds: their result types, or the error MAX raises.
BUILDS: list[Case] = [
    ("gather_bad_axis", [("float32", X), ("int64", [0])], "ops.gather(a, b, axis=2)"),
    ("gather_float_indices", [("float32", X), ("float32", [0.0])], "ops.gather(a, b, axis=0)"),
    ("top_k_k_too_large", [("float32", X)], "ops.top_k(a, 5)"),
    ("top_k_k0", [("float32", X)], "ops.top_k(a, 0)"),
    ("top_k_bad_axis", [("float32", X)], "ops.top_k(a, 1, axis=2)"),
    ("argsort_rank2", [("float32", X)], "ops.argsort(a)"),
    ("cumsum_bad_axis", [("float32", X)], "ops.cumsum(a, axis=2)"),
    ("cumsum_int8", [("int8", [100, 100, 1])], "ops.cumsum(a)"),
    ("pad_negative", [("float32", X)], "ops.pad(a, [-1, 0, 0, 0])"),
    ("pad_bad_mode", [("float32", X)], "ops.pad(a, [1, 0, 0, 0], mode='wrap')"),
    ("split_bad_sizes", [("float32", X)], "ops.split(a, [1, 2], axis=1)"),
    ("split_bad_axis", [("float32", X)], "ops.split(a, [1, 1], axis=5)"),
    ("chunk_uneven", [("float32", X)], "ops.chunk(a, 3, axis=1)"),
    ("tile_short", [("float32", X)], "ops.tile(a, [2])"),
    ("tile_zero", [("float32", X)], "ops.tile(a, [0, 1])"),
    ("repeat_interleave_zero", [("float32", X)], "ops.repeat_interleave(a, 0)"),
    ("repeat_interleave_bad_axis", [("float32", X)], "ops.repeat_interleave(a, 2, axis=3)"),
    ("outer_rank2", [("float32", X)], "ops.outer(a, a)"),
    ("outer_mixed", [("float32", [1.0, 2.0]), ("int32", [1, 2, 3])], "ops.outer(a, b)"),
    ("scatter_int_updates", [("float32", X), ("int32", [[1, 2], [3, 4]]), ("int64", [[0, 0], [3, 1]])],
     "ops.scatter(a, b, c, axis=1)"),
    ("scatter_float64_updates", [("float32", X), ("float64", U), ("int64", [[0, 0], [3, 1]])],
     "ops.scatter_add(a, b, c, axis=1)"),
    ("scatter_nd_int_updates", [("float32", X), ("int32", [10, 20]), ("int64", [[0, 1], [0, 1]])],
     "ops.scatter_nd(a, b, c)"),
    # MAX builds a [2] range here and then fails to compile it; so is range(5, 0, -2)
    ("range", [], "ops.range(0, 5, 2, dtype=DType.int64, device=DeviceRef.CPU())"),
    ("nonzero_symbolic", [("float32", X)], "ops.nonzero(a, 'nnz')"),
    ("nonzero_scalar", [("float32", 1.0)], "ops.nonzero(a, 1)"),
    ("fold_bad_blocks", [("float32", [[[0.0] * 3] * 8])], "ops.fold(a, (4, 3), (2, 2))"),
    ("fold_bad_channels", [("float32", [[[0.0] * 6] * 7])], "ops.fold(a, (4, 3), (2, 2))"),
    ("range_neg_step", [], "ops.range(5, 0, -2, dtype=DType.int64, device=DeviceRef.CPU())"),
]
