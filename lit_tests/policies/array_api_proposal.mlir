// Policy array-api-proposal (the seed's proposal of the Array API's minimal required promotions):
// promotion within a kind, and mixed signed/unsigned integers up to 64 bits;
// nothing across kinds, int64 with uint64 is left undefined, and complex with anything but itself.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy array-api-proposal | FileCheck %s

// CHECK-LABEL: func.func @i8_u8
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui8>) -> tensor<4xi16>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xi16>
func.func @i8_u8(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// CHECK-LABEL: func.func @u32_i32
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui32>) -> tensor<4xi64>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xi64>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xi64>
func.func @u32_i32(%a: tensor<4xui32>, %b: tensor<4xi32>) -> tensor<4xi64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xui32>, tensor<4xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @f32_f64
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NEXT:    stablehlo.multiply %{{.+}}, %{{.+}} : tensor<4xf64>
func.func @f32_f64(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// A Python float with a float32 array is float32 (a scalar of the array's kind).
// CHECK-LABEL: func.func @weak_float_f32
// CHECK:         %[[K:.+]] = stablehlo.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-NEXT:    stablehlo.multiply %{{.+}}, %[[K]] : tensor<4xf32>
func.func @weak_float_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = stablehlo.constant {latticecast.weak} dense<0.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @i8_u64(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf64> {
  // expected-error@+1 {{'stablehlo.add' op no implicit promotion of i8 and u64 under policy 'array-api-proposal': the proposal leaves mixed signed/unsigned 64-bit promotion undefined}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @i32_f32(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{no implicit promotion of i32 and f32 under policy 'array-api-proposal': the proposal leaves promotion between kinds undefined}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// bool is a kind of its own.
func.func @bool_i8(%a: tensor<4xi1>, %b: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{no implicit promotion of b and i8 under policy 'array-api-proposal'}}
  %0 = "stablehlo.and"(%a, %b) : (tensor<4xi1>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// The proposal predates complex dtypes: complex64 with complex128 is undefined there.
func.func @c64_c128(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // expected-error@+1 {{no implicit promotion of c64 and c128 under policy 'array-api-proposal': the proposal defines no promotion for complex dtypes}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}
