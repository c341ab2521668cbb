// --mlir-print-ir-before=PASS and --mlir-print-ir-after=PASS print around the named
// passes only (comma-separated, or the flag repeated); a name the pipeline does not
// run is an error that lists the pipeline's passes.
// RUN: latticecast-opt %s --implicit-cast --canonicalize --cse --mlir-print-ir-after=canonicalize -o %t 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: latticecast-opt %s --implicit-cast --canonicalize --cse --mlir-print-ir-before=implicit-cast,cse -o %t 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: latticecast-opt %s --implicit-cast --cse --mlir-print-ir-before=cse --mlir-print-ir-after=implicit-cast -o %t 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not latticecast-opt %s --implicit-cast --mlir-print-ir-after=inline 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// AFTER-NOT:  IR Dump After ImplicitCastPass
// AFTER:      // -----// IR Dump After CanonicalizerPass: canonicalize{{.*}} //----- //
// AFTER:      stablehlo.convert
// AFTER-NOT:  IR Dump

// BEFORE:     // -----// IR Dump Before ImplicitCastPass: implicit-cast //----- //
// BEFORE-NOT: IR Dump Before CanonicalizerPass
// BEFORE:     // -----// IR Dump Before CSEPass: cse //----- //
// BEFORE-NOT: IR Dump

// BOTH:       // -----// IR Dump After ImplicitCastPass: implicit-cast //----- //
// BOTH:       // -----// IR Dump Before CSEPass: cse //----- //
// BOTH-NOT:   IR Dump

// UNKNOWN: latticecast-opt: error: --mlir-print-ir-after=inline: the pipeline runs no pass named 'inline'; its passes are implicit-cast
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
