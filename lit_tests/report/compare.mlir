// latticecast compare: every op's dtype inferred again under two policies; the ops that differ, with
// their locations, and the outputs that change. Regions and calls are followed.
// RUN: %latticecast compare %s --policy numpy --vs jax | FileCheck %s

// CHECK: compare.mlir:[[# @LINE + 10]]:8: 'stablehlo.add': numpy f64, jax f16
// CHECK: compare.mlir:[[# @LINE + 10]]:8: 'stablehlo.reshape': numpy f64, jax f16
// CHECK: compare.mlir:[[# @LINE + 13]]:8: 'func.call': numpy f64, jax f16
// CHECK: compare.mlir:[[# @LINE + 13]]:8: 'stablehlo.multiply': numpy f64, jax f16
// CHECK: compare.mlir:[[# @LINE + 13]]:8: 'stablehlo.if': numpy f64, jax f16
// CHECK: @helper outputs: numpy (f64), jax (f16)
// CHECK: @main outputs: numpy (f64), jax (f16)
// CHECK: 5 ops differ in dtype between numpy and jax
// CHECK-NOT: i16
func.func private @helper(%a: tensor<4xi32>, %b: tensor<4xf16>) -> tensor<2x2xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  %1 = stablehlo.reshape %0 : (tensor<4xf16>) -> tensor<2x2xf16>
  return %1 : tensor<2x2xf16>
}
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf16>, %p: tensor<i1>) -> tensor<2x2xf16> {
  %0 = func.call @helper(%a, %b) : (tensor<4xi32>, tensor<4xf16>) -> tensor<2x2xf16>
  %1 = "stablehlo.multiply"(%0, %0) : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  %2 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%1) : (tensor<2x2xf16>) -> ()
  }, {
    "stablehlo.return"(%1) : (tensor<2x2xf16>) -> ()
  }) : (tensor<i1>) -> tensor<2x2xf16>
  return %2 : tensor<2x2xf16>
}
