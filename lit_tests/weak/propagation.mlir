// Weakness flows through data movement (broadcast_in_dim, reshape: the constant
// and the movement are rebuilt at the target type) and through elementwise ops
// such as negate (the result is weak but not a constant: it is converted). The
// result of an op whose join is weak is weak itself (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s --check-prefix=CLEAN
// CLEAN-NOT: latticecast.weak

// A scalar literal broadcast to the array's shape: x + 3 with x: int16.
// CHECK-LABEL: func.func @through_broadcast
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi16>)
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<3> : tensor<i16>
// CHECK-NEXT:    %[[B:.+]] = stablehlo.broadcast_in_dim %[[K]], dims = [] : (tensor<i16>) -> tensor<4xi16>
// CHECK-NEXT:    stablehlo.add %[[X]], %[[B]] : tensor<4xi16>
// CHECK-NOT:     i64
func.func @through_broadcast(%x: tensor<4xi16>) -> tensor<4xi16> {
  %c = stablehlo.constant {latticecast.weak} dense<3> : tensor<i64>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4xi64>
  %0 = "stablehlo.add"(%x, %b) : (tensor<4xi16>, tensor<4xi64>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// A reshaped weak float constant meeting float16.
// CHECK-LABEL: func.func @through_reshape
// CHECK-NEXT:    %[[K:.+]] = stablehlo.constant dense<[1.500000e+00, 2.500000e+00, 3.500000e+00, 4.500000e+00]> : tensor<4xf16>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.reshape %[[K]] : (tensor<4xf16>) -> tensor<2x2xf16>
// CHECK-NEXT:    stablehlo.multiply %[[R]], %{{.+}} : tensor<2x2xf16>
// CHECK-NOT:     f64
func.func @through_reshape(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  %c = stablehlo.constant {latticecast.weak} dense<[1.5, 2.5, 3.5, 4.5]> : tensor<4xf64>
  %r = stablehlo.reshape %c : (tensor<4xf64>) -> tensor<2x2xf64>
  %0 = "stablehlo.multiply"(%r, %x) : (tensor<2x2xf64>, tensor<2x2xf16>) -> tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

// -3 (negate of a weak constant) is weak too, so x + (-3) stays int16; the
// negation is computed as given and then converted.
// CHECK-LABEL: func.func @through_negate
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi16>)
// CHECK:         %[[N:.+]] = stablehlo.negate %{{.+}} : tensor<4xi64>
// CHECK-NEXT:    %[[CN:.+]] = stablehlo.convert %[[N]] : (tensor<4xi64>) -> tensor<4xi16>
// CHECK-NEXT:    stablehlo.add %[[X]], %[[CN]] : tensor<4xi16>
func.func @through_negate(%x: tensor<4xi16>) -> tensor<4xi16> {
  %c = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>
  %n = stablehlo.negate %c : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %n) : (tensor<4xi16>, tensor<4xi64>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// Two Python scalars: 2 + 0.5 is a weak float (f*, held as f64), which then
// defers to the float32 array it is multiplied with.
// CHECK-LABEL: func.func @weak_plus_weak
// CHECK-SAME:    (%[[S:.+]]: tensor<4xf32>)
// CHECK-DAG:     %[[I:.+]] = stablehlo.constant dense<2.000000e+00> : tensor<4xf64>
// CHECK-DAG:     %[[F:.+]] = stablehlo.constant dense<5.000000e-01> : tensor<4xf64>
// CHECK:         %[[SUM:.+]] = stablehlo.add %[[I]], %[[F]] : tensor<4xf64>
// CHECK-NEXT:    %[[C:.+]] = stablehlo.convert %[[SUM]] : (tensor<4xf64>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.multiply %[[C]], %[[S]] : tensor<4xf32>
func.func @weak_plus_weak(%s: tensor<4xf32>) -> tensor<4xf32> {
  %i = stablehlo.constant {latticecast.weak} dense<2> : tensor<4xi64>
  %f = stablehlo.constant {latticecast.weak} dense<0.5> : tensor<4xf64>
  %0 = "stablehlo.add"(%i, %f) : (tensor<4xi64>, tensor<4xf64>) -> tensor<4xf64>
  %1 = "stablehlo.multiply"(%0, %s) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// x + 1 with x: int8 is a strong int8: adding a uint8 array next gives int16,
// not uint8 (weakness does not survive meeting a strong type).
// CHECK-LABEL: func.func @strong_after_join
// CHECK-SAME:    (%[[X:.+]]: tensor<4xi8>, %[[U:.+]]: tensor<4xui8>)
// CHECK-DAG:     %[[K:.+]] = stablehlo.constant dense<1> : tensor<4xi8>
// CHECK-DAG:     %[[CU:.+]] = stablehlo.convert %[[U]] : (tensor<4xui8>) -> tensor<4xi16>
// CHECK:         %[[S:.+]] = stablehlo.add %[[X]], %[[K]] : tensor<4xi8>
// CHECK-NEXT:    %[[CS:.+]] = stablehlo.convert %[[S]] : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-NEXT:    stablehlo.add %[[CS]], %[[CU]] : tensor<4xi16>
func.func @strong_after_join(%x: tensor<4xi8>, %u: tensor<4xui8>) -> tensor<4xi16> {
  %k = stablehlo.constant {latticecast.weak} dense<1> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  %1 = "stablehlo.add"(%0, %u) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %1 : tensor<4xi16>
}
