// A weakly typed result is typed by the policy like any other: under x64-off JAX
// (jax-x32) a weak float is a float32, so `x_i32 * 2.5` must declare f32. The pass
// does not re-type an op's declared result (or the function's signature) behind
// the user's back: a contradicting declaration is an error that names the type to
// declare, as for strong results (errors/result_type.mlir). Only a weak value that
// leaves the program unpromoted is materialised to the policy's default
// (policies/jax_x32.mlir).
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy jax-x32

func.func @returned(%x: tensor<4xi32>) -> tensor<4xf64> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  // expected-error@+1 {{'stablehlo.multiply' op declares result type tensor<4xf64>, which contradicts the promotion of i32 and f* to f32 under policy 'jax-x32'; declare tensor<4xf32>}}
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Under jax-x32 a uint64 is canonicalised to uint32, and int8 + uint32 is int32 (x64-off JAX
// avoids forming int64): a declared f16 contradicts it.
func.func @weak_join_declared_narrower(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf16> {
  // expected-error@+1 {{declares result type tensor<4xf16>, which contradicts the promotion of i8 and u64 to i32 under policy 'jax-x32'; declare tensor<4xi32>}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
