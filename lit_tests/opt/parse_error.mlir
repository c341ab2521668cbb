// Malformed input: the parser's message at file:line:col, exit code 1, no
// traceback; standard input is called <stdin>. --verify-diagnostics checks parser
// errors like any other.
// RUN: not latticecast-opt %s 2>&1 | FileCheck %s
// RUN: not latticecast-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not latticecast-opt %s --implicit-cast --policy max 2>&1 | FileCheck %s
// RUN: latticecast-opt %s --verify-diagnostics

// CHECK: parse_error.mlir:[[# @LINE + 7]]:10: error: use of undeclared SSA value name
// CHECK-NOT: Traceback
// STDIN: <stdin>:[[# @LINE + 5]]:10: error: use of undeclared SSA value name
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // The generic form is accepted leniently; an undefined value is not.
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{use of undeclared SSA value name}}
  return %nope : tensor<4xf32>
}
