// Ops nested in regions (stablehlo.while's cond and body, stablehlo.reduce's
// reducer, stablehlo.case's branches) are legalised like top-level ones (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// The bound %n (i32) is compared with the i64 counter inside cond: it is
// converted once, where it is defined (the function entry), which dominates the
// region. In the body the f16 constant is converted after its definition, and
// the weak 1 added to the i64 counter needs nothing but losing its marker.
// CHECK-LABEL: func.func @while_loop
// CHECK-SAME:    (%[[N:.+]]: tensor<i32>, %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[N64:.+]] = stablehlo.convert %[[N]] : (tensor<i32>) -> tensor<i64>
// CHECK:         stablehlo.while(%[[I:[^ ]+]] = %{{.+}}, %[[ACC:[^ ]+]] = %[[X]])
// CHECK-NEXT:    cond {
// CHECK-NEXT:      %[[LT:.+]] = stablehlo.compare LT, %[[I]], %[[N64]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:      stablehlo.return %[[LT]] : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[ONE:.+]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:      %[[NEXT:.+]] = stablehlo.add %[[I]], %[[ONE]] : tensor<i64>
// CHECK-NEXT:      %[[H:.+]] = stablehlo.constant dense<5.000000e-01> : tensor<4xf16>
// CHECK-NEXT:      %[[HF:.+]] = stablehlo.convert %[[H]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:      %[[ACC2:.+]] = stablehlo.add %[[ACC]], %[[HF]] : tensor<4xf32>
// CHECK-NEXT:      stablehlo.return %[[NEXT]], %[[ACC2]] : tensor<i64>, tensor<4xf32>
func.func @while_loop(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i64>, tensor<4xf32>
    cond {
      %lt = "stablehlo.compare"(%i, %n) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant {latticecast.weak} dense<1> : tensor<i64>
      %next = stablehlo.add %i, %one : tensor<i64>
      %h = stablehlo.constant dense<0.5> : tensor<4xf16>
      %acc2 = "stablehlo.add"(%acc, %h) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
      stablehlo.return %next, %acc2 : tensor<i64>, tensor<4xf32>
    }
  return %r#1 : tensor<4xf32>
}

// -----

// Inside a reducer: an f32 element times an i8 constant.
// CHECK-LABEL: func.func @reducer
// CHECK:         reducer(%[[A:.+]]: tensor<f32>, %[[B:.+]]: tensor<f32>)
// CHECK-NEXT:      %[[K:.+]] = stablehlo.constant dense<2> : tensor<i8>
// CHECK-NEXT:      %[[KF:.+]] = stablehlo.convert %[[K]] : (tensor<i8>) -> tensor<f32>
// CHECK-NEXT:      %[[M:.+]] = stablehlo.multiply %[[B]], %[[KF]] : tensor<f32>
// CHECK-NEXT:      %[[S:.+]] = stablehlo.add %[[A]], %[[M]] : tensor<f32>
// CHECK-NEXT:      stablehlo.return %[[S]] : tensor<f32>
func.func @reducer(%x: tensor<4xf32>) -> tensor<f32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %k = stablehlo.constant dense<2> : tensor<i8>
      %m = "stablehlo.multiply"(%b, %k) : (tensor<f32>, tensor<i8>) -> tensor<f32>
      %s = stablehlo.add %a, %m : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0 : tensor<f32>
}

// -----

// A weak literal inside a reducer meets the reducer's f32 block argument: the
// literal is rebuilt as an f32 constant inside the region.
// CHECK-LABEL: func.func @weak_in_reducer
// CHECK:         reducer(%[[A:.+]]: tensor<f32>, %[[B:.+]]: tensor<f32>)
// CHECK-NEXT:      %[[K:.+]] = stablehlo.constant dense<3.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[M:.+]] = stablehlo.multiply %[[B]], %[[K]] : tensor<f32>
func.func @weak_in_reducer(%x: tensor<4xf32>) -> tensor<f32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<i64>
      %m = "stablehlo.multiply"(%b, %k) : (tensor<f32>, tensor<i64>) -> tensor<f32>
      %s = stablehlo.add %a, %m : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0 : tensor<f32>
}

// -----

// Both branches of a case are legalised; the function arguments they use are
// converted where they are defined, before the case.
// CHECK-LABEL: func.func @case_branches
// CHECK-SAME:    (%{{.+}}: tensor<i32>, %[[A:.+]]: tensor<4xi16>, %[[U:.+]]: tensor<4xui8>, %[[F:.+]]: tensor<4xf32>)
// CHECK-DAG:     %[[AF:.+]] = stablehlo.convert %[[A]] : (tensor<4xi16>) -> tensor<4xf32>
// CHECK-DAG:     %[[UF:.+]] = stablehlo.convert %[[U]] : (tensor<4xui8>) -> tensor<4xf32>
// CHECK:         "stablehlo.case"
// CHECK-NEXT:      stablehlo.add %[[AF]], %[[F]] : tensor<4xf32>
// CHECK:         }, {
// CHECK-NEXT:      stablehlo.multiply %[[UF]], %[[F]] : tensor<4xf32>
func.func @case_branches(%i: tensor<i32>, %a: tensor<4xi16>, %u: tensor<4xui8>, %f: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%i) ({
    %1 = "stablehlo.add"(%a, %f) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }, {
    %2 = "stablehlo.multiply"(%u, %f) : (tensor<4xui8>, tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %2 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
