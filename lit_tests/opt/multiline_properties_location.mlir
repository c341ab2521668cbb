// Diagnostics land on the user's own line, even inside properties written over
// several lines. The lenient parser renames the generic form of the ops it
// legalises and moves their `<{...}>` properties into the attribute dictionary;
// that rewrite keeps every character on its line and column, so an error found
// in the fourth line of a property is reported on that line (found by
// StableHLO's own ops_dot_general_algorithms.mlir).
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy numpy
// The properties themselves survive the rewrite unchanged.
// RUN: not latticecast-opt %s --split-input-file --implicit-cast 2>/dev/null | FileCheck %s

func.func @unsupported_algorithm(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dot_general"(%x, %y) <{
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    // expected-error@+1 {{dot algorithm not known to be supported on any hardware}}
    algorithm = #stablehlo.dot_algorithm<
      lhs_precision_type = f32,
      rhs_precision_type = f32,
      accumulation_type = f32,
      lhs_component_count = 2,
      rhs_component_count = 1,
      num_primitive_operations = 1,
      allow_imprecise_accumulation = false
    >
  }> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Properties over several lines followed by an attribute dictionary on the
// next line: both dictionaries are kept.
// CHECK-LABEL: func.func @props_then_attrs
// CHECK:         stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {my.note = "kept"}
func.func @props_then_attrs(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dot_general"(%x, %y) <{
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
  }>
  {my.note = "kept"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A mixed-dtype op with multi-line properties: legalised, nothing moved.
// CHECK-LABEL: func.func @mixed_multiline
// CHECK:         %[[C:.+]] = stablehlo.convert %arg0 : (tensor<2x3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT:    stablehlo.compare GT, %[[C]], %arg1, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
func.func @mixed_multiline(%a: tensor<2x3xi8>, %b: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %0 = "stablehlo.compare"(%a, %b) <{
    comparison_direction = #stablehlo<comparison_direction GT>,
    compare_type = #stablehlo<comparison_type FLOAT>
  }> : (tensor<2x3xi8>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
