// Errors of the verifier that runs after a pass carry a "see current operation"
// note; as in mlir-opt --verify-diagnostics (which turns printOpOnDiagnostic off),
// it need not be expected. Printed without --verify-diagnostics, it is there (after the
// error's source line and caret).
// RUN: latticecast-opt %s --verify-diagnostics --implicit-cast --policy max --lower-dtypes=false
// RUN: not latticecast-opt %s --implicit-cast --policy max --lower-dtypes=false 2>&1 | FileCheck %s

// CHECK: verify_diagnostics_verifier.mlir:[[# @LINE + 4]]:8: error: 'stablehlo.multiply' op operand #0 must be ranked tensor of {{.+}}, but got 'tensor<4xindex>'
// CHECK:      verify_diagnostics_verifier.mlir:[[# @LINE + 3]]:8: note: see current operation: {{.+}}"stablehlo.multiply"
func.func @index_kept(%i: tensor<4xindex>) -> tensor<4xindex> {
  // expected-error@+1 {{'stablehlo.multiply' op operand #0 must be ranked tensor of}}
  %0 = "stablehlo.multiply"(%i, %i) : (tensor<4xindex>, tensor<4xindex>) -> tensor<4xindex>
  return %0 : tensor<4xindex>
}
