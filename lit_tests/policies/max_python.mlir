// Policy max-python (MAX 26.7's Python max.graph, as measured): promotion never
// widens. The operand of the highest category (bool < unsigned < signed < float)
// and width is the target, and every operand must convert to it exactly, or the
// op is refused with MAX's reason. A Python scalar takes the other operand's dtype
// and is checked against MAX's table of exactly representable integers.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy max-python | FileCheck %s

// uint8 converts exactly to the wider int16, so uint8 + int16 is int16.
// CHECK-LABEL: func.func @u8_i16
// CHECK-SAME:    (%[[A:.+]]: tensor<4xui8>, %[[B:.+]]: tensor<4xi16>) -> tensor<4xi16>
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-NEXT:    stablehlo.add %[[CA]], %[[B]] : tensor<4xi16>
func.func @u8_i16(%a: tensor<4xui8>, %b: tensor<4xi16>) -> tensor<4xi16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xui8>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// int8 + uint8 aims at int8, which cannot hold 255: MAX refuses (JAX: int16).
func.func @i8_u8(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi8> {
  // expected-error@+1 {{no implicit promotion of i8 and u8 under policy 'max-python': Failed to resolve valid dtype: Unsafe cast from ui8 to si8}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// int16 does not fit float16's 11-bit significand.
func.func @i16_f16(%a: tensor<4xi16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error@+1 {{Unsafe cast from si16 to f16}}
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// bfloat16 outranks float16, and float16 does not convert to it exactly (the seed's MAX: bfloat16).
func.func @f16_bf16(%a: tensor<4xf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  // expected-error@+1 {{Unsafe cast from f16 to bf16}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// int8 fits bfloat16's 8-bit significand.
// CHECK-LABEL: func.func @i8_bf16
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xbf16>
// CHECK-NEXT:    stablehlo.maximum %{{.+}}, %{{.+}} : tensor<4xbf16>
func.func @i8_bf16(%a: tensor<4xi8>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<4xi8>, tensor<4xbf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// Two different float8 types meet at float16, the one promotion that is neither operand.
// CHECK-LABEL: func.func @f8_f8
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xf8E4M3FN>) -> tensor<4xf16>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xf8E5M2>) -> tensor<4xf16>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf16>
func.func @f8_f8(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E5M2>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf8E4M3FN>, tensor<4xf8E5M2>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// A Python int takes the graph value's dtype: 2048 is exact in float16.
// CHECK-LABEL: func.func @weak_int_f16
// CHECK:         %[[K:.+]] = stablehlo.constant dense<2.048000e+03> : tensor<4xf16>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xf16>
func.func @weak_int_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %k = stablehlo.constant {latticecast.weak} dense<2048> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf16>, tensor<4xi64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// 2049 is not: MAX's range for a Python int meeting float16 is [-2048, 2048].
func.func @weak_int_f16_out_of_range(%x: tensor<4xf16>) -> tensor<4xf16> {
  %k = stablehlo.constant {latticecast.weak} dense<2049> : tensor<4xi64>
  // expected-error@+1 {{Can't promote python int with value (2049) to dtype(DType.float16). It would lose precision}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf16>, tensor<4xi64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// A Python float cannot meet an integer.
func.func @weak_float_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  // expected-error@+1 {{Unsafe cast: Can't promote python float to dtype(DType.int32)}}
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// MAX makes no constant narrower than a byte, so no Python scalar meets a float4 value.
func.func @weak_int_f4(%x: tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN> {
  %k = stablehlo.constant {latticecast.weak} dense<1> : tensor<4xi64>
  // expected-error@+1 {{Cannot create a constant of type 'DType.float4_e2m1fn' since it is a sub-byte type}}
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf4E2M1FN>, tensor<4xi64>) -> tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}

// -----

// A legal module is left as it is (here an integer division, which StableHLO truncates).
// CHECK-LABEL: func.func @legal
// CHECK-NEXT:    stablehlo.divide %arg0, %arg1 : tensor<4xi16>
func.func @legal(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi16> {
  %0 = stablehlo.divide %a, %b : tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// A weakly typed array (latticecast.weak = "array": a NumPy array meeting a graph value)
// takes the graph value's dtype whatever its own, by MAX's array rules: a float array
// meets bool (a Python float would not), a bool array is not checked (0 is no
// float8_e8m0fnu, but False is converted), and it is rebuilt in the promoted dtype.
// CHECK-LABEL: func.func @weak_arrays
// CHECK-DAG:     %[[F:.+]] = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG:     stablehlo.add %{{.+}}, %[[F]] : tensor<2xi1>
// CHECK-DAG:     %[[I:.+]] = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf16>
// CHECK-DAG:     stablehlo.multiply %{{.+}}, %[[I]] : tensor<2xf16>
// CHECK-NOT:     latticecast.weak
func.func @weak_arrays(%b: tensor<2xi1>, %h: tensor<2xf16>) -> (tensor<2xi1>, tensor<2xf16>) {
  %f = stablehlo.constant {latticecast.weak = "array"} dense<[0.5, 0.0]> : tensor<2xf64>
  %0 = "stablehlo.add"(%b, %f) : (tensor<2xi1>, tensor<2xf64>) -> tensor<2xi1>
  %i = stablehlo.constant {latticecast.weak = "array"} dense<[1, 2]> : tensor<2xi32>
  %1 = "stablehlo.multiply"(%h, %i) : (tensor<2xf16>, tensor<2xi32>) -> tensor<2xf16>
  return %0, %1 : tensor<2xi1>, tensor<2xf16>
}

// -----

// An integer array's values must lie in the Python int's range for the dtype.
func.func @weak_array_out_of_range(%x: tensor<2xi8>) -> tensor<2xi8> {
  %w = stablehlo.constant {latticecast.weak = "array"} dense<[1, 300]> : tensor<2xi64>
  // expected-error@+1 {{Refusing to implicitly promote external array with precision loss for DType DType.int8}}
  %0 = "stablehlo.add"(%x, %w) : (tensor<2xi8>, tensor<2xi64>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

// A float array meets no integer dtype.
func.func @weak_float_array_i32(%x: tensor<2xi32>) -> tensor<2xi32> {
  %w = stablehlo.constant {latticecast.weak = "array"} dense<[0.5, 1.5]> : tensor<2xf32>
  // expected-error@+1 {{Refusing to implicitly promote float array to dtype(DType.int32)}}
  %0 = "stablehlo.add"(%x, %w) : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
