// Policy anvil (the R package): its known-type table, and "ambiguous" types for
// R literals (marked latticecast.weak): an ambiguous value usually takes the known
// type it meets, unless it is a float meeting a non-float, or the known type is bool.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy anvil | FileCheck %s

// i8 . ui64 = i64 in anvil's table (f16 in MAX, f64 in JAX and NumPy).
// CHECK-LABEL: func.func @i8_ui64
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xui64>) -> tensor<4xi64>
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi8>) -> tensor<4xi64>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xui64>) -> tensor<4xi64>
// CHECK:         stablehlo.add %[[CA]], %[[CB]] : tensor<4xi64>
func.func @i8_ui64(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xi64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// i64 . f32 = f32 ("common_dtype("i64", "f32") ... value: int 32").
// CHECK-LABEL: func.func @i64_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf32>
func.func @i64_f32(%a: tensor<4xi64>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An ambiguous f64 (a literal) meeting a known f32 takes f32: the constant is
// rebuilt as f32 ("common_dtype("f32", "f64", FALSE, TRUE)" is f32).
// CHECK-LABEL: func.func @ambiguous_f64_known_f32
// CHECK:         %[[K:.+]] = stablehlo.constant dense<1.500000e+00> : tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xf32>
func.func @ambiguous_f64_known_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = stablehlo.constant {latticecast.weak} dense<1.5> : tensor<4xf64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An ambiguous float meeting a known integer: the integer takes the float's type
// (row f64, column i32 of the ambiguous x known table is f64).
// CHECK-LABEL: func.func @ambiguous_f64_known_i32
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG:     %[[CX:.+]] = stablehlo.convert %[[X]] : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG:     %[[K:.+]] = stablehlo.constant dense<1.500000e+00> : tensor<4xf64>
// CHECK:         stablehlo.multiply %[[CX]], %[[K]] : tensor<4xf64>
func.func @ambiguous_f64_known_i32(%x: tensor<4xi32>) -> tensor<4xf64> {
  %k = stablehlo.constant {latticecast.weak} dense<1.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// An ambiguous integer takes the known integer type, even a narrower one.
// CHECK-LABEL: func.func @ambiguous_i64_known_i8
// CHECK:         %[[K:.+]] = stablehlo.constant dense<5> : tensor<4xi8>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xi8>
func.func @ambiguous_i64_known_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<5> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// An ambiguous bool (TRUE) meeting a known i8 becomes i8: true is 1.
// CHECK-LABEL: func.func @ambiguous_bool_known_i8
// CHECK:         %[[K:.+]] = stablehlo.constant dense<1> : tensor<4xi8>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xi8>
func.func @ambiguous_bool_known_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<true> : tensor<4xi1>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi1>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// anvil has no f16.
func.func @f16(%a: tensor<4xf16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{float16 is not a dtype of policy 'anvil'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
