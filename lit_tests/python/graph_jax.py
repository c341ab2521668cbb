# The design's example graph, built with latticecast.Graph under policy jax: the
# IR as built (mixed-dtype ops, a weak Python scalar) and after implicit-cast.
# RUN: %python %s | FileCheck %s

import latticecast as lc
from latticecast import DType, Graph, TensorType

with Graph("mixed", input_types=[TensorType(DType.int16, [4]), TensorType(DType.float32, [4])],
           policy="jax") as g:
    x, y = g.inputs
    one = g.scalar[DType.int16](1)  # a strongly typed int16 scalar
    g.output(x * one + y - 2)       # 2 is a Python int: weakly typed

print("// BEFORE")
print(g.mlir(before_passes=True))
print("// AFTER")
print(g.mlir())

# As built: int16 * int16, then int16 + float32 typed as float32 (the join), then
# a weak int64 constant subtracted from the float32 sum.
# CHECK-LABEL: // BEFORE
# CHECK:       ^bb0(%[[X:.+]]: tensor<4xi16>, %[[Y:.+]]: tensor<4xf32>):
# CHECK:       %[[P:.+]] = "stablehlo.multiply"(%[[X]], %{{.+}}) : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
# CHECK-NEXT:  %[[S:.+]] = "stablehlo.add"(%[[P]], %[[Y]]) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
# CHECK-NEXT:  %[[K:.+]] = "stablehlo.constant"() <{value = dense<2> : tensor<4xi64>}> {latticecast.weak} : () -> tensor<4xi64>
# CHECK-NEXT:  "stablehlo.subtract"(%[[S]], %[[K]]) : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>

# After: the product is converted to f32 right after it is computed, and the
# weak 2 is a float32 constant (no convert of it).
# CHECK-LABEL: // AFTER
# CHECK:       func.func public @main(%[[X:.+]]: tensor<4xi16>, %[[Y:.+]]: tensor<4xf32>) -> tensor<4xf32>
# CHECK:       %[[P:.+]] = stablehlo.multiply %[[X]], %{{.+}} : tensor<4xi16>
# CHECK-NEXT:  %[[PF:.+]] = stablehlo.convert %[[P]] : (tensor<4xi16>) -> tensor<4xf32>
# CHECK-NEXT:  %[[S:.+]] = stablehlo.add %[[PF]], %[[Y]] : tensor<4xf32>
# CHECK-NEXT:  %[[K:.+]] = stablehlo.constant dense<2.000000e+00> : tensor<4xf32>
# CHECK-NEXT:  %[[R:.+]] = stablehlo.subtract %[[S]], %[[K]] : tensor<4xf32>
# CHECK-NEXT:  return %[[R]] : tensor<4xf32>
# CHECK-NOT:   latticecast.weak
