// retype-results: the declared result types of mixed IR (written here under JAX's rules) are inferred again
// under the pass's policy, through data movement, and the signature follows; then operands are converted.
// Without it, the declared types that NumPy contradicts are refused.
// RUN: latticecast-opt %s --implicit-cast='policy=numpy retype-results' | FileCheck %s
// RUN: not latticecast-opt %s --implicit-cast='policy=numpy' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECKED

// CHECK-LABEL: func.func @main(%arg0: tensor<4xi32>, %arg1: tensor<4xf16>) -> tensor<2x2xf64>
// CHECK-DAG: %[[A:.*]] = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG: %[[B:.*]] = stablehlo.convert %arg1 : (tensor<4xf16>) -> tensor<4xf64>
// CHECK: %[[S:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<4xf64>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[S]] : (tensor<4xf64>) -> tensor<2x2xf64>
// CHECK: return %[[R]] : tensor<2x2xf64>
// CHECKED: error: 'stablehlo.add' op
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<2x2xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  %1 = stablehlo.reshape %0 : (tensor<4xf16>) -> tensor<2x2xf16>
  return %1 : tensor<2x2xf16>
}
