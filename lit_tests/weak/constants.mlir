// Weakly typed constants (a Python scalar; `latticecast.weak` on the constant)
// are rebuilt at the type they promote to: no stablehlo.convert of a constant,
// and no latticecast.weak marker left (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s --check-prefix=CLEAN
// CLEAN-NOT: latticecast.weak
// CLEAN-NOT: stablehlo.convert %c

// x * 3 with x: int16 -> the 3 is an int16 constant (i* -> ... -> i16).
// CHECK-LABEL: func.func @int_into_i16
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi16>) -> tensor<4xi16>
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<3> : tensor<4xi16>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.multiply %[[X]], %[[K]] : tensor<4xi16>
// CHECK-NEXT:    return %[[R]] : tensor<4xi16>
func.func @int_into_i16(%x: tensor<4xi16>) -> tensor<4xi16> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi16>, tensor<4xi64>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// x + 0.25 with x: bfloat16 -> a bf16 constant.
// CHECK-LABEL: func.func @float_into_bf16
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<2.500000e-01> : tensor<4xbf16>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xbf16>
func.func @float_into_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %k = stablehlo.constant {latticecast.weak} dense<0.25> : tensor<4xf64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xbf16>, tensor<4xf64>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// An int literal meeting a float array becomes a float constant; element values
// of a non-splat constant are kept one by one.
// CHECK-LABEL: func.func @ints_into_f16
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf16>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xf16>
func.func @ints_into_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %k = stablehlo.constant {latticecast.weak} dense<[1, -2, 3, 4]> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf16>, tensor<4xi64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// A Python int with a uint8 array: 255 fits, the constant is a ui8.
// CHECK-LABEL: func.func @int_into_u8
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<255> : tensor<4xui8>
// CHECK-NEXT:    stablehlo.and %{{.+}}, %[[K]] : tensor<4xui8>
func.func @int_into_u8(%x: tensor<4xui8>) -> tensor<4xui8> {
  %k = stablehlo.constant {latticecast.weak} dense<255> : tensor<4xi64>
  %0 = "stablehlo.and"(%x, %k) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// One weak constant, three users wanting two types: one constant per type, and
// both i8 users share theirs. Returned as it is, the constant keeps its default
// type (int64 with x64), unmarked.
// CHECK-LABEL: func.func @one_constant_two_types
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xf16>)
// CHECK-DAG:     %[[K64:.+]] = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
// CHECK-DAG:     %[[K16:.+]] = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf16>
// CHECK-DAG:     %[[K8:.+]] = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK:         stablehlo.add %[[A]], %[[K8]] : tensor<4xi8>
// CHECK-NEXT:    stablehlo.multiply %[[K16]], %[[B]] : tensor<4xf16>
// CHECK-NEXT:    stablehlo.subtract %[[A]], %[[K8]] : tensor<4xi8>
// CHECK-NEXT:    return %{{.+}}, %{{.+}}, %[[K64]] : tensor<4xi8>, tensor<4xf16>, tensor<4xi64>
func.func @one_constant_two_types(%a: tensor<4xi8>, %b: tensor<4xf16>) -> (tensor<4xi8>, tensor<4xf16>, tensor<4xi64>) {
  %k = stablehlo.constant {latticecast.weak} dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0 = "stablehlo.add"(%a, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  %1 = "stablehlo.multiply"(%k, %b) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  %2 = "stablehlo.subtract"(%a, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0, %1, %k : tensor<4xi8>, tensor<4xf16>, tensor<4xi64>
}

// -----

// The weak constant's only user is rewritten, so the i64 original is gone.
// CHECK-LABEL: func.func @original_erased
// CHECK-NOT:     tensor<4xi64>
// CHECK:         return
func.func @original_erased(%x: tensor<4xi32>) -> tensor<4xi32> {
  %k = stablehlo.constant {latticecast.weak} dense<-7> : tensor<4xi64>
  %0 = "stablehlo.maximum"(%x, %k) : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
