// lower-dtypes (run by implicit-cast under policy max) lowers index, address and
// tf32 only where StableHLO cannot hold them: values of ops the policy promoted,
// converts the pass inserted, mixed-dtype ops. Legal IR that uses index itself
// (shape computations, the dimension operands of dynamic ops) is never changed
// (found in StableHLO's own shape_legalize_to_stablehlo.mlir and infer_chlo.mlir).
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy max | FileCheck %s
// RUN: not latticecast-opt %s --split-input-file 2>/dev/null | FileCheck %s --check-prefix=SAME

// CHECK-LABEL: func.func @num_elements
// CHECK-SAME:    (%arg0: tensor<2xindex>) -> index
// CHECK-NEXT:    shape.num_elements %arg0 : tensor<2xindex> -> index
// SAME-LABEL: func.func @num_elements
// SAME-SAME:    (%arg0: tensor<2xindex>) -> index
func.func @num_elements(%shape: tensor<2xindex>) -> index {
  %0 = shape.num_elements %shape : tensor<2xindex> -> index
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @dynamic_reshape
// CHECK-SAME:    (%arg0: tensor<?xf32>, %arg1: tensor<2xindex>) -> tensor<?x?xf32>
// CHECK-NEXT:    stablehlo.dynamic_reshape %arg0, %arg1 : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @dynamic_reshape(%x: tensor<?xf32>, %shape: tensor<2xindex>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// An index tensor that only passes through a function stays what it is.
// CHECK-LABEL: func.func @identity
// CHECK-SAME:    (%arg0: tensor<3xindex>) -> tensor<3xindex>
func.func @identity(%i: tensor<3xindex>) -> tensor<3xindex> {
  return %i : tensor<3xindex>
}

// -----

// In one module, the index the policy produced is lowered and the shape
// computation beside it is not.
// CHECK-LABEL: func.func @both
// CHECK-SAME:    (%arg0: tensor<4xui64>, %arg1: tensor<4xui8>, %arg2: tensor<?xf32>, %arg3: tensor<2xindex>) -> (tensor<4xui64>, tensor<?x?xf32>)
// CHECK:         stablehlo.add %arg0, %{{.+}} : tensor<4xui64>
// CHECK:         stablehlo.dynamic_reshape %arg2, %arg3 : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @both(%i: tensor<4xindex>, %u: tensor<4xui8>, %x: tensor<?xf32>, %shape: tensor<2xindex>) -> (tensor<4xui64>, tensor<?x?xf32>) {
  %0 = "stablehlo.add"(%i, %u) : (tensor<4xindex>, tensor<4xui8>) -> tensor<4xui64>
  %1 = stablehlo.dynamic_reshape %x, %shape : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %0, %1 : tensor<4xui64>, tensor<?x?xf32>
}
