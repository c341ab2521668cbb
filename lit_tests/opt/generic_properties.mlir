// The generic form of an op whose attributes are inherent prints them as
// properties, `<{...}>` (this is how MLIR, --mlir-print-op-generic and
// Graph.mlir(before_passes=True) print compare and dot_general). The lenient
// parser keeps them when it re-creates such ops from its unregistered placeholder.
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --implicit-cast --mlir-print-op-generic | latticecast-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @legal_compare
// CHECK:         stablehlo.compare LT, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @legal_compare(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @mixed_compare
// CHECK:         %[[C:.+]] = stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.compare LT, %[[C]], %arg1 : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
func.func @mixed_compare(%a: tensor<4xui8>, %b: tensor<4xf16>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4xui8>, tensor<4xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A mixed dot_general is legal StableHLO: its properties survive the lenient parse, unchanged.
// CHECK-LABEL: func.func @mixed_dot_general
// CHECK-NEXT:    stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>
func.func @mixed_dot_general(%a: tensor<2x3xi8>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
