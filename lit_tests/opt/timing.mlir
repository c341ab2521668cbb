// --mlir-timing prints the PassManager's execution time report to standard error,
// one row per pass, after the run.
// RUN: latticecast-opt %s --implicit-cast --cse --mlir-timing -o %t 2>&1 | FileCheck %s

// CHECK:      ... Execution time report ...
// CHECK:      Total Execution Time:
// CHECK:      ----Wall Time----  ----Name----
// CHECK:      ImplicitCastPass
// CHECK-NEXT: CSEPass
// CHECK:      Total
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
