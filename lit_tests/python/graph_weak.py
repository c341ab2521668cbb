# Python scalars in a graph are weakly typed: x * 2.5 with x: int32 is float64
# under jax (x64) and float32 under jax-x32; x + 3 with x: int8 stays int8. The
# scalar becomes a constant of the final type, with no convert of it.
# RUN: %python %s | FileCheck %s

from latticecast import DType, Graph, TensorType

for policy in ("jax", "jax-x32"):
    with Graph("weak", input_types=[TensorType(DType.int32, [4]), TensorType(DType.int8, [4])],
               policy=policy) as g:
        x, b = g.inputs
        g.output(x * 2.5, b + 3)
    print(f"// POLICY {policy}")
    print(g.mlir(before_passes=True))
    print(g.mlir())

# As built, the scalars are marked constants of the policy's default types.
# CHECK-LABEL: // POLICY jax
# CHECK:       "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<4xf64>}> {latticecast.weak}
# CHECK:       "stablehlo.constant"() <{value = dense<3> : tensor<4xi64>}> {latticecast.weak}
# CHECK:       func.func public @main(%[[X:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<4xi8>) -> (tensor<4xf64>, tensor<4xi8>)
# CHECK-DAG:   %[[CX:.+]] = stablehlo.convert %[[X]] : (tensor<4xi32>) -> tensor<4xf64>
# CHECK-DAG:   %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<4xf64>
# CHECK-DAG:   %[[THREE:.+]] = stablehlo.constant dense<3> : tensor<4xi8>
# CHECK-DAG:   stablehlo.multiply %[[CX]], %[[K]] : tensor<4xf64>
# CHECK-DAG:   stablehlo.add %[[B]], %[[THREE]] : tensor<4xi8>
# CHECK-NOT:   latticecast.weak

# CHECK-LABEL: // POLICY jax-x32
# CHECK:       func.func public @main(%[[X:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi8>)
# CHECK-DAG:   %[[CX:.+]] = stablehlo.convert %[[X]] : (tensor<4xi32>) -> tensor<4xf32>
# CHECK-DAG:   %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<4xf32>
# CHECK-DAG:   %[[THREE:.+]] = stablehlo.constant dense<3> : tensor<4xi8>
# CHECK-DAG:   stablehlo.multiply %[[CX]], %[[K]] : tensor<4xf32>
# CHECK-DAG:   stablehlo.add %[[B]], %[[THREE]] : tensor<4xi8>
# CHECK-NOT:   f64
