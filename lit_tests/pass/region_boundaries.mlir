// Converts and weak constants inside the regions of stablehlo.while, if and case
// belong to the region's block, and what crosses a region boundary keeps its type
// (policy jax). Text whose regions yield other types than their op's does not
// parse (errors/region_boundaries.mlir); tests/test_control_flow.py gives the pass
// such IR built in Python: a weak initial value of a while, and refused yields.
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// A block argument mixed with an f32 value is converted at the entry of the body
// (where the argument is defined), not before the while; the weak 0.5 and 1
// meeting the f16 state are rebuilt as f16 constants inside the body.
// CHECK-LABEL: func.func @decode_loop
// CHECK-SAME:    (%[[X:.+]]: tensor<4xf16>, %[[S:.+]]: tensor<f32>)
// CHECK:         stablehlo.while(%[[I:[^ ]+]] = %{{.+}}, %[[H:[^ ]+]] = %[[X]])
// CHECK:         } do {
// CHECK-NEXT:      %[[IF:.+]] = stablehlo.convert %[[I]] : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT:      %[[ONE:.+]] = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %[[NEXT:.+]] = stablehlo.add %[[I]], %[[ONE]] : tensor<i32>
// CHECK-NEXT:      %[[HALF:.+]] = stablehlo.constant dense<5.000000e-01> : tensor<4xf16>
// CHECK-NEXT:      %[[M:.+]] = stablehlo.multiply %[[H]], %[[HALF]] : tensor<4xf16>
// CHECK-NEXT:      %[[SC:.+]] = stablehlo.multiply %[[IF]], %[[S]] : tensor<f32>
// CHECK-NEXT:      stablehlo.return %[[NEXT]], %[[M]] : tensor<i32>, tensor<4xf16>
// CHECK-NOT:     latticecast.weak
func.func @decode_loop(%x: tensor<4xf16>, %s: tensor<f32>) -> tensor<4xf16> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<4xf16>
    cond {
      %five = stablehlo.constant {latticecast.weak} dense<5> : tensor<i64>
      %lt = "stablehlo.compare"(%i, %five) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant {latticecast.weak} dense<1> : tensor<i64>
      %next = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i64>) -> tensor<i32>
      %half = stablehlo.constant {latticecast.weak} dense<0.5> : tensor<4xf64>
      %m = "stablehlo.multiply"(%h, %half) : (tensor<4xf16>, tensor<4xf64>) -> tensor<4xf16>
      %sc = "stablehlo.multiply"(%i, %s) : (tensor<i32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %next, %m : tensor<i32>, tensor<4xf16>
    }
  return %r#1 : tensor<4xf16>
}

// -----

// The weak 5 in the condition region is rebuilt there as an i32 constant.
// CHECK-LABEL: func.func @weak_in_condition
// CHECK:         cond {
// CHECK-NEXT:      %[[FIVE:.+]] = stablehlo.constant dense<5> : tensor<i32>
// CHECK-NEXT:      %[[LT:.+]] = stablehlo.compare LT, %{{.+}}, %[[FIVE]], SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:      stablehlo.return %[[LT]] : tensor<i1>
func.func @weak_in_condition(%n: tensor<i32>) -> tensor<i32> {
  %r = stablehlo.while(%i = %n) : tensor<i32>
    cond {
      %five = stablehlo.constant {latticecast.weak} dense<5> : tensor<i64>
      %lt = "stablehlo.compare"(%i, %five) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i32>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      stablehlo.return %i : tensor<i32>
    }
  return %r : tensor<i32>
}

// -----

// Branches of an if whose ops mix dtypes: a function argument is converted where
// it is defined (the function entry, which dominates both branches); a weak
// constant yielded at the if's type needs nothing but losing its marker.
// CHECK-LABEL: func.func @if_branches
// CHECK-SAME:    (%[[P:.+]]: tensor<i1>, %[[X:.+]]: tensor<3xf16>, %[[K:.+]]: tensor<3xi8>)
// CHECK-NEXT:    %[[KF:.+]] = stablehlo.convert %[[K]] : (tensor<3xi8>) -> tensor<3xf16>
// CHECK-NEXT:    "stablehlo.if"(%[[P]]) ({
// CHECK-NEXT:      %[[M:.+]] = stablehlo.multiply %[[X]], %[[KF]] : tensor<3xf16>
// CHECK-NEXT:      stablehlo.return %[[M]] : tensor<3xf16>
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[C:.+]] = stablehlo.constant dense<2.000000e+00> : tensor<3xf16>
// CHECK-NEXT:      stablehlo.return %[[C]] : tensor<3xf16>
// CHECK-NEXT:    }) : (tensor<i1>) -> tensor<3xf16>
// CHECK-NOT:     latticecast.weak
func.func @if_branches(%p: tensor<i1>, %x: tensor<3xf16>, %k: tensor<3xi8>) -> tensor<3xf16> {
  %0 = "stablehlo.if"(%p) ({
    %m = "stablehlo.multiply"(%x, %k) : (tensor<3xf16>, tensor<3xi8>) -> tensor<3xf16>
    stablehlo.return %m : tensor<3xf16>
  }, {
    %c = stablehlo.constant {latticecast.weak} dense<2.0> : tensor<3xf16>
    stablehlo.return %c : tensor<3xf16>
  }) : (tensor<i1>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// A weak literal inside a case branch meets a bf16 value: rebuilt in that branch.
// CHECK-LABEL: func.func @case_weak
// CHECK:         "stablehlo.case"
// CHECK-NEXT:      %[[T:.+]] = stablehlo.constant dense<3.000000e+00> : tensor<2xbf16>
// CHECK-NEXT:      stablehlo.multiply %{{.+}}, %[[T]] : tensor<2xbf16>
func.func @case_weak(%i: tensor<i32>, %x: tensor<2xbf16>) -> tensor<2xbf16> {
  %0 = "stablehlo.case"(%i) ({
    %t = stablehlo.constant {latticecast.weak} dense<3> : tensor<2xi64>
    %m = "stablehlo.multiply"(%x, %t) : (tensor<2xbf16>, tensor<2xi64>) -> tensor<2xbf16>
    stablehlo.return %m : tensor<2xbf16>
  }, {
    stablehlo.return %x : tensor<2xbf16>
  }) : (tensor<i32>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
