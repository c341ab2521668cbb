// A declared result type that contradicts the join of the operand types is an
// error that names the type to declare (policy jax). The input must say what
// the promotion gives; the pass does not silently change a strong result type.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast

func.func @add(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xi16> {
  // expected-error@+1 {{'stablehlo.add' op declares result type tensor<4xi16>, which contradicts the promotion of i16 and f32 to f32 under policy 'jax'; declare tensor<4xf32>}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// compare always gives i1.
func.func @compare(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error@+1 {{'stablehlo.compare' op declares result type tensor<4xi8>, which contradicts the promotion of i16 and f32 to f32 under policy 'jax'; declare tensor<4xi1>}}
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// f32 and f64 parts make a complex<f64>.
func.func @complex(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{declare tensor<4xcomplex<f64>>}}
  %0 = "stablehlo.complex"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// int64 + float32 is float32 in JAX (float64 in NumPy): an f64 result
// contradicts it; the diagnostic may sit on the line above its comment (@-1).
func.func @i64_f32(%a: tensor<4xi64>, %b: tensor<4xf32>) -> tensor<4xf64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf32>) -> tensor<4xf64>
  // expected-error@-1 {{declares result type tensor<4xf64>, which contradicts the promotion of i64 and f32 to f32 under policy 'jax'; declare tensor<4xf32>}}
  return %0 : tensor<4xf64>
}
