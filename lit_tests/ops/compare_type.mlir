// a compare with an explicit compare_type keeps it when its
// operands are promoted to another kind. Comparing i32 with f32 converts the i32
// operand to f32, so a SIGNED comparison must become FLOAT (and an UNSIGNED
// comparison of u8 with i8, now done in i16, must become SIGNED); the pass leaves
// SIGNED on f32 operands and UNSIGNED on i16 ones. StableHLO's verifier does not
// catch it (the spec's constraint on compare_type is not checked), so the output
// "verifies" and computes a signed-integer comparison of float bits.
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @signed_to_float
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.compare LT, %[[CA]], %{{.+}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @signed_to_float(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @unsigned_to_signed
// CHECK:         stablehlo.compare LT, %{{.+}}, %{{.+}}, SIGNED : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi1>
func.func @unsigned_to_signed(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type UNSIGNED>} : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
