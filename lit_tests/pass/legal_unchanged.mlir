// A module that is already legal StableHLO is left exactly as it is: printing it
// after implicit-cast is byte for byte the same as printing it after parsing
// alone (a round trip), under every policy, with or without locations.
// RUN: latticecast-opt %s -o %t.roundtrip.mlir
// RUN: latticecast-opt %s --implicit-cast -o %t.jax.mlir
// RUN: diff %t.roundtrip.mlir %t.jax.mlir
// RUN: latticecast-opt %s --implicit-cast --policy jax-lax -o %t.lax.mlir
// RUN: diff %t.roundtrip.mlir %t.lax.mlir
// RUN: latticecast-opt %s --implicit-cast --policy tensorflow -o %t.tf.mlir
// RUN: diff %t.roundtrip.mlir %t.tf.mlir
// RUN: latticecast-opt %s --implicit-cast --policy max --diagnose-lossy=error -o %t.max.mlir
// RUN: diff %t.roundtrip.mlir %t.max.mlir
// RUN: latticecast-opt %s --mlir-print-debuginfo -o %t.roundtrip.loc.mlir
// RUN: latticecast-opt %s --implicit-cast --mlir-print-debuginfo -o %t.jax.loc.mlir
// RUN: diff %t.roundtrip.loc.mlir %t.jax.loc.mlir
// RUN: FileCheck %s --input-file=%t.jax.mlir

// CHECK-LABEL: func.func @legal
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.dot_general
// CHECK:         stablehlo.while
// CHECK:         return
func.func @legal(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %p: tensor<2x4xi1>, %n: tensor<i32>) -> (tensor<2x4xf32>, tensor<2x4xi1>, tensor<i32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.constant dense<1.0> : tensor<2x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
  %3 = stablehlo.compare GT, %2, %1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %4 = stablehlo.and %3, %p : tensor<2x4xi1>
  %5 = stablehlo.select %4, %2, %1 : tensor<2x4xi1>, tensor<2x4xf32>
  %6 = stablehlo.constant dense<0> : tensor<i32>
  %7 = stablehlo.while(%i = %6) : tensor<i32>
    cond {
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %s = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }
  return %5, %4, %7 : tensor<2x4xf32>, tensor<2x4xi1>, tensor<i32>
}
