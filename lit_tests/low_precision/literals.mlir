// A weakly typed constant that a low-precision type cannot hold is an error, never a
// silent NaN, saturation or wrap (JAX would give NaN for float8_e4m3fn + 1000, 6.0 for
// float4_e2m1fn + 1000, 4 for int4 + 100, and NaN for float8_e8m0fnu + 0).
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast

func.func @f8_1000(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %k = stablehlo.constant {latticecast.weak} dense<1000> : tensor<4xi64>
  // expected-error-re@+1 {{'stablehlo.add' op Unsafe cast: a weakly typed constant (at {{.*}}) does not fit the promoted type: 1000 out of range for float8_e4m3fn (largest finite 448)}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf8E4M3FN>, tensor<4xi64>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @f4_7(%x: tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN> {
  %k = stablehlo.constant {latticecast.weak} dense<7.0> : tensor<4xf64>
  // expected-error-re@+1 {{does not fit the promoted type: 7.0 out of range for float4_e2m1fn (largest finite 6)}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf4E2M1FN>, tensor<4xf64>) -> tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}

// -----

func.func @i4_100(%x: tensor<4xi4>) -> tensor<4xi4> {
  %k = stablehlo.constant {latticecast.weak} dense<100> : tensor<4xi64>
  // expected-error-re@+1 {{does not fit the promoted type: 100 out of range for int4 [-8, 7]}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi4>, tensor<4xi64>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

func.func @e8m0_zero(%x: tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU> {
  %k = stablehlo.constant {latticecast.weak} dense<0> : tensor<4xi64>
  // expected-error-re@+1 {{does not fit the promoted type: 0 is not a value of float8_e8m0fnu: it has no zero and no negative values}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf8E8M0FNU>, tensor<4xi64>) -> tensor<4xf8E8M0FNU>
  return %0 : tensor<4xf8E8M0FNU>
}

// -----

// In range, the constant is rebuilt at the low-precision type: 448 is float8_e4m3fn's largest value.
func.func @f8_448(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %k = stablehlo.constant {latticecast.weak} dense<448> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf8E4M3FN>, tensor<4xi64>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}
