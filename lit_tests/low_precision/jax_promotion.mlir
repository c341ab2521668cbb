// JAX's low-precision types (policy jax): they hang below the weak nodes as sinks.
// Every integer reaches a float8 through f*, a Python scalar takes their type, and
// nothing else meets them (JAX: "8-bit floats do not support implicit promotion").
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast | FileCheck %s

// int16 + float8_e4m3fn = float8_e4m3fn: the int16 operand is converted.
// CHECK-LABEL: func.func @i16_f8
// CHECK:         %[[C:.+]] = stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf8E4M3FN>
// CHECK:         stablehlo.add %[[C]], %arg1 : tensor<4xf8E4M3FN>
func.func @i16_f8(%a: tensor<4xi16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// int64 + float4_e2m1fn = float4_e2m1fn; uint64 * float8_e5m2 = float8_e5m2.
// CHECK-LABEL: func.func @wide_ints_to_low_floats
// CHECK-DAG:     stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf4E2M1FN>
// CHECK-DAG:     stablehlo.convert %arg2 : (tensor<4xui64>) -> tensor<4xf8E5M2>
func.func @wide_ints_to_low_floats(%a: tensor<4xi64>, %b: tensor<4xf4E2M1FN>, %c: tensor<4xui64>, %d: tensor<4xf8E5M2>) -> (tensor<4xf4E2M1FN>, tensor<4xf8E5M2>) {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN>
  %1 = "stablehlo.multiply"(%c, %d) : (tensor<4xui64>, tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %0, %1 : tensor<4xf4E2M1FN>, tensor<4xf8E5M2>
}

// -----

// bool + int4 = int4 (bool -> i* -> int4); a weak Python int is rebuilt as an int4 constant.
// CHECK-LABEL: func.func @bool_int4_weak
// CHECK-DAG:     stablehlo.convert %arg0 : (tensor<4xi1>) -> tensor<4xi4>
// CHECK-DAG:     stablehlo.constant dense<3> : tensor<4xi4>
// CHECK-NOT:     latticecast.weak
func.func @bool_int4_weak(%p: tensor<4xi1>, %x: tensor<4xi4>) -> (tensor<4xi4>, tensor<4xi4>) {
  %0 = "stablehlo.add"(%p, %x) : (tensor<4xi1>, tensor<4xi4>) -> tensor<4xi4>
  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %1 = "stablehlo.multiply"(%x, %k) : (tensor<4xi4>, tensor<4xi64>) -> tensor<4xi4>
  return %0, %1 : tensor<4xi4>, tensor<4xi4>
}

// -----

// A weak Python float with float8_e4m3fn stays float8_e4m3fn (strong), as in JAX.
// CHECK-LABEL: func.func @weak_float_f8
// CHECK:         %[[K:.+]] = stablehlo.constant dense<1.500000e+00> : tensor<4xf8E4M3FN>
// CHECK:         stablehlo.multiply %arg0, %[[K]] : tensor<4xf8E4M3FN>
func.func @weak_float_f8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %k = stablehlo.constant {latticecast.weak} dense<1.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xf8E4M3FN>, tensor<4xf64>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// float8_e4m3fn with float16: no type lies above both.
func.func @f8_f16(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error@+1 {{'stablehlo.add' op no implicit promotion of f8e4m3fn and f16 under policy 'jax': no type lies above both on the jax lattice (f8e4m3fn may become nothing else; f16 may become f32, f64, c64, c128); make it explicit: cast f8e4m3fn to float16 (x.cast(DType.float16) in a graph, stablehlo.convert to f16 in IR)}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf8E4M3FN>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// int4 with int8: refused too (the advice is int8, which holds both).
func.func @i4_i8(%a: tensor<4xi4>, %b: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{no implicit promotion of i4 and i8 under policy 'jax'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi4>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Two float8 formats do not meet either.
func.func @e4m3_e5m2(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error@+1 {{no implicit promotion of f8e4m3fn and f8e5m2 under policy 'jax'}}
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xf8E4M3FN>, tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}

// -----

// A weak Python float cannot meet an int4 (its join, f*, lies above no int).
func.func @weak_float_int4(%x: tensor<4xi4>) -> tensor<4xi4> {
  %k = stablehlo.constant {latticecast.weak} dense<0.5> : tensor<4xf64>
  // expected-error@+1 {{no implicit promotion of i4 and f* under policy 'jax'}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi4>, tensor<4xf64>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

// A legal op on them is never changed: same-type arithmetic, compare, convert, fp8 dot.
// CHECK-LABEL: func.func @legal_unchanged
// CHECK-NEXT:    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf8E4M3FN>
// CHECK-NEXT:    %1 = stablehlo.compare  LT, %arg1, %arg1 : (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi1>
// CHECK-NEXT:    %2 = stablehlo.convert %arg0 : (tensor<4xf8E4M3FN>) -> tensor<4xf4E2M1FN>
// CHECK-NEXT:    %3 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] : (tensor<2x3xf8E4M3FN>, tensor<3x4xf8E5M2>) -> tensor<2x4xf32>
func.func @legal_unchanged(%a: tensor<4xf8E4M3FN>, %i: tensor<4xi4>, %l: tensor<2x3xf8E4M3FN>, %r: tensor<3x4xf8E5M2>) -> (tensor<4xf8E4M3FN>, tensor<4xi1>, tensor<4xf4E2M1FN>, tensor<2x4xf32>) {
  %0 = stablehlo.add %a, %a : tensor<4xf8E4M3FN>
  %1 = stablehlo.compare LT, %i, %i : (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi1>
  %2 = stablehlo.convert %a : (tensor<4xf8E4M3FN>) -> tensor<4xf4E2M1FN>
  %3 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<2x3xf8E4M3FN>, tensor<3x4xf8E5M2>) -> tensor<2x4xf32>
  return %0, %1, %2, %3 : tensor<4xf8E4M3FN>, tensor<4xi1>, tensor<4xf4E2M1FN>, tensor<2x4xf32>
}
