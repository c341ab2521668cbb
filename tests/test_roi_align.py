"""ops.roi_align against a NumPy reference of torchvision's/ONNX's RoiAlign (NHWC), both modes, fixed and
adaptive sampling, aligned or not; and MAX's errors (messages measured with MAX 26.7)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from latticecast.max import DType, Graph, TensorType, ops


def _bilinear(image: np.ndarray, y: float, x: float) -> np.ndarray:
    height, width, _ = image.shape
    if y < -1.0 or y > height or x < -1.0 or x > width:
        return np.zeros(image.shape[-1])
    y, x = max(y, 0.0), max(x, 0.0)
    y_low, x_low = int(y), int(x)
    if y_low >= height - 1:
        y_low = y_high = height - 1
        y = float(y_low)
    else:
        y_high = y_low + 1
    if x_low >= width - 1:
        x_low = x_high = width - 1
        x = float(x_low)
    else:
        x_high = x_low + 1
    ly, lx = y - y_low, x - x_low
    hy, hx = 1 - ly, 1 - lx
    return (hy * hx * image[y_low, x_low] + hy * lx * image[y_low, x_high] + ly * hx * image[y_high, x_low]
            + ly * lx * image[y_high, x_high])


def reference(images: np.ndarray, rois: np.ndarray, oh: int, ow: int, scale: float, ratio: int, aligned: bool,
              mode: str) -> np.ndarray:
    out = np.zeros((len(rois), oh, ow, images.shape[-1]))
    offset = 0.5 if aligned else 0.0
    for m, (b, x1, y1, x2, y2) in enumerate(rois):
        x1, y1, x2, y2 = (v * scale - offset for v in (x1, y1, x2, y2))
        roi_w, roi_h = x2 - x1, y2 - y1
        if not aligned:
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / oh, roi_w / ow
        grid_h = ratio if ratio > 0 else math.ceil(roi_h / oh)
        grid_w = ratio if ratio > 0 else math.ceil(roi_w / ow)
        count = max(grid_h * grid_w, 1)
        for ph in range(oh):
            for pw in range(ow):
                samples = [_bilinear(images[int(b)], y1 + ph * bin_h + (iy + 0.5) * bin_h / grid_h,
                                     x1 + pw * bin_w + (ix + 0.5) * bin_w / grid_w)
                           for iy in range(grid_h) for ix in range(grid_w)]
                if samples:
                    out[m, ph, pw] = np.max(samples, axis=0) if mode == "MAX" else np.sum(samples, axis=0) / count
    return out


@pytest.mark.parametrize("mode", ["AVG", "MAX"])
@pytest.mark.parametrize("ratio,aligned", [(0, False), (0, True), (2, False), (1, True)])
def test_roi_align_matches_the_reference(mode: str, ratio: int, aligned: bool) -> None:
    rng = np.random.default_rng(3)
    images = rng.standard_normal((2, 7, 9, 3)).astype(np.float32)
    rois = np.array([[0, 0.5, 1.0, 6.0, 5.5], [1, 2.0, 0.0, 3.0, 1.0], [1, -2.0, -1.0, 12.0, 9.0],
                     [0, 4.2, 3.3, 4.4, 3.5]], np.float32)
    with Graph("roi", input_types=[TensorType(DType.float32, images.shape, "cpu"),
                                   TensorType(DType.float32, rois.shape, "cpu")]) as g:
        out = ops.roi_align(*g.inputs, output_height=3, output_width=2, spatial_scale=0.9, sampling_ratio=ratio,
                            aligned=aligned, mode=mode)
        assert list(out.shape) == [4, 3, 2, 3] and out.dtype == DType.float32
        g.output(out)
    (got,) = g.compile()(images, rois)
    np.testing.assert_allclose(got, reference(images, rois, 3, 2, 0.9, ratio, aligned, mode), rtol=1e-4, atol=1e-5)


def test_roi_align_keeps_float64_and_refuses_maxs_errors() -> None:
    with Graph("roi", input_types=[TensorType(DType.float64, [2, 8, 8, 1], "cpu"),
                                   TensorType(DType.float64, [1, 5], "cpu"),
                                   TensorType(DType.float32, [10, 10], "cpu")]) as g:
        x, rois, flat = g.inputs
        assert ops.roi_align(x, rois, output_height=2, output_width=2).dtype == DType.float64
        with pytest.raises(ValueError, match="roi_align expects rank-4 NHWC input, got rank 2"):
            ops.roi_align(flat, rois, output_height=3, output_width=3)
        with pytest.raises(ValueError, match="roi_align expects rank-2 rois"):
            ops.roi_align(x, x, output_height=3, output_width=3)
        with pytest.raises(ValueError, match="roi_align mode must be 'AVG' or 'MAX', got 'SUM'"):
            ops.roi_align(x, rois, output_height=3, output_width=3, mode="SUM")
