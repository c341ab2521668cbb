// A legal module with no pipeline is parsed, verified and printed back: the
// round trip mlir-opt does.
// RUN: latticecast-opt %s | FileCheck %s
// RUN: latticecast-opt < %s | FileCheck %s
// RUN: latticecast-opt - < %s | FileCheck %s
// Printing is stable: the output of a round trip round-trips to itself.
// RUN: latticecast-opt %s | latticecast-opt | FileCheck %s

// CHECK-LABEL: func.func @legal
// CHECK-SAME:    (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[SUM:.+]] = stablehlo.add %[[A]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:    return %[[SUM]] : tensor<4xf32>
func.func @legal(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
