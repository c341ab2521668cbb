// Policy jax-strict (jax_numpy_dtype_promotion='strict'): no implicit promotion
// between distinct dtypes; a weakly typed value (a Python scalar) still defers to a
// dtype of its own kind or a higher one (i* -> f* -> c*).
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy jax-strict | FileCheck %s

func.func @i32_i64(%a: tensor<4xi32>, %b: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error@+1 {{'stablehlo.add' op no implicit promotion of i32 and i64 under policy 'jax-strict'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @u8_i8(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xi16> {
  // expected-error@+1 {{no implicit promotion of u8 and i8 under policy 'jax-strict'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// A weak float does not defer to an integer array (cross-kind).
func.func @weak_float_i32(%x: tensor<4xi32>) -> tensor<4xf64> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  // expected-error@+1 {{no implicit promotion of i32 and f* under policy 'jax-strict': a weak value only defers to dtypes of its own kind or a higher one}}
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// A Python int meets an int8 array: strict mode allows it, the constant becomes i8.
// CHECK-LABEL: func.func @weak_int_i8
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi8>)
// CHECK:         %[[K:.+]] = stablehlo.constant dense<3> : tensor<4xi8>
// CHECK-NEXT:    stablehlo.add %[[X]], %[[K]] : tensor<4xi8>
func.func @weak_int_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// A Python int meets a float32 array: i* -> f* -> f32 is within the strict lattice.
// CHECK-LABEL: func.func @weak_int_f32
// CHECK:         %[[K:.+]] = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    stablehlo.multiply %{{.+}}, %[[K]] : tensor<4xf32>
func.func @weak_int_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Equal dtypes need nothing.
// CHECK-LABEL: func.func @same
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.add %arg0, %arg1 : tensor<4xi32>
func.func @same(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.add %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}
