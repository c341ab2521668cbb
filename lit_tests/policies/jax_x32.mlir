// Policy jax-x32 (JAX's default, jax_enable_x64 off): no 64-bit results. JAX
// canonicalises every 64-bit dtype to its 32-bit counterpart, and a weak float
// materialises as float32.
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax-x32 | FileCheck %s

// uint32 + int32 is int32 with x64 off (int64 under policy jax).
// CHECK-LABEL: func.func @u32_i32
// CHECK-SAME:    (%[[A:.+]]: tensor<4xui32>, %[[B:.+]]: tensor<4xi32>)
// CHECK:         %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xui32>) -> tensor<4xi32>
// CHECK-NEXT:    stablehlo.add %[[CA]], %[[B]] : tensor<4xi32>
func.func @u32_i32(%a: tensor<4xui32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xui32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A weak f64 constant (a Python float) meets an int32 array: the join is f*,
// which materialises as f32 here. The constant is rebuilt as an f32 constant
// (no convert of it), the int32 operand is converted.
// CHECK-LABEL: func.func @weak_f64_materialises_as_f32
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi32>) -> tensor<4xf32>
// CHECK-DAG:     %[[CX:.+]] = stablehlo.convert %[[X]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-DAG:     %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<4xf32>
// CHECK:         %[[R:.+]] = stablehlo.multiply %[[CX]], %[[K]] : tensor<4xf32>
// CHECK-NEXT:    return %[[R]] : tensor<4xf32>
// CHECK-NOT:     f64
func.func @weak_f64_materialises_as_f32(%x: tensor<4xi32>) -> tensor<4xf32> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A Python float returned as it is: it leaves the program as f32, and the
// function's result type follows.
// CHECK-LABEL: func.func @weak_f64_returned() -> tensor<f32>
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<f32>
// CHECK-NEXT:    return %[[K]] : tensor<f32>
func.func @weak_f64_returned() -> tensor<f64> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<f64>
  return %k : tensor<f64>
}

// -----

// A float64 array is canonicalised to float32: float64 with float32 is float32.
// CHECK-LABEL: func.func @f64_f32
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %[[CA]], %{{.+}} : tensor<4xf32>
func.func @f64_f32(%a: tensor<4xf64>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// int8 + uint32 is int64 on JAX's lattice, canonicalised to int32.
// CHECK-LABEL: func.func @i8_u32
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui32>) -> tensor<4xi32>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xi32>
func.func @i8_u32(%a: tensor<4xi8>, %b: tensor<4xui32>) -> tensor<4xi32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
