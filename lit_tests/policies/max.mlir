// Policy max (Modular MAX graph type promotion, its 16x16 table). MAX places
// float16 above every integer that does not fit a wider integer, and bfloat16
// above float16. The index/address/tf32 lowering is in pass/lower_dtypes.mlir.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy max | FileCheck %s

// int8 + uint64 is float16 in MAX's table (float64 in JAX and NumPy, int64 in anvil).
// CHECK-LABEL: func.func @i8_u64
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xui64>) -> tensor<4xf16>
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi8>) -> tensor<4xf16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xui64>) -> tensor<4xf16>
// CHECK:         stablehlo.add %[[CA]], %[[CB]] : tensor<4xf16>
func.func @i8_u64(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// int64 + uint64: float16 as well.
// CHECK-LABEL: func.func @i64_u64
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf16>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui64>) -> tensor<4xf16>
// CHECK:         stablehlo.multiply %{{.+}}, %{{.+}} : tensor<4xf16>
func.func @i64_u64(%a: tensor<4xi64>, %b: tensor<4xui64>) -> tensor<4xf16> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi64>, tensor<4xui64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// "Adding a bfloat16 to a float16 will give a bfloat16" (the MAX document; JAX: float32).
// CHECK-LABEL: func.func @bf16_f16
// CHECK-SAME:    (%[[A:.+]]: tensor<4xbf16>, %[[B:.+]]: tensor<4xf16>)
// CHECK:         %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xf16>) -> tensor<4xbf16>
// CHECK-NEXT:    stablehlo.add %[[A]], %[[CB]] : tensor<4xbf16>
func.func @bf16_f16(%a: tensor<4xbf16>, %b: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// int8 + uint16 is int32 (row int8, column uint16).
// CHECK-LABEL: func.func @i8_u16
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui16>) -> tensor<4xi32>
// CHECK:         stablehlo.subtract %{{.+}}, %{{.+}} : tensor<4xi32>
func.func @i8_u16(%a: tensor<4xi8>, %b: tensor<4xui16>) -> tensor<4xi32> {
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<4xi8>, tensor<4xui16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A Python int takes the dtype of the graph value it meets.
// CHECK-LABEL: func.func @weak_int_u8
// CHECK:         %[[K:.+]] = stablehlo.constant dense<7> : tensor<4xui8>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xui8>
func.func @weak_int_u8(%x: tensor<4xui8>) -> tensor<4xui8> {
  %k = stablehlo.constant {latticecast.weak} dense<7> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// A Python float cannot promote an integer graph value.
func.func @weak_float_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  // expected-error@+1 {{Unsafe cast: can't promote a python float to dtype(i32)}}
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
