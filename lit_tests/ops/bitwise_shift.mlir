// and/or/xor and the shifts (policy jax). Bitwise ops need integer or bool
// operands, shifts integer ones; a join that is a float is an error
// (errors/op_requirements.mlir).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// bool & i32: the bool is widened, the op is an integer and.
// CHECK-LABEL: func.func @and_bool_i32
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi1>, %[[B:.+]]: tensor<4xi32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi1>) -> tensor<4xi32>
// CHECK-NEXT:    stablehlo.and %[[CA]], %[[B]] : tensor<4xi32>
func.func @and_bool_i32(%a: tensor<4xi1>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.and"(%a, %b) : (tensor<4xi1>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @or_u8_i8
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi16>
// CHECK:         stablehlo.or %[[CA]], %[[CB]] : tensor<4xi16>
func.func @or_u8_i8(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xi16> {
  %0 = "stablehlo.or"(%a, %b) : (tensor<4xui8>, tensor<4xi8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// CHECK-LABEL: func.func @xor_u16_u64
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui16>) -> tensor<4xui64>
// CHECK-NEXT:    stablehlo.xor %[[CA]], %{{.+}} : tensor<4xui64>
func.func @xor_u16_u64(%a: tensor<4xui16>, %b: tensor<4xui64>) -> tensor<4xui64> {
  %0 = "stablehlo.xor"(%a, %b) : (tensor<4xui16>, tensor<4xui64>) -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// u16 -> i32 and i8 -> i16 -> i32.
// CHECK-LABEL: func.func @shift_left_i8_u16
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui16>) -> tensor<4xi32>
// CHECK:         stablehlo.shift_left %[[CA]], %[[CB]] : tensor<4xi32>
func.func @shift_left_i8_u16(%a: tensor<4xi8>, %b: tensor<4xui16>) -> tensor<4xi32> {
  %0 = "stablehlo.shift_left"(%a, %b) : (tensor<4xi8>, tensor<4xui16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @shift_right_arithmetic_i16_u8
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi16>, %[[B:.+]]: tensor<4xui8>)
// CHECK:         %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-NEXT:    stablehlo.shift_right_arithmetic %[[A]], %[[CB]] : tensor<4xi16>
func.func @shift_right_arithmetic_i16_u8(%a: tensor<4xi16>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.shift_right_arithmetic"(%a, %b) : (tensor<4xi16>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// CHECK-LABEL: func.func @shift_right_logical_u32_i64
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xui32>) -> tensor<4xi64>
// CHECK-NEXT:    stablehlo.shift_right_logical %[[CA]], %{{.+}} : tensor<4xi64>
func.func @shift_right_logical_u32_i64(%a: tensor<4xui32>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.shift_right_logical"(%a, %b) : (tensor<4xui32>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
