"""``ops.non_maximum_suppression`` against MAX 26.7's own results, case by case and row by row.

``tests/data/max_nms_26_7.json`` holds what MAX returned on the CPU for six seeded cases
(``tools/measure_max_nms.py`` measured it): spread-out boxes, flipped corners, a tie of scores,
``max_output_boxes_per_class = 0`` and clusters of nearly equal boxes. latticecast's result has a
static number of rows (``out_dim``): MAX's rows first, then rows of ``-1``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from latticecast.errors import GraphError
from latticecast.max import DeviceRef, DType, Graph, TensorType, ops

MEASURED = json.loads((Path(__file__).parent / "data" / "max_nms_26_7.json").read_text())
CPU = DeviceRef.CPU()


@pytest.mark.parametrize("case", MEASURED["cases"], ids=lambda c: f"{len(c['selected'])}_rows")
def test_the_selection_is_max_s(case):
    boxes = np.array(case["boxes"], np.float32)
    scores = np.array(case["scores"], np.float32)
    want = np.array(case["selected"], np.int64).reshape(-1, 3)
    rows = boxes.shape[0] * scores.shape[1] * boxes.shape[1]
    types = [TensorType(DType.float32, boxes.shape, device=CPU), TensorType(DType.float32, scores.shape, device=CPU)]
    with Graph("nms", input_types=types) as g:
        b, s = g.inputs
        g.output(ops.non_maximum_suppression(
            b.tensor, s.tensor, ops.constant(case["max_output_boxes_per_class"], DType.int64, device=CPU),
            ops.constant(case["iou_threshold"], DType.float32, device=CPU),
            ops.constant(case["score_threshold"], DType.float32, device=CPU), out_dim=rows))
    (got,) = g.compile()(boxes, scores)
    assert got.shape == (rows, 3) and got.dtype == np.int64
    np.testing.assert_array_equal(got[:len(want)], want)
    assert (got[len(want):] == -1).all()


def test_max_s_symbolic_out_dim_is_refused_with_the_fix():
    types = [TensorType(DType.float32, [1, 3, 4], device=CPU), TensorType(DType.float32, [1, 2, 3], device=CPU)]
    with Graph("nms_errors", input_types=types) as g:
        b, s = g.inputs
        with pytest.raises(GraphError, match="out_dim must be an integer from 0 to 6.*rows past the selection are -1"):
            ops.non_maximum_suppression(b, s, 1, 0.5, 0.0)
        with pytest.raises(GraphError, match=r"boxes must be floats of shape \[batch, num_boxes, 4\]"):
            ops.non_maximum_suppression(s, s, 1, 0.5, 0.0, out_dim=2)
        with pytest.raises(GraphError, match="scores must be float32"):
            ops.non_maximum_suppression(b, ops.cast(s, DType.float16), 1, 0.5, 0.0, out_dim=2)
        with pytest.raises(GraphError, match="iou_threshold must be a scalar"):
            ops.non_maximum_suppression(b, s, 1, s, 0.0, out_dim=2)
