// Converting f32 to tf32 becomes, after the tf32 -> f32 lowering, a convert from f32
// to f32; the lowering drops it (jaxlib's canonicalize would not fold it). The
// rounding to TF32 is the reduce_precision that follows.
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
