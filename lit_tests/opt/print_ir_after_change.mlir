// --mlir-print-ir-after-change prints the IR after a pass only when the pass changed
// it: implicit-cast inserts a convert here, cse then finds nothing to do.
// RUN: latticecast-opt %s --implicit-cast --cse --mlir-print-ir-after-change -o %t 2>&1 | FileCheck %s

// CHECK:      // -----// IR Dump After ImplicitCastPass: implicit-cast //----- //
// CHECK:      stablehlo.convert %arg0
// CHECK-NOT:  IR Dump After CSEPass
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
