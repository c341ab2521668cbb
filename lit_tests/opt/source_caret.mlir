// Errors show the source line and a caret under the column, as mlir-opt's source
// manager handler prints them; the first line stays file:line:col: error: message.
// Notes that point into the file get theirs too. With --verify-diagnostics nothing is
// printed for expected diagnostics.
// RUN: not latticecast-opt %s --split-input-file 2>&1 | FileCheck %s --strict-whitespace
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics

// CHECK:      source_caret.mlir:[[# @LINE + 5]]:10: error: use of undeclared SSA value name
// CHECK-NEXT: {{^}}  return %nope : tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}         ^{{$}}
func.func @undeclared(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{use of undeclared SSA value name}}
  return %nope : tensor<4xf32>
}

// -----

// CHECK:      source_caret.mlir:[[# @LINE + 5]]:8: error: op requires the same element type for all operands and results
// CHECK-NEXT: {{^}}  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
func.func @mixed(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{op requires the same element type}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
