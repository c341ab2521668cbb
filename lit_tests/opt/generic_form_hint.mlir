// A mixed-dtype op written in the pretty form is checked by the verifier as it is
// parsed, so it never reaches implicit-cast: the error says to write it in the generic
// form, with the op rewritten as an example (the user's own types when the pretty form
// has them; for the short form, which operand's type goes where).
// RUN: not latticecast-opt %s --split-input-file --implicit-cast 2>&1 | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --implicit-cast --verify-diagnostics

// CHECK: generic_form_hint.mlir:[[# @LINE + 3]]:8: error: op requires the same element type for all operands and results; a 'stablehlo.add' whose operands' element types differ must be written in the generic form, which latticecast's lenient parser accepts and implicit-cast legalises: %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
func.func @pretty(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{must be written in the generic form, which latticecast's lenient parser accepts and implicit-cast legalises: %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>}}
  %0 = stablehlo.add %a, %b : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: generic_form_hint.mlir:[[# @LINE + 4]]:27: error: use of value '%a' expects different type than prior uses: {{.*}}; a 'stablehlo.multiply' whose operands' element types differ must be written in the generic form, {{.*}}: %0 = "stablehlo.multiply"(%a, %b) : (<type of %a>, <type of %b>) -> tensor<4xf32>
// expected-note@+1 {{prior use here}}
func.func @short(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{must be written in the generic form}}
  %0 = stablehlo.multiply %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK: generic_form_hint.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.compare' op requires compatible element types for all operands; {{.*}}: %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi1>
func.func @compare(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error@+1 {{must be written in the generic form}}
  %0 = stablehlo.compare LT, %a, %b : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// The generic form itself is accepted, and legalised.
// CHECK-NOT: error
func.func @generic(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
