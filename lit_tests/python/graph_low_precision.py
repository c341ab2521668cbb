# The demo's fp8 line, end to end: int16 + float8_e4m3fn under jax (float8_e4m3fn) and numpy
# (refused), the IR after implicit-cast, the run on PJRT, and the lossy-promotion warning.
# RUN: %python %s 2>&1 | FileCheck %s

import warnings

import ml_dtypes
import numpy as np

import latticecast as lc
from latticecast import DType, Graph, TensorType

x = np.array([1, 2, 300, -7], np.int16)
y = np.array([0.5, 1.0, 2.0, 448.0], np.float32).astype(ml_dtypes.float8_e4m3fn)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with Graph("fp8", [TensorType(DType.int16, [4]), TensorType(DType.float8_e4m3fn, [4])], policy="jax",
               diagnose_lossy="warning") as g:
        a, b = g.inputs
        g.output(a + b)
    print(g.mlir())
    print("diagnostics:", *g.diagnostics)
(out,) = g.compile()(x, y)
print("jax:", out.dtype, out.astype(np.float32).tolist())
try:
    lc.policy("numpy").promote_types(DType.int16, DType.float8_e4m3fn)
except lc.PromotionError as e:
    print("numpy:", e)

# CHECK:       func.func public @main(%[[X:.+]]: tensor<4xi16>, %[[Y:.+]]: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
# CHECK-NEXT:  %[[C:.+]] = stablehlo.convert %[[X]] : (tensor<4xi16>) -> tensor<4xf8E4M3FN>
# CHECK-NEXT:  %[[S:.+]] = stablehlo.add %[[C]], %[[Y]] : tensor<4xf8E4M3FN>
# CHECK-NEXT:  return %[[S]]
# CHECK:       diagnostics: {{.*}}warning: 'stablehlo.add' op implicit promotion of i16 to f8E4M3FN can lose magnitude: i16 values up to 3.28e+04 exceed f8E4M3FN's largest finite value 448 (they become NaN: it has no infinities)
# 300 rounds to 288 in float8_e4m3fn; 448 + -7 = 441 rounds to 448.
# CHECK:       jax: float8_e4m3fn [1.5, 3.0, 288.0, 448.0]
# CHECK:       numpy: no implicit promotion of i16 and f8e4m3fn under policy 'numpy': np.promote_types refuses it
