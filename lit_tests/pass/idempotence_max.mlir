// implicit-cast under policy max, lowering of index/address/tf32 included, is
// idempotent: its output is plain StableHLO, which a second run leaves alone.
// RUN: latticecast-opt %s --implicit-cast --policy max -o %t.once.mlir
// RUN: latticecast-opt %t.once.mlir --implicit-cast --policy max -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s --input-file=%t.once.mlir

// CHECK-LABEL: func.func @lowered
// CHECK-SAME:    tensor<4xui64>
// CHECK-COUNT-2: stablehlo.reduce_precision
// CHECK-NOT:     index
// CHECK-NOT:     tf32
func.func @lowered(%i: tensor<4xindex>, %u: tensor<4xui8>, %t: tensor<4xtf32>, %g: tensor<4xf32>) -> (tensor<4xui64>, tensor<4xtf32>) {
  %0 = "stablehlo.add"(%i, %u) : (tensor<4xindex>, tensor<4xui8>) -> tensor<4xui64>
  %1 = "stablehlo.multiply"(%g, %t) : (tensor<4xf32>, tensor<4xtf32>) -> tensor<4xtf32>
  return %0, %1 : tensor<4xui64>, tensor<4xtf32>
}
