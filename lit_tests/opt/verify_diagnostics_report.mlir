// --verify-diagnostics when diagnostics and expectations disagree: each mismatch
// is one line in MLIR's words, at the place it concerns, and the exit code is 1.
// (Where they agree the exit code is 0 even though the pipeline fails: see
// errors/*.mlir.)
// RUN: not latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy array-api 2>&1 | FileCheck %s
// CHECK-NOT: Traceback

// An error nobody expected, reported at the op.
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 2]]:8: error: unexpected error: 'stablehlo.add' op no implicit promotion of i32 and f32
func.func @unexpected(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An expectation nothing produced (the promotion is defined), reported at the comment.
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 2]]:6: error: expected error "no implicit promotion" was not produced
func.func @not_produced(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  // expected-error@+1 {{no implicit promotion}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// The right message on the wrong line: both halves are reported.
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 3]]:6: error: expected error "no implicit promotion of i32 and f32" was not produced
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 3]]:8: error: unexpected error: 'stablehlo.multiply' op no implicit promotion of i32 and f32
func.func @wrong_line(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{no implicit promotion of i32 and f32}}
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The right message with the wrong severity: a near miss.
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 2]]:6: error: 'error' diagnostic emitted when expecting a 'warning'
func.func @near_miss(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning@+1 {{no implicit promotion of i32 and f32}}
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// One diagnostic satisfies one expectation: a second identical expectation on the
// same line is not met.
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 4]]:6: error: expected error "'stablehlo.divide' op" was not produced
func.func @twice(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.divide"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error@-1 {{'stablehlo.divide' op}}
  // expected-error@-2 {{'stablehlo.divide' op}}
  return %0 : tensor<4xf32>
}

// -----

// A regex that does not compile is reported where it is written.
// CHECK-DAG: verify_diagnostics_report.mlir:[[# @LINE + 2]]:6: error: invalid regex:
func.func @bad_regex(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error-re@+1 {{promotion of {{(i32}} and}}
  %0 = stablehlo.add %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}
