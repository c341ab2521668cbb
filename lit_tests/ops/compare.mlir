// compare: the operands are promoted to their join, the result stays i1, and the
// comparison direction is kept (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// u8 < i8 compares in i16, where both ranges fit: no wrap-around of 200 to -56.
// CHECK-LABEL: func.func @lt_u8_i8
// CHECK-SAME:    (%[[A:.+]]: tensor<4xui8>, %[[B:.+]]: tensor<4xi8>) -> tensor<4xi1>
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xi8>) -> tensor<4xi16>
// CHECK:         %[[R:.+]] = stablehlo.compare LT, %[[CA]], %[[CB]] : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi1>
// CHECK-NEXT:    return %[[R]] : tensor<4xi1>
func.func @lt_u8_i8(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @eq_i32_f32
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.compare EQ, %[[CA]], %{{.+}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @eq_i32_f32(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A bool compared with a float: both sides become f16 (bool -> ... -> f16).
// CHECK-LABEL: func.func @ge_bool_f16
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi1>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.compare GE, %[[CA]], %{{.+}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
func.func @ge_bool_f16(%a: tensor<4xi1>, %b: tensor<4xf16>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<4xi1>, tensor<4xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// One converted operand is shared by both comparisons that need it as i16.
// CHECK-LABEL: func.func @two_compares
// CHECK-SAME:    (%[[A:.+]]: tensor<4xui8>, %[[B:.+]]: tensor<4xi8>)
// CHECK-COUNT-2: stablehlo.convert
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.compare LT
// CHECK-NEXT:    stablehlo.compare GT
func.func @two_compares(%a: tensor<4xui8>, %b: tensor<4xi8>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi1>
  %1 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}
