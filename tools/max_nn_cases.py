"""The nn, math and pooling cases that ``tests/test_ops_nn.py`` checks against MAX 26.7.

Each case is written once against a ``max.graph.ops``-like namespace, so it runs unchanged on MAX
(``tools/run_max_nn.py`` records MAX's outputs) and on ``latticecast.max.ops`` (the test). No import of
MAX or latticecast here. ``CASES[name] = (input shapes, build)``: ``build(ops, *inputs)`` returns one
value. Inputs are float32, drawn by ``inputs(name)`` from a generator seeded by the case's name, uniform in
[-0.95, 0.95] (inside ``acos``'s and ``atanh``'s domain; MAX clamps outside it where StableHLO gives NaN).
"""

from __future__ import annotations

import zlib
from typing import Any, Callable

import numpy as np

Build = Callable[..., Any]

CASES: dict[str, tuple[list[tuple[int, ...]], Build]] = {
    "conv2d": ([(1, 5, 6, 3), (3, 2, 3, 4)],
               lambda ops, x, f: ops.conv2d(x, f, stride=(2, 1), dilation=(1, 2), padding=(1, 0, 2, 1))),
    "conv2d_groups_bias": ([(2, 4, 4, 4), (3, 3, 2, 6), (6,)],
                           lambda ops, x, f, b: ops.conv2d(x, f, groups=2, bias=b)),
    "conv3d": ([(1, 4, 5, 6, 2), (2, 3, 2, 2, 3)],
               lambda ops, x, f: ops.conv3d(x, f, stride=(1, 2, 1), padding=(1, 0, 0, 1, 1, 1))),
    "conv2d_transpose": ([(1, 3, 4, 2), (3, 3, 5, 2)],
                         lambda ops, x, f: ops.conv2d_transpose(x, f, stride=(2, 2))),
    "conv2d_transpose_padded": ([(1, 3, 4, 2), (3, 3, 5, 2)],
                                lambda ops, x, f: ops.conv2d_transpose(x, f, stride=(2, 2), padding=(1, 0, 0, 1))),
    "conv2d_transpose_dilated": ([(2, 3, 4, 2), (3, 2, 5, 2)],
                                 lambda ops, x, f: ops.conv2d_transpose(x, f, stride=(1, 3), dilation=(2, 1))),
    "max_pool2d": ([(1, 5, 7, 2)], lambda ops, x: ops.max_pool2d(x, (2, 3), stride=2, padding=1)),
    "max_pool2d_ceil": ([(1, 5, 7, 2)], lambda ops, x: ops.max_pool2d(x, (2, 3), stride=2, padding=1,
                                                                       ceil_mode=True)),
    "max_pool2d_dilated": ([(1, 6, 7, 2)], lambda ops, x: ops.max_pool2d(x, (2, 2), stride=(2, 3), dilation=2)),
    "avg_pool2d": ([(1, 5, 7, 2)], lambda ops, x: ops.avg_pool2d(x, (2, 3), stride=2, padding=1)),
    "avg_pool2d_no_boundary": ([(1, 5, 7, 2)], lambda ops, x: ops.avg_pool2d(x, (2, 3), stride=2, padding=1,
                                                                             count_boundary=False)),
    "avg_pool2d_ceil": ([(2, 9, 8, 3)], lambda ops, x: ops.avg_pool2d(x, (3, 3), stride=2, padding=1,
                                                                      ceil_mode=True)),
    "avg_pool2d_ceil_no_boundary": ([(2, 9, 8, 3)], lambda ops, x: ops.avg_pool2d(x, (3, 3), stride=2, padding=1,
                                                                                  ceil_mode=True,
                                                                                  count_boundary=False)),
    "rms_norm": ([(2, 5), (5,)], lambda ops, x, w: ops.rms_norm(x, w, 1e-6)),
    "rms_norm_gemma": ([(2, 3, 5), (5,)], lambda ops, x, w: ops.rms_norm(x, w, 1e-6, weight_offset=1.0,
                                                                          multiply_before_cast=True)),
    "group_norm": ([(2, 6, 3, 2), (6,), (6,)], lambda ops, x, g, b: ops.group_norm(x, g, b, 3, 1e-5)),
    "group_norm_rank3": ([(2, 6, 3), (6,), (6,)], lambda ops, x, g, b: ops.group_norm(x, g, b, 2, 1e-5)),
    "resize_linear": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_linear(x, [1, 2, 6, 7])),
    "resize_linear_align_corners": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_linear(x, [1, 2, 5, 3], 1)),
    "resize_linear_asymmetric": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_linear(x, [1, 2, 6, 2], 2)),
    "resize_linear_half_pixel_1d": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_linear(x, [1, 2, 1, 6], 3)),
    "resize_linear_antialias": ([(1, 1, 8, 9)], lambda ops, x: ops.resize_linear(x, [1, 1, 3, 4], antialias=True)),
    "resize_nearest": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_nearest(x, [1, 2, 7, 9])),
    "resize_nearest_align_corners_half_up": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_nearest(x, [1, 2, 5, 2], 1, 1)),
    "resize_nearest_asymmetric_floor": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_nearest(x, [1, 2, 6, 3], 2, 2)),
    "resize_nearest_ceil": ([(1, 2, 3, 4)], lambda ops, x: ops.resize_nearest(x, [1, 2, 5, 6], 0, 3)),
    "resize_bicubic": ([(1, 2, 4, 5)], lambda ops, x: ops.resize_bicubic(x, [1, 2, 7, 3])),
    "acos": ([(3, 4)], lambda ops, x: ops.acos(x)),
    "atanh": ([(3, 4)], lambda ops, x: ops.atanh(x)),
}


def inputs(name: str) -> list[np.ndarray]:
    """The case's inputs (the same on every run and machine)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return [rng.uniform(-0.95, 0.95, shape).astype(np.float32) for shape in CASES[name][0]]
