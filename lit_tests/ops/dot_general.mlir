// dot_general and dot: operands promoted to their join, dimension numbers kept
// (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @matmul_i8_f32
// CHECK-SAME:    (%[[A:.+]]: tensor<2x3xi8>, %[[B:.+]]: tensor<3x4xf32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<2x3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT:    stablehlo.dot_general %[[CA]], %[[B]], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @matmul_i8_f32(%a: tensor<2x3xi8>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Batch dimensions survive the rewrite.
// CHECK-LABEL: func.func @batched_u8_i8
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<5x2x3xui8>) -> tensor<5x2x3xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<5x3x4xi8>) -> tensor<5x3x4xi16>
// CHECK:         stablehlo.dot_general %[[CA]], %[[CB]], batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xi16>, tensor<5x3x4xi16>) -> tensor<5x2x4xi16>
func.func @batched_u8_i8(%a: tensor<5x2x3xui8>, %b: tensor<5x3x4xi8>) -> tensor<5x2x4xi16> {
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<5x2x3xui8>, tensor<5x3x4xi8>) -> tensor<5x2x4xi16>
  return %0 : tensor<5x2x4xi16>
}

// -----

// The legacy dot: i16 -> ... -> f* -> bf16.
// CHECK-LABEL: func.func @dot_i16_bf16
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<2x3xi16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    stablehlo.dot %[[CA]], %{{.+}} : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2xbf16>
func.func @dot_i16_bf16(%a: tensor<2x3xi16>, %b: tensor<3xbf16>) -> tensor<2xbf16> {
  %0 = "stablehlo.dot"(%a, %b) : (tensor<2x3xi16>, tensor<3xbf16>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
