// No promotion crosses a region boundary: text whose branch or loop body yields
// another type than its op's is refused when it is read, with the verifier's
// message naming both types (lenient parsing covers ops without regions only).
// RUN: not latticecast-opt %s --split-input-file --implicit-cast 2>&1 | FileCheck %s

// CHECK: region_boundaries.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: {{.*}}branch 0 and branch 1 have mismatched return types: 'tensor<f16>' vs 'tensor<f32>'
func.func @branches(%p: tensor<i1>, %x: tensor<f16>, %y: tensor<f32>) -> tensor<f16> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<f16>
  }, {
    stablehlo.return %y : tensor<f32>
  }) : (tensor<i1>) -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// CHECK: region_boundaries.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: {{.*}}body block return types but got 'tensor<f16>' vs 'tensor<f32>'
func.func @body(%x: tensor<f16>) -> tensor<f16> {
  %r = stablehlo.while(%h = %x) : tensor<f16>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %w = stablehlo.convert %h : (tensor<f16>) -> tensor<f32>
      stablehlo.return %w : tensor<f32>
    }
  return %r : tensor<f16>
}
