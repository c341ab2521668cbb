// dot_general and dot: StableHLO's verifier accepts operands of different element
// types (fp8 training writes f8E4M3FN x f8E5M2 -> f32), so a mixed dot that no weak
// value takes part in is legal and left exactly as it is. A weak operand (a Python
// scalar broadcast into a tensor) is promoted as in every other op (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @mixed_is_legal
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @mixed_is_legal(%a: tensor<2x3xi8>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Batch dimensions and mixed integer operands: legal, unchanged.
// CHECK-LABEL: func.func @batched_u8_i8
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xui8>, tensor<5x3x4xi8>) -> tensor<5x2x4xi16>
func.func @batched_u8_i8(%a: tensor<5x2x3xui8>, %b: tensor<5x3x4xi8>) -> tensor<5x2x4xi16> {
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<5x2x3xui8>, tensor<5x3x4xi8>) -> tensor<5x2x4xi16>
  return %0 : tensor<5x2x4xi16>
}

// -----

// A weak operand promotes: the weak int64 constant is rebuilt as bf16 (i* -> f* -> bf16).
// CHECK-LABEL: func.func @weak_operand
// CHECK:         %[[K:.+]] = stablehlo.constant dense<2.000000e+00> : tensor<3xbf16>
// CHECK:         stablehlo.dot %arg0, %[[K]] : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2xbf16>
func.func @weak_operand(%a: tensor<2x3xbf16>) -> tensor<2xbf16> {
  %k = stablehlo.constant {latticecast.weak} dense<2> : tensor<3xi64>
  %0 = "stablehlo.dot"(%a, %k) : (tensor<2x3xbf16>, tensor<3xi64>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// fp8 training's dot, exactly as JAX writes it: unchanged.
// CHECK-LABEL: func.func @fp8_training
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf8E4M3FN>, tensor<3x4xf8E5M2>) -> tensor<2x4xf32>
func.func @fp8_training(%a: tensor<2x3xf8E4M3FN>, %b: tensor<3x4xf8E5M2>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf8E4M3FN>, tensor<3x4xf8E5M2>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
