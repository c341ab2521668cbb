// select promotes its two values, never its predicate; clamp promotes all three
// operands, and scalar bounds stay scalars (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @select_i32_f32
// CHECK-SAME:    (%[[P:.+]]: tensor<4xi1>, %[[A:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<4xf32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.select %[[P]], %[[CA]], %[[B]] : tensor<4xi1>, tensor<4xf32>
func.func @select_i32_f32(%p: tensor<4xi1>, %a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.select"(%p, %a, %b) : (tensor<4xi1>, tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Selecting between a bool and an i8: the bool *value* is promoted, the predicate is not.
// CHECK-LABEL: func.func @select_bool_value
// CHECK-SAME:    (%[[P:.+]]: tensor<4xi1>, %[[A:.+]]: tensor<4xi1>, %[[B:.+]]: tensor<4xi8>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi1>) -> tensor<4xi8>
// CHECK-NEXT:    stablehlo.select %[[P]], %[[CA]], %[[B]] : tensor<4xi1>, tensor<4xi8>
// CHECK-NOT:     stablehlo.convert %[[P]]
func.func @select_bool_value(%p: tensor<4xi1>, %a: tensor<4xi1>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "stablehlo.select"(%p, %a, %b) : (tensor<4xi1>, tensor<4xi1>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// i32 and i8 bounds around an f16 operand: the join of i32, f16 and i8 is f16; the
// bounds are converted as rank-0 tensors.
// CHECK-LABEL: func.func @clamp_scalar_bounds
// CHECK-SAME:    (%[[LO:.+]]: tensor<i32>, %[[X:.+]]: tensor<4xf16>, %[[HI:.+]]: tensor<i8>)
// CHECK-DAG:     %[[CLO:.+]] = stablehlo.convert %[[LO]] : (tensor<i32>) -> tensor<f16>
// CHECK-DAG:     %[[CHI:.+]] = stablehlo.convert %[[HI]] : (tensor<i8>) -> tensor<f16>
// CHECK:         stablehlo.clamp %[[CLO]], %[[X]], %[[CHI]] : (tensor<f16>, tensor<4xf16>, tensor<f16>) -> tensor<4xf16>
func.func @clamp_scalar_bounds(%lo: tensor<i32>, %x: tensor<4xf16>, %hi: tensor<i8>) -> tensor<4xf16> {
  %0 = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<i32>, tensor<4xf16>, tensor<i8>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// The operand is the narrow one here: clamp(u8 bound, i8 operand, u8 bound) is done in i16.
// CHECK-LABEL: func.func @clamp_widens_operand
// CHECK-DAG:     %[[CLO:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CX:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi16>
// CHECK:         stablehlo.clamp %[[CLO]], %[[CX]], %[[CLO]] : tensor<4xi16>
func.func @clamp_widens_operand(%lo: tensor<4xui8>, %x: tensor<4xi8>) -> tensor<4xi16> {
  %0 = "stablehlo.clamp"(%lo, %x, %lo) : (tensor<4xui8>, tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}
