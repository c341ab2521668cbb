// A comparison against a 0-d value under policy torch (PyTorch's dimension categories): torch-mlir
// writes a 0-d tensor or a Python scalar that a comparison broadcasts as stablehlo.broadcast_in_dim
// from rank 0 (dims = []), without latticecast's marker. The pass reads it as the 0-d value itself,
// so the comparison is made in the dimensioned operand's dtype, as PyTorch makes it, and says in a
// remark that an explicit expand would be written the same way. select and clamp declare their
// result's dtype, which settles the reading without a remark. Each function runs too, and its
// answer is PyTorch eager's (TORCH: the expression; tests/test_policy_torch.py evaluates each with
// torch where it is installed and holds the RUNTIME lines to it).
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy torch | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy torch -o %t.mlir
// RUN: %python %S/Inputs/run_chunks.py %s %t.mlir | FileCheck %s --check-prefix=RUNTIME

// The module of issue 30: float32 == a float64 0-d constant compares in float32.
// ARG: x f32 [0.1, 0.5, 1.0]
// TORCH: x == torch.tensor(0.1, dtype=torch.float64)
// RUNTIME: @main: [True, False, False]
// CHECK-LABEL: func.func @main
// CHECK:         %[[C:.+]] = stablehlo.constant dense<1.000000e-01> : tensor<f64>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f64>) -> tensor<3xf64>
// CHECK-NEXT:    %[[BC:.+]] = stablehlo.convert %[[B]] : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %[[BC]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
func.func @main(%x: tensor<3xf32>) -> tensor<3xi1> {
  %c = stablehlo.constant dense<1.000000e-01> : tensor<f64>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f64>) -> tensor<3xf64>
  // expected-remark@+1 {{operand #1 is a broadcast of a 0-d tensor that no marker explains}}
  %r = "stablehlo.compare"(%x, %b) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xi1>
  return %r : tensor<3xi1>
}

// -----

// The 0-d value as a function argument, broadcast the same way (1/3 and 2**24 + 1: float32 rounds
// both, float64 does not).
// ARG: x f32 [0.1, 0.3333333333333333, 16777217.0]
// ARG: z f64 0.3333333333333333
// ARG: w f64 16777217.0
// TORCH: (x == z, x == w)
// RUNTIME: @argument_f32_f64: [False, True, False], [False, False, True]
// CHECK-LABEL: func.func @argument_f32_f64
// CHECK:         %[[Z:.+]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<3xf64>
// CHECK-NEXT:    %[[ZC:.+]] = stablehlo.convert %[[Z]] : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %[[ZC]], FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK:         %[[W:.+]] = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f64>) -> tensor<3xf64>
// CHECK-NEXT:    %[[WC:.+]] = stablehlo.convert %[[W]] : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %[[WC]], FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
func.func @argument_f32_f64(%x: tensor<3xf32>, %z: tensor<f64>, %w: tensor<f64>) -> (tensor<3xi1>, tensor<3xi1>) {
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f64>) -> tensor<3xf64>
  // expected-remark@+1 {{Read as the 0-d tensor, f32 and f64 compare in f32 under policy 'torch'; read as a dimensioned tensor (an expand), in f64}}
  %0 = "stablehlo.compare"(%x, %zb) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xi1>
  %wb = stablehlo.broadcast_in_dim %w, dims = [] : (tensor<f64>) -> tensor<3xf64>
  // expected-remark@+1 {{Read as the 0-d tensor, f32 and f64 compare in f32}}
  %1 = "stablehlo.compare"(%x, %wb) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xi1>
  return %0, %1 : tensor<3xi1>, tensor<3xi1>
}

// -----

// An order comparison, the 0-d value on the left: float32(0.1) is above float64's 0.1, equal to
// float32's.
// ARG: z f64 0.1
// ARG: x f32 [0.1, 0.5, 0.05]
// TORCH: z < x
// RUNTIME: @lt_f64_f32: [False, True, False]
// CHECK-LABEL: func.func @lt_f64_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    stablehlo.compare LT, %{{.+}}, %arg1, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
func.func @lt_f64_f32(%z: tensor<f64>, %x: tensor<3xf32>) -> tensor<3xi1> {
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f64>) -> tensor<3xf64>
  // expected-remark@+1 {{operand #0 is a broadcast of a 0-d tensor}}
  %0 = "stablehlo.compare"(%zb, %x) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<3xf64>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// float16 against a float32 0-d constant compares in float16.
// ARG: x f16 [0.1, 0.5, 1.0]
// TORCH: x == torch.tensor(0.1, dtype=torch.float32)
// RUNTIME: @const_f16_f32: [True, False, False]
// CHECK-LABEL: func.func @const_f16_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<3xf32>) -> tensor<3xf16>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %{{.+}} : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xi1>
func.func @const_f16_f32(%x: tensor<3xf16>) -> tensor<3xi1> {
  %c = stablehlo.constant dense<1.000000e-01> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3xf32>
  // expected-remark@+1 {{Read as the 0-d tensor, f16 and f32 compare in f16 under policy 'torch'; read as a dimensioned tensor (an expand), in f32}}
  %r = "stablehlo.compare"(%x, %b) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3xf16>, tensor<3xf32>) -> tensor<3xi1>
  return %r : tensor<3xi1>
}

// -----

// float16 against a float32 0-d argument.
// ARG: x f16 [0.1, 0.5, 1.0]
// ARG: z f32 0.1
// TORCH: x == z
// RUNTIME: @argument_f16_f32: [True, False, False]
// CHECK-LABEL: func.func @argument_f16_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<3xf32>) -> tensor<3xf16>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %{{.+}}, FLOAT : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xi1>
func.func @argument_f16_f32(%x: tensor<3xf16>, %z: tensor<f32>) -> tensor<3xi1> {
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<3xf32>
  // expected-remark@+1 {{f16 and f32 compare in f16}}
  %0 = "stablehlo.compare"(%x, %zb) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<3xf16>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// int8 against an int64 0-d constant compares in int8: 300 wraps to 44, as PyTorch converts it.
// ARG: x i8 [44, 1, -3]
// TORCH: x == torch.tensor(300)
// RUNTIME: @const_i8_i64: [True, False, False]
// CHECK-LABEL: func.func @const_i8_i64
// CHECK:         stablehlo.convert %{{.+}} : (tensor<3xi64>) -> tensor<3xi8>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %{{.+}}, SIGNED : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi1>
func.func @const_i8_i64(%x: tensor<3xi8>) -> tensor<3xi1> {
  %c = stablehlo.constant dense<300> : tensor<i64>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<3xi64>
  // expected-remark@+1 {{Read as the 0-d tensor, i8 and i64 compare in i8 under policy 'torch'; read as a dimensioned tensor (an expand), in i64}}
  %r = "stablehlo.compare"(%x, %b) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<3xi8>, tensor<3xi64>) -> tensor<3xi1>
  return %r : tensor<3xi1>
}

// -----

// int8 against an int64 0-d argument.
// ARG: x i8 [44, 1, -3]
// ARG: z i64 300
// TORCH: x == z
// RUNTIME: @argument_i8_i64: [True, False, False]
// CHECK-LABEL: func.func @argument_i8_i64
// CHECK:         stablehlo.convert %{{.+}} : (tensor<3xi64>) -> tensor<3xi8>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %{{.+}}, SIGNED : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi1>
func.func @argument_i8_i64(%x: tensor<3xi8>, %z: tensor<i64>) -> tensor<3xi1> {
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<i64>) -> tensor<3xi64>
  // expected-remark@+1 {{i8 and i64 compare in i8}}
  %0 = "stablehlo.compare"(%x, %zb) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<3xi8>, tensor<3xi64>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// select declares its result's dtype: float32, so the float64 0-d value is the 0-d tensor
// (torch.where(c, x, z)); nothing to remark.
// ARG: c i1 [True, False, True]
// ARG: x f32 [0.1, 0.5, 1.0]
// ARG: z f64 0.3333333333333333
// TORCH: torch.where(c, x, z)
// RUNTIME: @select_f32_f64: [0.10000000149011612, 0.3333333432674408, 1.0]
// CHECK-LABEL: func.func @select_f32_f64
// CHECK:         stablehlo.convert %{{.+}} : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-NEXT:    stablehlo.select %arg0, %arg1, %{{.+}} : tensor<3xi1>, tensor<3xf32>
func.func @select_f32_f64(%c: tensor<3xi1>, %x: tensor<3xf32>, %z: tensor<f64>) -> tensor<3xf32> {
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f64>) -> tensor<3xf64>
  %0 = "stablehlo.select"(%c, %x, %zb) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// clamp with float64 0-d bounds, one broadcast and one 0-d itself (StableHLO's clamp takes a 0-d
// bound as torch-mlir writes a Python scalar's): the declared float32 settles it.
// ARG: lo f64 0.3333333333333333
// ARG: x f32 [0.1, 0.5, 16777216.0]
// ARG: hi f64 16777217.0
// TORCH: torch.clamp(x, lo, hi)
// RUNTIME: @clamp_f32_f64: [0.3333333432674408, 0.5, 16777216.0]
// CHECK-LABEL: func.func @clamp_f32_f64
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<3xf64>) -> tensor<3xf32>
// CHECK-DAG:     stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
// CHECK:         stablehlo.clamp %{{.+}}, %arg1, %{{.+}} : (tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
func.func @clamp_f32_f64(%lo: tensor<f64>, %x: tensor<3xf32>, %hi: tensor<f64>) -> tensor<3xf32> {
  %lob = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<f64>) -> tensor<3xf64>
  %0 = "stablehlo.clamp"(%lob, %x, %hi) : (tensor<3xf64>, tensor<3xf32>, tensor<f64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
