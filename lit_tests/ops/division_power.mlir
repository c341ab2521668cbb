// divide, remainder and power promote like the other arithmetic ops (policy jax).
// The pass changes types only: an integer divide stays an integer divide.
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// i32 -> i64 -> f* -> f16: the join of i32 and f16 is f16.
// CHECK-LABEL: func.func @divide_i32_f16
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<4xf16>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi32>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.divide %[[CA]], %[[B]] : tensor<4xf16>
func.func @divide_i32_f16(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.divide"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Integer division of i8 by u8 happens in i16.
// CHECK-LABEL: func.func @divide_i8_u8
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui8>) -> tensor<4xi16>
// CHECK:         stablehlo.divide %[[CA]], %[[CB]] : tensor<4xi16>
func.func @divide_i8_u8(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.divide"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// u16 and u32 are both unsigned: the join is u32, and only the u16 operand changes.
// CHECK-LABEL: func.func @remainder_u16_u32
// CHECK-SAME:    (%[[A:.+]]: tensor<4xui16>, %[[B:.+]]: tensor<4xui32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xui16>) -> tensor<4xui32>
// CHECK-NEXT:    stablehlo.remainder %[[CA]], %[[B]] : tensor<4xui32>
func.func @remainder_u16_u32(%a: tensor<4xui16>, %b: tensor<4xui32>) -> tensor<4xui32> {
  %0 = "stablehlo.remainder"(%a, %b) : (tensor<4xui16>, tensor<4xui32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// A float base and an integer exponent: i64 -> f* -> f32, so the power is computed
// in f32 (NumPy would compute it in f64; see policies/numpy.mlir).
// CHECK-LABEL: func.func @power_f32_i64
// CHECK-SAME:    (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xi64>)
// CHECK:         %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.power %[[A]], %[[CB]] : tensor<4xf32>
func.func @power_f32_i64(%a: tensor<4xf32>, %b: tensor<4xi64>) -> tensor<4xf32> {
  %0 = "stablehlo.power"(%a, %b) : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Complex base, real exponent: f64 and c64 meet at c128.
// CHECK-LABEL: func.func @power_c64_f64
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf64>) -> tensor<4xcomplex<f64>>
// CHECK:         stablehlo.power %[[CA]], %[[CB]] : tensor<4xcomplex<f64>>
func.func @power_c64_f64(%a: tensor<4xcomplex<f32>>, %b: tensor<4xf64>) -> tensor<4xcomplex<f64>> {
  %0 = "stablehlo.power"(%a, %b) : (tensor<4xcomplex<f32>>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}
