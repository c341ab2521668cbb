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

// NumPy has no bfloat16 dtype.
func.func @bf16(%a: tensor<4xbf16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{bfloat16 is not a dtype of policy 'numpy' (NumPy 2 (NEP 50 Python scalars)): NumPy has no bfloat16}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
