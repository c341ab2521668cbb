// A weak float constant too large for the promoted float type would become inf;
// the pass reports it instead (policy jax).
// RUN: latticecast-opt %s --verify-diagnostics --implicit-cast

func.func @million_into_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %k = stablehlo.constant {latticecast.weak} dense<1.0e6> : tensor<4xf64>
  // expected-error-re@+1 {{a weakly typed constant (at {{.*}}) does not fit the promoted type: 1000000.0 out of range for float16 (largest finite 65504)}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf16>, tensor<4xf64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
