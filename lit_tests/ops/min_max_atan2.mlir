// maximum, minimum and atan2 (policy jax). atan2 exists for floats only, so an
// integer join is an error (see errors/op_requirements.mlir).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @maximum_i8_u8
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui8>) -> tensor<4xi16>
// CHECK:         stablehlo.maximum %[[CA]], %[[CB]] : tensor<4xi16>
func.func @maximum_i8_u8(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// CHECK-LABEL: func.func @minimum_f16_bf16
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK:         stablehlo.minimum %[[CA]], %[[CB]] : tensor<4xf32>
func.func @minimum_f16_bf16(%a: tensor<4xf16>, %b: tensor<4xbf16>) -> tensor<4xf32> {
  %0 = "stablehlo.minimum"(%a, %b) : (tensor<4xf16>, tensor<4xbf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The max of a bool mask and an i32 is taken in i32.
// CHECK-LABEL: func.func @maximum_bool_i32
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi1>, %[[B:.+]]: tensor<4xi32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi1>) -> tensor<4xi32>
// CHECK-NEXT:    stablehlo.maximum %[[CA]], %[[B]] : tensor<4xi32>
func.func @maximum_bool_i32(%a: tensor<4xi1>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<4xi1>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @atan2_f16_f32
// CHECK-SAME:    (%[[A:.+]]: tensor<4xf16>, %[[B:.+]]: tensor<4xf32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.atan2 %[[CA]], %[[B]] : tensor<4xf32>
func.func @atan2_f16_f32(%a: tensor<4xf16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.atan2"(%a, %b) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An integer with a float: the join is the float, which atan2 accepts.
// CHECK-LABEL: func.func @atan2_i32_f64
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-NEXT:    stablehlo.atan2 %[[CA]], %{{.+}} : tensor<4xf64>
func.func @atan2_i32_f64(%a: tensor<4xi32>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "stablehlo.atan2"(%a, %b) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
