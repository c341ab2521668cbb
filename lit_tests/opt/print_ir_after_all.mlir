// --mlir-print-ir-after-all prints the IR after every pass to standard error, in
// MLIR's own format (the PassManager prints it); the result still goes to the output.
// RUN: latticecast-opt %s --implicit-cast --cse --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t

// CHECK:      // -----// IR Dump After ImplicitCastPass: implicit-cast //----- //
// CHECK:        %[[C:.+]] = stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>
// CHECK-NEXT:   %{{.+}} = stablehlo.add %[[C]], %arg1 : tensor<4xf32>
// CHECK:      // -----// IR Dump After CSEPass: cse //----- //
// CHECK-NOT:  IR Dump
// OUT: stablehlo.convert
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
