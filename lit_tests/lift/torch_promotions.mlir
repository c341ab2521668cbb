// lift-implicit-casts under policy torch on what torch-mlir writes: a Python scalar as an
// arith.constant of tensor<1xf64> (PyTorch wraps it as a double) converted, reshaped and broadcast;
// a 0-d tensor converted, then broadcast (the broadcast is marked implicit, so PyTorch's 0-d rule
// reads it as the 0-d tensor it is); `expand` written as a broadcast before the op's own convert
// (marked explicit). Each module goes back to exactly what torch-mlir wrote.
// RUN: latticecast-opt %s --split-input-file --lift-implicit-casts=policy=torch | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --lift-implicit-casts=policy=torch --implicit-cast --policy torch > %t
// RUN: latticecast-opt %s --split-input-file > %t.expected
// RUN: diff %t.expected %t

// CHECK-LABEL: "func.func"
// CHECK:         %[[C:.+]] = "arith.constant"() <{value = dense<2.500000e+00> : tensor<1xf64>}> {latticecast.weak} : () -> tensor<1xf64>
// CHECK-NEXT:    %[[R:.+]] = "stablehlo.reshape"(%[[C]]) : (tensor<1xf64>) -> tensor<f64>
// CHECK-NEXT:    %[[B:.+]] = "stablehlo.broadcast_in_dim"(%[[R]])
// CHECK-NEXT:    "stablehlo.add"(%arg0, %[[B]]) {latticecast.convert_at_use} : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf32>
// CHECK-NOT:     stablehlo.convert
module {
  func.func @main(%arg0: tensor<4xi32>) -> tensor<4xf32> {
    %cst = arith.constant dense<2.500000e+00> : tensor<1xf64>
    %0 = stablehlo.convert %cst : (tensor<1xf64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    %2 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.add %2, %3 : tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}

// -----

// CHECK-LABEL: "func.func"
// CHECK:         %[[B:.+]] = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> {latticecast.implicit_broadcast} : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    "stablehlo.add"(%arg0, %[[B]]) {latticecast.convert_at_use} : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf16>
module {
  func.func @main(%arg0: tensor<4xf16>, %arg1: tensor<f32>) -> tensor<4xf16> {
    %0 = stablehlo.convert %arg1 : (tensor<f32>) -> tensor<f16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f16>) -> tensor<4xf16>
    %2 = stablehlo.add %arg0, %1 : tensor<4xf16>
    return %2 : tensor<4xf16>
  }
}

// -----

// CHECK-LABEL: "func.func"
// CHECK:         %[[B:.+]] = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> {latticecast.explicit_broadcast} : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    "stablehlo.add"(%arg0, %[[B]]) {latticecast.convert_at_use} : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
module {
  func.func @main(%arg0: tensor<4xf16>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
    %2 = stablehlo.add %1, %0 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

// -----

// A dense_resource constant is an array, never a Python scalar: the promotion of the bias is lifted,
// the weights stay as written.
// CHECK-LABEL: "func.func"
// CHECK:         "stablehlo.constant"() <{value = dense_resource<bias> : tensor<2xf16>}> : () -> tensor<2xf16>
// CHECK-NOT:     latticecast.weak
// CHECK:         "stablehlo.add"(%arg0, %{{.+}}) {latticecast.convert_at_use} : (tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
module {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %cst = stablehlo.constant dense_resource<bias> : tensor<2xf16>
    %0 = stablehlo.convert %cst : (tensor<2xf16>) -> tensor<2xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      bias: "0x02000000003C0040"
    }
  }
#-}
