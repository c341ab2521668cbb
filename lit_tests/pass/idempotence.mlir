// Running implicit-cast twice gives what running it once gives: its output is
// legal, and the pass leaves legal IR exactly as it is.
// RUN: latticecast-opt %s --implicit-cast -o %t.once.mlir
// RUN: latticecast-opt %t.once.mlir --implicit-cast -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// Twice in one pipeline is the same as once, too.
// RUN: latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast,implicit-cast)' -o %t.pipeline.mlir
// RUN: diff %t.once.mlir %t.pipeline.mlir
// RUN: latticecast-opt %s --implicit-cast --implicit-cast -o %t.flags.mlir
// RUN: diff %t.once.mlir %t.flags.mlir
// And under other policies (max lowers index/tf32 too: idempotence_max.mlir):
// RUN: latticecast-opt %s --implicit-cast --policy numpy -o %t.np1.mlir
// RUN: latticecast-opt %t.np1.mlir --implicit-cast --policy numpy -o %t.np2.mlir
// RUN: diff %t.np1.mlir %t.np2.mlir
// The second run's input really was rewritten by the first:
// RUN: FileCheck %s --input-file=%t.once.mlir

// i16 -> f32 for the add, u8 -> i16 for the compare; the weak 2 becomes an i16 constant.
// CHECK-LABEL: func.func @mixed
// CHECK-DAG:     stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>
// CHECK-DAG:     stablehlo.convert %arg2 : (tensor<4xui8>) -> tensor<4xi16>
// CHECK-DAG:     stablehlo.constant dense<2> : tensor<4xi16>
// CHECK-NOT:     stablehlo.convert
// CHECK-NOT:     latticecast.weak
func.func @mixed(%a: tensor<4xi16>, %b: tensor<4xf32>, %c: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi16>, tensor<4xi1>) {
  %k = stablehlo.constant {latticecast.weak} dense<2> : tensor<4xi64>
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%a, %k) : (tensor<4xi16>, tensor<4xi64>) -> tensor<4xi16>
  %2 = "stablehlo.compare"(%c, %1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xui8>, tensor<4xi16>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xi16>, tensor<4xi1>
}
