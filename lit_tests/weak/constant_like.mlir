// Every constant-like op is a constant (torch-mlir writes Python scalars as arith.constant): a weak
// arith.constant is range-checked and rebuilt at its promoted type exactly as a weak
// stablehlo.constant is, never converted (which would wrap 300 to 44 in ui8); it stays the op it
// was where arith can hold the type (signless integers, floats), and becomes a stablehlo.constant
// where it cannot (arith's verifier refuses ui8 and complex) (policy torch).
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy torch --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @arith_fits
// CHECK:         %[[K:.+]] = stablehlo.constant dense<3> : tensor<1xui8>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.reshape %[[K]] : (tensor<1xui8>) -> tensor<ui8>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.broadcast_in_dim %[[R]], dims = [] : (tensor<ui8>) -> tensor<4xui8>
// CHECK-NEXT:    stablehlo.add %arg0, %[[B]] : tensor<4xui8>
// CHECK-NOT:     stablehlo.convert
// CHECK-NOT:     latticecast.weak
func.func @arith_fits(%x: tensor<4xui8>) -> tensor<4xui8> {
  %c = "arith.constant"() {value = dense<3> : tensor<1xi64>, latticecast.weak} : () -> tensor<1xi64>
  %r = "stablehlo.reshape"(%c) : (tensor<1xi64>) -> tensor<i64>
  %b = "stablehlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<4xi64>
  %0 = "stablehlo.add"(%x, %b) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @arith_out_of_range(%x: tensor<4xui8>) -> tensor<4xui8> {
  %c = "arith.constant"() {value = dense<300> : tensor<i64>, latticecast.weak} : () -> tensor<i64>
  %b = "stablehlo.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<4xi64>
  // expected-error@+1 {{Unsafe cast: a weakly typed constant (at}}
  %0 = "stablehlo.add"(%x, %b) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @stablehlo_out_of_range(%x: tensor<4xui8>) -> tensor<4xui8> {
  %c = "stablehlo.constant"() {value = dense<300> : tensor<i64>, latticecast.weak} : () -> tensor<i64>
  %b = "stablehlo.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64>} : (tensor<i64>) -> tensor<4xi64>
  // expected-error@+1 {{300 out of range for uint8}}
  %0 = "stablehlo.add"(%x, %b) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// A weak float scalar (torch-mlir's tensor<1xf64>) meets f16: rebuilt as an f16 arith.constant.
// CHECK-LABEL: func.func @arith_float
// CHECK:         arith.constant dense<2.500000e+00> : tensor<1xf16>
// CHECK-NOT:     stablehlo.convert
func.func @arith_float(%x: tensor<4xf16>) -> tensor<4xf16> {
  %c = "arith.constant"() {value = dense<2.5> : tensor<1xf64>, latticecast.weak} : () -> tensor<1xf64>
  %r = "stablehlo.reshape"(%c) : (tensor<1xf64>) -> tensor<f64>
  %b = "stablehlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64>} : (tensor<f64>) -> tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %b) : (tensor<4xf16>, tensor<4xf64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
