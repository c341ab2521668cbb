// XFAIL: *
// BUG (reported): converting f32 to tf32 leaves, after the tf32 -> f32 lowering,
// a `stablehlo.convert %x : tensor<4xf32>` from f32 to f32. lower_dtypes keeps it
// "for canonicalize to fold", but jaxlib's canonicalize does not fold it, so it
// stays in the output of --implicit-cast --canonicalize. The rounding to TF32 is
// the reduce_precision that follows; the identity convert should not be there.
// RUN: latticecast-opt %s --implicit-cast --policy max --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @f32_tf32
// CHECK-SAME:    (%[[G:.+]]: tensor<4xf32>, %[[T:.+]]: tensor<4xf32>)
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.reduce_precision %[[G]], format = e8m10
// CHECK:         return
func.func @f32_tf32(%g: tensor<4xf32>, %t: tensor<4xtf32>) -> tensor<4xtf32> {
  %0 = "stablehlo.add"(%g, %t) : (tensor<4xf32>, tensor<4xtf32>) -> tensor<4xtf32>
  return %0 : tensor<4xtf32>
}
