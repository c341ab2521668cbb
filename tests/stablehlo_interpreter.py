"""A second oracle for conversions: jaxlib's StableHLO reference interpreter (``stablehlo.eval_module``).

It evaluates StableHLO op by op, from the specification, without XLA, and it
accepts every low-precision type (float6 too, which XLA:CPU cannot compile). Its
results come back as MLIR attributes, which NumPy reads only for bool, the
classic integers and f16/f32/f64, so :func:`convert_with_interpreter` returns the
converted values widened exactly inside the module (f8/f6/f4 to f32, i2/i4 to
i32): every value of those types is a float32 or an int32.
"""

from __future__ import annotations

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from latticecast import DType
from latticecast.dialect_utils.context import make_context
from latticecast.dialect_utils.types import type_cache

_CTX = make_context()


def widened(dtype: DType) -> DType:
    """The dtype the interpreter's result is widened to, exactly."""
    return DType.float32 if dtype.is_float() else DType.int32 if dtype.is_signed else DType.uint32


def convert_with_interpreter(values: np.ndarray, source: DType, target: DType) -> np.ndarray:
    """``stablehlo.convert`` of ``values`` (``source``'s host array) to ``target``, read back widened."""
    wide = widened(target)
    n = values.size
    tc = type_cache(_CTX)
    text = f"""func.func @main(%x: tensor<{n}x{source.mlir_name}>) -> tensor<{n}x{wide.mlir_name}> {{
      %0 = stablehlo.convert %x : (tensor<{n}x{source.mlir_name}>) -> tensor<{n}x{target.mlir_name}>
      %1 = stablehlo.convert %0 : (tensor<{n}x{target.mlir_name}>) -> tensor<{n}x{wide.mlir_name}>
      return %1 : tensor<{n}x{wide.mlir_name}> }}"""
    with _CTX, ir.Location.unknown():
        module = ir.Module.parse(text)
        arg = ir.DenseElementsAttr.get(np.ascontiguousarray(values.reshape(-1)), type=tc.element(source))
        (out,) = stablehlo.eval_module(module, [arg])
        return np.array(out).astype(wide.np_dtype)
