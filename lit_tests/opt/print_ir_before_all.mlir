// --mlir-print-ir-before-all prints each pass's input to standard error. The input of
// implicit-cast does not verify (a mixed-dtype add), so MLIR prints it in the generic form.
// RUN: latticecast-opt %s --implicit-cast --cse --mlir-print-ir-before-all -o %t 2>&1 | FileCheck %s

// CHECK:      // -----// IR Dump Before ImplicitCastPass: implicit-cast //----- //
// CHECK:      "stablehlo.add"(%arg0, %arg1) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
// CHECK:      // -----// IR Dump Before CSEPass: cse //----- //
// CHECK:      stablehlo.convert %arg0
// CHECK-NOT:  IR Dump After
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
