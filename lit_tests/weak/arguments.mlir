// Weakly typed function arguments (a weakly typed array passed to a jitted
// function) are marked in the function's arg_attrs. They promote as weak values;
// not being constants they are converted. The marker is removed, other argument
// attributes stay (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// A weak int64 argument meets an int8 array: the join is i8 (a strong int64 would give i64).
// CHECK-LABEL: func.func @weak_int_arg
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<4xi64>, %[[Y:[^:]+]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT:    %[[CX:.+]] = stablehlo.convert %[[X]] : (tensor<4xi64>) -> tensor<4xi8>
// CHECK-NEXT:    stablehlo.add %[[CX]], %[[Y]] : tensor<4xi8>
func.func @weak_int_arg(%x: tensor<4xi64> {latticecast.weak}, %y: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xi64>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// The same program without the marker: int64 and int8 are strong, the join is i64.
// CHECK-LABEL: func.func @strong_int_arg
// CHECK:         %[[CY:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi64>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[CY]] : tensor<4xi64>
func.func @strong_int_arg(%x: tensor<4xi64>, %y: tensor<4xi8>) -> tensor<4xi64> {
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xi64>, tensor<4xi8>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// Only latticecast.weak leaves the argument attributes.
// CHECK-LABEL: func.func @other_attributes_stay
// CHECK-SAME:    tensor<4xi64> {mhlo.layout_mode = "default"}
// CHECK-SAME:    tensor<4xf32> {mhlo.sharding = "{replicated}"}
// CHECK-SAME:    %{{[^:]+}}: tensor<4xf64>)
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xf64>) -> tensor<4xf32>
// CHECK-NOT:     latticecast.weak
func.func @other_attributes_stay(%x: tensor<4xi64> {latticecast.weak, mhlo.layout_mode = "default"}, %y: tensor<4xf32> {mhlo.sharding = "{replicated}"}, %z: tensor<4xf64> {latticecast.weak}) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%z, %y) : (tensor<4xf64>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
