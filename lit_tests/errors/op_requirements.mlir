// An op whose operands would have to be promoted to a type the op does not accept
// is an error at the op (policy jax): bitwise ops need integers or bools, shifts
// integers, atan2 floats, complex f32 or f64 parts.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast

func.func @and_promotes_to_float(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.and' op needs integer or bool operands, but its operands i32 and f32 promote to f32 under policy 'jax'}}
  %0 = "stablehlo.and"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @xor_bool_f16(%a: tensor<4xi1>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.xor"(%a, %b) : (tensor<4xi1>, tensor<4xf16>) -> tensor<4xf16>
  // expected-error@-1 {{'stablehlo.xor' op needs integer or bool operands, but its operands b and f16 promote to f16}}
  return %0 : tensor<4xf16>
}

// -----

func.func @shift_promotes_to_float(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error@below {{'stablehlo.shift_left' op needs integer operands (not bool or float), but its operands i32 and f16 promote to f16}}
  %0 = "stablehlo.shift_left"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @atan2_of_integers(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.atan2"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  // expected-error@above {{'stablehlo.atan2' op needs floating-point or complex operands, but its operands i8 and u8 promote to i16}}
  return %0 : tensor<4xi16>
}

// -----

func.func @complex_of_integers(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xcomplex<f32>> {
  // Operands of one element type involve no promotion: the verifier judges the op.
  // expected-error@+1 {{'stablehlo.complex' op operand #0 must be ranked tensor of 32/64-bit float values}}
  %0 = "stablehlo.complex"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
