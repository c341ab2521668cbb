// The lenient parser accepts mixed-dtype ops, but they are not StableHLO: with no
// implicit-cast before them, the verifier rejects them with its own message,
// whether there is no pipeline (a round trip), an empty one, or one whose first
// pass is not implicit-cast (upstream passes only ever see verified IR).
// RUN: not latticecast-opt %s 2>&1 | FileCheck %s
// RUN: not latticecast-opt %s --pass-pipeline='builtin.module()' 2>&1 | FileCheck %s
// RUN: not latticecast-opt %s --canonicalize 2>&1 | FileCheck %s
// RUN: not latticecast-opt %s --cse --implicit-cast 2>&1 | FileCheck %s
// RUN: latticecast-opt %s --verify-diagnostics
// With implicit-cast first, the same input is fine.
// RUN: latticecast-opt %s --implicit-cast --cse | FileCheck %s --check-prefix=OK

// CHECK: verify_without_pass.mlir:[[# @LINE + 5]]:8: error: op requires the same element type for all operands and results
// CHECK-NOT: Traceback
// OK: stablehlo.convert
func.func @mixed(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{op requires the same element type for all operands and results}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
