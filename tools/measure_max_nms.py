#!/usr/bin/env python3
"""Measure MAX's ``ops.non_maximum_suppression`` on the CPU, for ``tests/test_nms.py``.

Run with an interpreter that has MAX 26.7 (``pip install max==26.7.0``; it needs nothing from
latticecast, and no GPU):

    /path/to/venv-with-max/bin/python tools/measure_max_nms.py [OUT]

Writes ``tests/data/max_nms_26_7.json`` (or OUT): for six seeded random cases (boxes spread out,
boxes with flipped corners, a tie of scores, ``max_output_boxes_per_class = 0``, and clusters of
four nearly equal boxes, where suppression decides), the inputs, the thresholds and the rows MAX
returned, ``(batch_index, class_index, box_index)``. Each graph is built as MAX's documentation
writes it and run with ``InferenceSession(devices=[CPU()])``.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "max_nms_26_7.json"

# (batch, classes, boxes, max_output_boxes_per_class, iou_threshold, score_threshold)
CASES = [(1, 1, 3, 2, 0.5, 0.0), (2, 3, 10, 4, 0.3, 0.2), (1, 2, 8, 10, 0.5, -1.0), (2, 1, 6, 0, 0.5, 0.0),
         (2, 2, 12, 5, 0.5, 0.1), (1, 3, 12, 12, 0.2, 0.0)]


def inputs(rng: np.random.Generator, batch: int, classes: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Random boxes ``(y1, x1, y2, x2)`` and scores for one case (the special cases by their size)."""
    corner = rng.uniform(0, 10, (batch, count, 2))
    size = rng.uniform(1, 5, (batch, count, 2))
    if count == 12:  # three clusters of four nearly equal boxes
        corner = np.repeat(rng.uniform(0, 10, (batch, 3, 2)), 4, axis=1) + rng.uniform(-0.3, 0.3, (batch, count, 2))
        size = np.full((batch, count, 2), 3.0) + rng.uniform(-0.2, 0.2, (batch, count, 2))
    boxes = np.concatenate([corner, corner + size], -1).astype(np.float32)
    if count == 8:
        boxes[0, 3] = boxes[0, 3][[2, 3, 0, 1]]  # the second corner first
    scores = rng.uniform(0, 1, (batch, classes, count)).astype(np.float32)
    if count == 10:
        scores[1, 2, 4] = scores[1, 2, 5]  # a tie
    return boxes, scores


def main(out: Path = OUT) -> None:
    from max.driver import CPU
    from max.dtype import DType
    from max.engine import InferenceSession
    from max.graph import DeviceRef, Graph, TensorType, ops

    device = DeviceRef.CPU()
    rng = np.random.default_rng(0)
    cases = []
    for batch, classes, count, most, iou, floor in CASES:
        boxes, scores = inputs(rng, batch, classes, count)
        types = [TensorType(DType.float32, boxes.shape, device=device),
                 TensorType(DType.float32, scores.shape, device=device)]
        with Graph("nms", input_types=types) as graph:
            b, s = graph.inputs
            graph.output(ops.non_maximum_suppression(
                b.tensor, s.tensor, ops.constant(most, DType.int64, device=device),
                ops.constant(iou, DType.float32, device=device), ops.constant(floor, DType.float32, device=device)))
        selected = InferenceSession(devices=[CPU()]).load(graph).execute(boxes, scores)[0].to_numpy()
        cases.append({"max_output_boxes_per_class": most, "iou_threshold": iou, "score_threshold": floor,
                      "boxes": boxes.tolist(), "scores": scores.tolist(), "selected": selected.tolist()})
    out.write_text(json.dumps({"measured_by": f"MAX {version('max')} ops.non_maximum_suppression on the CPU "
                                              "(tools/measure_max_nms.py)", "cases": cases}))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
