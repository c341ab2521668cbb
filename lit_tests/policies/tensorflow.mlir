// Policy tensorflow: no implicit promotion between tensors; a Python scalar is
// converted to the tensor's dtype when it can be (a float cannot become an int).
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy tensorflow | FileCheck %s

func.func @i32_f32(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.add' op no implicit promotion of i32 and f32 under policy 'tensorflow': TensorFlow does no implicit promotion}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @i8_i16(%a: tensor<4xi8>, %b: tensor<4xi16>) -> tensor<4xi16> {
  // expected-error@+1 {{no implicit promotion of i8 and i16 under policy 'tensorflow'}}
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi8>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// tf.constant([...], tf.int8) + 3: the scalar becomes an int8.
// CHECK-LABEL: func.func @weak_int_i8
// CHECK:         %[[K:.+]] = stablehlo.constant dense<3> : tensor<4xi8>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xi8>
func.func @weak_int_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// A Python int with a float16 tensor becomes float16.
// CHECK-LABEL: func.func @weak_int_f16
// CHECK:         %[[K:.+]] = stablehlo.constant dense<3.000000e+00> : tensor<4xf16>
// CHECK-NEXT:    stablehlo.multiply %{{.+}}, %[[K]] : tensor<4xf16>
func.func @weak_int_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xf16>, tensor<4xi64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// tf.constant([...], tf.int32) * 2.5 is a TypeError.
func.func @weak_float_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  // expected-error@+1 {{TensorFlow cannot convert a Python float to the tensor's dtype int32}}
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
