// One program, every policy: int8 < uint64 and int64 < float32 are compared in
// whatever type each system promotes the operands to (compare keeps an i1 result,
// so the same input is valid before the pass for every policy).
// RUN: latticecast-opt %s --implicit-cast --policy jax | FileCheck %s --check-prefix=JAX
// RUN: latticecast-opt %s --implicit-cast --policy max | FileCheck %s --check-prefix=MAX
// RUN: latticecast-opt %s --implicit-cast --policy numpy | FileCheck %s --check-prefix=NUMPY
// RUN: latticecast-opt %s --implicit-cast --policy anvil | FileCheck %s --check-prefix=ANVIL
// RUN: not latticecast-opt %s --implicit-cast --policy array-api 2>&1 | FileCheck %s --check-prefix=ARRAY
// RUN: not latticecast-opt %s --implicit-cast --policy torch 2>&1 | FileCheck %s --check-prefix=TORCH
// RUN: not latticecast-opt %s --implicit-cast --policy tensorflow 2>&1 | FileCheck %s --check-prefix=TF
// RUN: not latticecast-opt %s --implicit-cast --policy jax-strict 2>&1 | FileCheck %s --check-prefix=STRICT

// JAX-DAG: stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf64>
// JAX-DAG: stablehlo.convert %arg1 : (tensor<4xui64>) -> tensor<4xf64>
// JAX:   stablehlo.compare LT, {{.+}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
// MAX-DAG: stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf16>
// MAX-DAG: stablehlo.convert %arg1 : (tensor<4xui64>) -> tensor<4xf16>
// MAX:   stablehlo.compare LT, {{.+}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
// NUMPY-DAG: stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf64>
// NUMPY-DAG: stablehlo.convert %arg1 : (tensor<4xui64>) -> tensor<4xf64>
// NUMPY: stablehlo.compare LT, {{.+}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
// ANVIL-DAG: stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi64>
// ANVIL-DAG: stablehlo.convert %arg1 : (tensor<4xui64>) -> tensor<4xi64>
// ANVIL: stablehlo.compare LT, {{.+}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// ARRAY: disagreement.mlir:[[# @LINE + 4]]:8: error: 'stablehlo.compare' op no implicit promotion of i8 and u64 under policy 'array-api'
// TORCH: disagreement.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.compare' op no implicit promotion of i8 and u64 under policy 'torch'
// TF:    disagreement.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.compare' op no implicit promotion of i8 and u64 under policy 'tensorflow'
func.func @i8_u64(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// JAX-DAG: stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf32>
// JAX:   stablehlo.compare LT, {{.+}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// MAX-DAG: stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf32>
// MAX:   stablehlo.compare LT, {{.+}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// NUMPY-DAG: stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf64>
// NUMPY-DAG: stablehlo.convert %arg1 : (tensor<4xf32>) -> tensor<4xf64>
// NUMPY: stablehlo.compare LT, {{.+}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
// ANVIL-DAG: stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf32>
// ANVIL: stablehlo.compare LT, {{.+}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// ARRAY: disagreement.mlir:[[# @LINE + 4]]:8: error: 'stablehlo.compare' op no implicit promotion of i64 and f32 under policy 'array-api'
// TF:    disagreement.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.compare' op no implicit promotion of i64 and f32 under policy 'tensorflow'
// STRICT: disagreement.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.compare' op no implicit promotion of i64 and f32 under policy 'jax-strict'
func.func @i64_f32(%a: tensor<4xi64>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi64>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
