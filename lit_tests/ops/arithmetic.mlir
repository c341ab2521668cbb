// add, subtract and multiply with operands of different element types, under the
// default policy (jax, x64): every operand is converted to the join of the operand
// types on JAX's lattice, and the op then has one element type.
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s
// The explicit pipeline is the same pass.
// RUN: latticecast-opt %s --split-input-file --pass-pipeline='builtin.module(implicit-cast{policy=jax})' | FileCheck %s

// i16 -> i32 -> i64 -> f* -> f16 -> f32: the join of i16 and f32 is f32.
// CHECK-LABEL: func.func @add_int_float
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi16>, %[[B:.+]]: tensor<4xf32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi16>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.add %[[CA]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @add_int_float(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// u8 and i8 meet at i16 (u8 -> i16, i8 -> i16): *both* operands are converted.
// CHECK-LABEL: func.func @subtract_mixed_signedness
// CHECK-SAME:    (%[[A:.+]]: tensor<4xui8>, %[[B:.+]]: tensor<4xi8>)
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xi8>) -> tensor<4xi16>
// CHECK:         stablehlo.subtract %[[CA]], %[[CB]] : tensor<4xi16>
func.func @subtract_mixed_signedness(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xi16> {
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// u32 -> i64 and i32 -> i64.
// CHECK-LABEL: func.func @multiply_u32_i32
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<2x3xui32>) -> tensor<2x3xi64>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<2x3xi32>) -> tensor<2x3xi64>
// CHECK:         stablehlo.multiply %[[CA]], %[[CB]] : tensor<2x3xi64>
func.func @multiply_u32_i32(%a: tensor<2x3xui32>, %b: tensor<2x3xi32>) -> tensor<2x3xi64> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<2x3xui32>, tensor<2x3xi32>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// bf16 and f16 are incomparable; their join is f32.
// CHECK-LABEL: func.func @add_bf16_f16
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         stablehlo.add %[[CA]], %[[CB]] : tensor<4xf32>
func.func @add_bf16_f16(%a: tensor<4xbf16>, %b: tensor<4xf16>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// bool is the bottom of the lattice: bool * i8 is i8, and only the bool is converted.
// CHECK-LABEL: func.func @multiply_bool_i8
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi1>, %[[B:.+]]: tensor<4xi8>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi1>) -> tensor<4xi8>
// CHECK-NEXT:    stablehlo.multiply %[[CA]], %[[B]] : tensor<4xi8>
func.func @multiply_bool_i8(%a: tensor<4xi1>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi1>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// i64 -> f* -> f16: JAX promotes int64 with float16 to float16 (not float64 as NumPy does).
// CHECK-LABEL: func.func @add_i64_f16
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.add %[[CA]], %{{.+}} : tensor<4xf16>
func.func @add_i64_f16(%a: tensor<4xi64>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Rank-0 operands keep their shape: the convert is tensor<i32> -> tensor<f32>.
// CHECK-LABEL: func.func @scalars
// CHECK:         stablehlo.convert %{{.+}} : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %{{.+}} : tensor<f32>
func.func @scalars(%a: tensor<i32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// No mixed-dtype op is left anywhere.
// CHECK-NOT: (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
