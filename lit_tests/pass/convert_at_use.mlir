// An op marked latticecast.convert_at_use converts its operands itself, as JAX and torch-mlir write a
// promotion: a convert of its own right before the op and the broadcasts and literals it reads
// (not shared with another op, not hoisted to the value's definition); an implicit broadcast's
// source converted, then broadcast; a weak constant converted where it is read; a mixed dot
// promoted too. The marker goes (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax | FileCheck %s

// CHECK-LABEL: func.func @own_converts
// CHECK-NEXT:    %[[A:.+]] = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-NEXT:    %[[C:.+]] = stablehlo.constant dense<5.000000e-01> : tensor<f64>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.broadcast_in_dim %[[C]], dims = []
// CHECK-NEXT:    %[[M:.+]] = stablehlo.multiply %[[A]], %[[B]] : tensor<4xf64>
// CHECK-NEXT:    %[[A2:.+]] = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-NEXT:    stablehlo.add %[[A2]], %[[M]] : tensor<4xf64>
// CHECK-NOT:     latticecast
func.func @own_converts(%t: tensor<4xi32>) -> tensor<4xf64> {
  %c = "stablehlo.constant"() {value = dense<5.000000e-01> : tensor<f64>, latticecast.weak} : () -> tensor<f64>
  %b = "stablehlo.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64>} : (tensor<f64>) -> tensor<4xf64>
  %0 = "stablehlo.multiply"(%t, %b) {latticecast.convert_at_use} : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  %1 = "stablehlo.add"(%t, %0) {latticecast.convert_at_use} : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %1 : tensor<4xf64>
}

// -----

// CHECK-LABEL: func.func @converted_then_broadcast
// CHECK-NEXT:    %[[S:.+]] = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.multiply %arg0, %[[B]] : tensor<4xf32>
func.func @converted_then_broadcast(%x: tensor<4xf32>, %s: tensor<i32>) -> tensor<4xf32> {
  %b = "stablehlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>, latticecast.implicit_broadcast} : (tensor<i32>) -> tensor<4xi32>
  %0 = "stablehlo.multiply"(%x, %b) {latticecast.convert_at_use} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @mixed_dot
// CHECK-NEXT:    %[[W:.+]] = stablehlo.convert %arg1 : (tensor<8x2xbf16>) -> tensor<8x2xf32>
// CHECK-NEXT:    stablehlo.dot_general %arg0, %[[W]]
func.func @mixed_dot(%h: tensor<4x8xf32>, %w: tensor<8x2xbf16>) -> tensor<4x2xf32> {
  %0 = "stablehlo.dot_general"(%h, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, latticecast.convert_at_use} : (tensor<4x8xf32>, tensor<8x2xbf16>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A weak constant of another dtype, read by an op marked so, is converted where it is read (torch-mlir
// writes a Python float as a tensor<1xf64> converted to the op's dtype), after the literal check.
// CHECK-LABEL: func.func @weak_constant_converted
// CHECK:         %[[C:.+]] = arith.constant dense<2.500000e+00> : tensor<1xf64>
// CHECK-NEXT:    %[[K:.+]] = stablehlo.convert %[[C]] : (tensor<1xf64>) -> tensor<1xf32>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.reshape %[[K]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.broadcast_in_dim %[[R]]
// CHECK-NEXT:    stablehlo.add %arg0, %[[B]] : tensor<4xf32>
func.func @weak_constant_converted(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "arith.constant"() {value = dense<2.500000e+00> : tensor<1xf64>, latticecast.weak} : () -> tensor<1xf64>
  %r = "stablehlo.reshape"(%c) : (tensor<1xf64>) -> tensor<f64>
  %b = "stablehlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64>} : (tensor<f64>) -> tensor<4xf64>
  %0 = "stablehlo.add"(%x, %b) {latticecast.convert_at_use} : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
