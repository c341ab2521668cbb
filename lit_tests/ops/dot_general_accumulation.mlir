// dot_general may legally accumulate in a wider type than its
// operands (bf16 x bf16 -> f32, i8 x i8 -> i32: the "preferred element type" JAX
// emits for every bf16 matmul). Such a module is legal StableHLO, so implicit-cast
// must leave it exactly as it is; instead it rejects it with "declares result type
// tensor<2x4xf32>, which contradicts the promotion of bf16 and bf16 to bf16".
// RUN: latticecast-opt %s --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @bf16_accumulates_in_f32
// CHECK-NEXT:    stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
func.func @bf16_accumulates_in_f32(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @i8_accumulates_in_i32
// CHECK-NEXT:    stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
func.func @i8_accumulates_in_i32(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
