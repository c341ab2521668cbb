// A weakly typed constant that the promoted type cannot represent is an error
// (as JAX's "Python int 1000 too large to convert to int8", NumPy 2's
// OverflowError): the pass never wraps 1000 into an int8 or overflows 1e6 to inf.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast
// NumPy (NEP 50) agrees for integers:
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy numpy

func.func @int_1000_into_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<1000> : tensor<4xi64>
  // expected-error-re@+1 {{'stablehlo.add' op Unsafe cast: a weakly typed constant (at {{.*}}) does not fit the promoted type: 1000 out of range for int8 [-128, 127]}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @minus_one_into_u8(%x: tensor<4xui8>) -> tensor<4xui8> {
  %k = stablehlo.constant {latticecast.weak} dense<-1> : tensor<4xi64>
  // expected-error-re@+1 {{a weakly typed constant (at {{.*}}) does not fit the promoted type: -1 out of range for uint8 [0, 255]}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xui8>, tensor<4xi64>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// One element of a non-splat constant out of range is enough.
func.func @one_element_of_many(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<[1, 2, 300, 4]> : tensor<4xi64>
  // expected-error-re@+1 {{a weakly typed constant (at {{.*}}) does not fit the promoted type: 300 out of range for int8}}
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// 127 and -128 fit: no error, and the constant is an i8.
func.func @bounds_fit(%x: tensor<2xi8>) -> tensor<2xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<[127, -128]> : tensor<2xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<2xi8>, tensor<2xi64>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
