// Policy jax (jax.numpy with jax_enable_x64): the cells where it differs from
// other systems. Compare policies/numpy.mlir, policies/max.mlir, policies/anvil.mlir.
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax | FileCheck %s

// int8 + uint64: no integer holds both, so the lattice goes through f* and the
// result is a *weakly typed* float that materialises as f64 (JAX gives
// float64 with weak_type=True). Being weak, it then defers to the f32 it meets:
// the second add is done in f32, the f64 value is converted down.
// CHECK-LABEL: func.func @i8_u64_is_weak_f64
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xui64>, %[[F:.+]]: tensor<4xf32>) -> (tensor<4xf64>, tensor<4xf32>)
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi8>) -> tensor<4xf64>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xui64>) -> tensor<4xf64>
// CHECK:         %[[S:.+]] = stablehlo.add %[[CA]], %[[CB]] : tensor<4xf64>
// CHECK-NEXT:    %[[SF:.+]] = stablehlo.convert %[[S]] : (tensor<4xf64>) -> tensor<4xf32>
// CHECK-NEXT:    %[[T:.+]] = stablehlo.add %[[SF]], %[[F]] : tensor<4xf32>
// CHECK-NEXT:    return %[[S]], %[[T]] : tensor<4xf64>, tensor<4xf32>
func.func @i8_u64_is_weak_f64(%a: tensor<4xi8>, %b: tensor<4xui64>, %f: tensor<4xf32>) -> (tensor<4xf64>, tensor<4xf32>) {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf64>
  %1 = "stablehlo.add"(%0, %f) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf64>, tensor<4xf32>
}

// -----

// int64 + float32 is float32 in JAX (integers defer to floats of any width).
// CHECK-LABEL: func.func @i64_f32
// CHECK:         %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.add %[[CA]], %{{.+}} : tensor<4xf32>
func.func @i64_f32(%a: tensor<4xi64>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// uint32 + int32 is int64 with x64 (int32 with x64 off: policies/jax_x32.mlir).
// CHECK-LABEL: func.func @u32_i32
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xui32>) -> tensor<4xi64>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xi64>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xi64>
func.func @u32_i32(%a: tensor<4xui32>, %b: tensor<4xi32>) -> tensor<4xi64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xui32>, tensor<4xi32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// A Python float times an int32 array: i32 . f* = f*, which materialises as f64
// with x64. The constant is already f64 and stays; the array is converted.
// CHECK-LABEL: func.func @weak_float_times_i32
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG:     %[[CX:.+]] = stablehlo.convert %[[X]] : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-DAG:     %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<4xf64>
// CHECK:         stablehlo.multiply %[[CX]], %[[K]] : tensor<4xf64>
// CHECK-NOT:     latticecast.weak
func.func @weak_float_times_i32(%x: tensor<4xi32>) -> tensor<4xf64> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// float64 with float32 is float64 with x64 (float32 under jax-x32).
// CHECK-LABEL: func.func @f64_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf64>
func.func @f64_f32(%a: tensor<4xf64>, %b: tensor<4xf32>) -> tensor<4xf64> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
