// lift-implicit-casts under policy jax takes out the converts JAX's promotion wrote, and nothing
// else: here JAX (x64) lowered `lambda t, u: (t * 0.5, t + u)` for t: int32, u: uint32. The literal 0.5
// becomes a weak literal again (a splat in the dtype JAX gives a Python float there), each op that
// converted its own operands is marked latticecast.convert_at_use, and implicit-cast puts back exactly
// what JAX wrote (the second RUN line: the law, implicit-cast(lift(M)) prints M).
// RUN: latticecast-opt %s --lift-implicit-casts=policy=jax | FileCheck %s
// RUN: latticecast-opt %s --lift-implicit-casts=policy=jax --implicit-cast --policy jax > %t
// RUN: latticecast-opt %s > %t.expected
// RUN: diff %t.expected %t

// CHECK-LABEL: "func.func"
// CHECK-NOT:     stablehlo.convert
// CHECK:         %[[C:.+]] = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f64>}> {latticecast.weak}
// CHECK-NEXT:    %[[B:.+]] = "stablehlo.broadcast_in_dim"(%[[C]])
// CHECK-NEXT:    "stablehlo.multiply"(%arg0, %[[B]]) {latticecast.convert_at_use} : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:    "stablehlo.add"(%arg0, %arg1) {latticecast.convert_at_use} : (tensor<4xi32>, tensor<4xui32>) -> tensor<4xi64>
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xi32>, %arg1: tensor<4xui32>) -> (tensor<4xf64> {jax.result_info = "result[0]"}, tensor<4xi64> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf64>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4xf64>
    %2 = stablehlo.multiply %0, %1 : tensor<4xf64>
    %3 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xi64>
    %4 = stablehlo.convert %arg1 : (tensor<4xui32>) -> tensor<4xi64>
    %5 = stablehlo.add %3, %4 : tensor<4xi64>
    return %2, %5 : tensor<4xf64>, tensor<4xi64>
  }
}
