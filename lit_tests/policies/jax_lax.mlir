// Policy jax-lax (jax.lax): no implicit promotion at all. A Python scalar is
// accepted only where it has its default dtype (int64, float64) already.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy jax-lax | FileCheck %s

func.func @i8_i16(%a: tensor<4xi8>, %b: tensor<4xi16>) -> tensor<4xi16> {
  // expected-error@+1 {{'stablehlo.add' op no implicit promotion of i8 and i16 under policy 'jax-lax': jax.lax requires operands of the same dtype}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// lax.add(int8 array, 3) is an error: the Python int is an int64, not an int8.
func.func @weak_int_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  // expected-error@+1 {{a Python scalar only matches its default dtype}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// lax.add(int64 array, 3) is fine.
// CHECK-LABEL: func.func @weak_int_i64
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi64>)
// CHECK:         %[[K:.+]] = stablehlo.constant dense<3> : tensor<4xi64>
// CHECK-NEXT:    stablehlo.add %[[X]], %[[K]] : tensor<4xi64>
// CHECK-NOT:     latticecast.weak
func.func @weak_int_i64(%x: tensor<4xi64>) -> tensor<4xi64> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
