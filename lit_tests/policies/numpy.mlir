// Policy numpy (NumPy 2, NEP 50): value-independent promotion, Python scalars weak.
// Where JAX defers integers to any float, NumPy promotes to a float that holds
// the integer's range exactly.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy numpy | FileCheck %s

// np.promote_types(int8, uint64) is float64.
// CHECK-LABEL: func.func @i8_u64
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xf64>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui64>) -> tensor<4xf64>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf64>
func.func @i8_u64(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// int64 with float32 is float64 (float32 in JAX, anvil and MAX).
// CHECK-LABEL: func.func @i64_f32
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf64>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xf32>) -> tensor<4xf64>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf64>
func.func @i64_f32(%a: tensor<4xi64>, %b: tensor<4xf32>) -> tensor<4xf64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// int32 with float16 is float64 (float16 in JAX).
// CHECK-LABEL: func.func @i32_f16
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf64>
// CHECK:         stablehlo.power %{{.+}}, %{{.+}} : tensor<4xf64>
func.func @i32_f16(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<4xf64> {
  %0 = "stablehlo.power"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// uint8 fits float16 exactly, so uint8 with float16 stays float16.
// CHECK-LABEL: func.func @u8_f16
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xui8>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf16>
func.func @u8_f16(%a: tensor<4xui8>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xui8>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// NEP 50: a Python float with an int32 array gives float64.
// CHECK-LABEL: func.func @weak_float_i32
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG:     %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<4xf64>
// CHECK:         stablehlo.multiply %{{.+}}, %[[K]] : tensor<4xf64>
func.func @weak_float_i32(%x: tensor<4xi32>) -> tensor<4xf64> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// NEP 50: a Python int with a uint8 array stays uint8.
// CHECK-LABEL: func.func @weak_int_u8
// CHECK:         %[[K:.+]] = stablehlo.constant dense<200> : tensor<4xui8>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xui8>
func.func @weak_int_u8(%x: tensor<4xui8>) -> tensor<4xui8> {
  %k = stablehlo.constant {latticecast.weak} dense<200> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// With ml_dtypes (which JAX imports), NumPy promotes bfloat16 as np.promote_types does:
// int8 casts safely to bfloat16 ...
// CHECK-LABEL: func.func @bf16_i8
// CHECK:         %[[C:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xbf16>
// CHECK:         stablehlo.add %{{.+}}, %[[C]] : tensor<4xbf16>
func.func @bf16_i8(%a: tensor<4xbf16>, %b: tensor<4xi8>) -> tensor<4xbf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xi8>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// ... and bfloat16 casts safely to float32.
// CHECK-LABEL: func.func @bf16_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xbf16>) -> tensor<4xf32>
func.func @bf16_f32(%a: tensor<4xbf16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// bfloat16 and float16: neither casts safely to the other, and np.promote_types refuses.
func.func @bf16_f16(%a: tensor<4xbf16>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error@+1 {{no implicit promotion of bf16 and f16 under policy 'numpy': np.promote_types refuses it (DTypePromotionError)}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// int16 and float8_e4m3fn: refused by NumPy (only bool, int8 and uint8 cast safely to a float8) ...
func.func @i16_f8(%a: tensor<4xi16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{no implicit promotion of i16 and f8e4m3fn under policy 'numpy'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// ... and int4 with int8 is int8 (int4 casts safely to every wider integer).
// CHECK-LABEL: func.func @i4_i8
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xi4>) -> tensor<4xi8>
func.func @i4_i8(%a: tensor<4xi4>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi4>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
