// The lossy-promotion warnings checked with --verify-diagnostics: expected-warning
// comments, with @+N offsets, match the pass's warnings. The same file run at
// remark level is a near miss that the verifier reports.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --diagnose-lossy=warning | FileCheck %s
// RUN: not latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --diagnose-lossy=remark 2>&1 | FileCheck %s --check-prefix=MISS

// The pipeline succeeds, so the module is printed too.
// CHECK-LABEL: func.func @i32_f16
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf16>
// MISS: diagnose_lossy_expected.mlir:[[# @LINE + 3]]:6: error: 'remark' diagnostic emitted when expecting a 'warning'
// MISS: diagnose_lossy_expected.mlir:[[# @LINE + 2]]:6: error: expected warning "implicit promotion of i32 to f16 can lose magnitude" was not produced
func.func @i32_f16(%a: tensor<4xi32>, %h: tensor<4xf16>) -> tensor<4xf16> {
  // expected-warning@+1 {{implicit promotion of i32 to f16 can lose magnitude}}
  %0 = "stablehlo.add"(%a, %h) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
