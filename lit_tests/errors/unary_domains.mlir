// A unary op whose operand's element type the op is not defined for gets a diagnostic that
// names the op, the dtype and the fix (op_rules.UNARY, the builder's data too), instead of the
// verifier's list of accepted types. Only what StableHLO's verifier rejects is reported: the
// legal unary ops at the end come through untouched.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy numpy
// RUN: not latticecast-opt %s --split-input-file --implicit-cast 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not latticecast-opt %s --split-input-file --implicit-cast 2>/dev/null | FileCheck %s --check-prefix=LEGAL

// ERR: unary_domains.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.negate' op is not defined for bool (i1): it takes numbers (not bool); use ~ (logical not, stablehlo.not) for bool, or cast first
func.func @negate_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'stablehlo.negate' op is not defined for bool (i1): it takes numbers (not bool); use ~ (logical not, stablehlo.not) for bool, or cast first}}
  %0 = "stablehlo.negate"(%a) : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @exp_of_integers(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'stablehlo.exponential' op is not defined for int32 (i32): it takes floating-point or complex operands; convert the operand to a float first (stablehlo.convert in IR; ops.exp in a graph does it itself)}}
  %0 = "stablehlo.exponential"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @abs_of_unsigned(%a: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error@+1 {{'stablehlo.abs' op is not defined for uint8 (ui8): it takes signed numbers (not bool or unsigned); cast a bool first; an unsigned value is its own absolute value}}
  %0 = "stablehlo.abs"(%a) : (tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @not_of_floats(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.not' op is not defined for float32 (f32): it takes integer or bool operands}}
  %0 = "stablehlo.not"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @floor_of_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{'stablehlo.floor' op is not defined for complex64 (complex<f32>): it takes floating-point operands (not complex); an integer or bool is already whole}}
  %0 = "stablehlo.floor"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// LEGAL-LABEL: func.func @legal
// LEGAL-NEXT:    %0 = stablehlo.negate %arg0 : tensor<4xui8>
// LEGAL-NEXT:    %1 = stablehlo.not %arg1 : tensor<4xi1>
// LEGAL-NEXT:    %2 = stablehlo.abs %arg2 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// LEGAL-NEXT:    %3 = stablehlo.exponential %arg2 : tensor<4xcomplex<f32>>
// LEGAL-NEXT:    %4 = stablehlo.floor %arg3 : tensor<4xf8E4M3FN>
// LEGAL-NEXT:    return %0, %1, %2, %3, %4
func.func @legal(%a: tensor<4xui8>, %b: tensor<4xi1>, %c: tensor<4xcomplex<f32>>, %d: tensor<4xf8E4M3FN>)
    -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xf8E4M3FN>) {
  %0 = "stablehlo.negate"(%a) : (tensor<4xui8>) -> tensor<4xui8>
  %1 = "stablehlo.not"(%b) : (tensor<4xi1>) -> tensor<4xi1>
  %2 = "stablehlo.abs"(%c) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %3 = "stablehlo.exponential"(%c) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %4 = "stablehlo.floor"(%d) : (tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0, %1, %2, %3, %4 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xf8E4M3FN>
}
