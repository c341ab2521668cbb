"""MAX's weight sharding strategies (latticecast.max: ShardingStrategy, Segment, *_sharding_strategy)."""

from __future__ import annotations

import numpy as np
import pytest

from latticecast.max import (DeviceRef, DType, Graph, Segment, ShardingStrategy, Weight, col_sharding_strategy,
                             head_aware_col_sharding_strategy, row_sharding_strategy, segmented_sharding_strategy,
                             stacked_qkv_sharding_strategy)


def _shape(value: object) -> list[int]:
    return [int(d) for d in value.shape]  # type: ignore[attr-defined]


def test_uneven_rows_and_columns_give_the_first_devices_one_more() -> None:
    with Graph("g", input_types=[]):
        w = Weight("w", DType.float32, [151674, 8], DeviceRef.CPU())
        assert [_shape(row_sharding_strategy(w, i, 4))[0] for i in range(4)] == [37919, 37919, 37918, 37918]
        v = Weight("v", DType.float32, [8, 10], DeviceRef.CPU())
        assert [_shape(col_sharding_strategy(v, i, 3))[1] for i in range(3)] == [4, 3, 3]


def test_head_aware_shards_whole_heads_and_packed_columns() -> None:
    with Graph("g", input_types=[]):
        w = Weight("o", DType.float32, [4, 30 * 2], DeviceRef.CPU())
        assert [_shape(head_aware_col_sharding_strategy(w, i, 4, 30, 2))[1] for i in range(4)] == [16, 16, 14, 14]
        packed = Weight("p", DType.uint8, [4, 32 * 64 // 2], DeviceRef.CPU())
        assert _shape(segmented_sharding_strategy(packed, 0, 4, axis=1,
                                                  segments=(Segment.head_aware(32, 64),)))[1] == 8 * 64 // 2


def test_stacked_qkv_matches_three_head_aware_segments_and_its_values() -> None:
    heads, head_dim = 3, 2
    hidden = heads * head_dim
    with Graph("g", input_types=[]) as g:
        w = Weight("qkv", DType.float32, [3 * hidden, 1], DeviceRef.CPU())
        piece = stacked_qkv_sharding_strategy(w, 1, 2, heads, head_dim)
        assert _shape(piece) == [3 * head_dim, 1]
        g.output(piece)
    rows = np.arange(3 * hidden, dtype=np.float32).reshape(-1, 1)
    (out,) = g.compile()(rows)
    # device 1 holds head 2 of each of Q, K and V
    np.testing.assert_array_equal(out[:, 0], [4, 5, 10, 11, 16, 17])


def test_segments_must_cover_the_axis() -> None:
    with Graph("g", input_types=[]):
        w = Weight("w", DType.float32, [1000, 4], DeviceRef.CPU())
        with pytest.raises(ValueError, match="segments cover 500 slots"):
            segmented_sharding_strategy(w, 0, 4, axis=0, segments=(Segment.even(500),))
        with pytest.raises(ValueError, match="Stacked QKV weight must have shape"):
            stacked_qkv_sharding_strategy(w, 0, 4, 1, 1)


def test_strategy_kinds_and_sharded_axis() -> None:
    assert ShardingStrategy.rowwise(2).is_rowwise and not ShardingStrategy.rowwise(2).is_colwise
    assert ShardingStrategy.head_aware_columnwise(2, 8, 64).is_head_aware_colwise
    assert not ShardingStrategy.head_aware_columnwise(2, 8, 64).is_colwise
    assert [s.sharded_axis for s in (ShardingStrategy.rowwise(2), ShardingStrategy.columnwise(2),
                                     ShardingStrategy.replicate(2), ShardingStrategy.stacked_qkv(2, 8, 64),
                                     ShardingStrategy.gate_up(2), ShardingStrategy.axiswise(3, 2),
                                     ShardingStrategy.segmented(2, 1, (Segment.even(4),)),
                                     ShardingStrategy.tensor_parallel(2))] == [0, 1, None, 0, 2, 3, 1, None]
    with pytest.raises(NotImplementedError, match="placeholder"):
        ShardingStrategy.expert_parallel(2)(None, 0)
