// A region may yield a type whose shape is only compatible with its op's (tensor<?xf32> where
// stablehlo.if or stablehlo.case has tensor<2xf32>, and the reverse): StableHLO's verifier accepts
// it, as in StableHLO's own ops_stablehlo.mlir, and no promotion is involved. The pass compares
// element types at a region boundary, so each of these legal modules prints exactly as it was
// read, under every policy.
// RUN: latticecast-opt %s --split-input-file -o %t.roundtrip.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax -o %t.jax.mlir
// RUN: diff %t.roundtrip.mlir %t.jax.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax-x32 -o %t.jax-x32.mlir
// RUN: diff %t.roundtrip.mlir %t.jax-x32.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax-strict -o %t.jax-strict.mlir
// RUN: diff %t.roundtrip.mlir %t.jax-strict.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy jax-lax -o %t.jax-lax.mlir
// RUN: diff %t.roundtrip.mlir %t.jax-lax.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy max -o %t.max.mlir
// RUN: diff %t.roundtrip.mlir %t.max.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy max-python -o %t.max-python.mlir
// RUN: diff %t.roundtrip.mlir %t.max-python.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy array-api -o %t.array-api.mlir
// RUN: diff %t.roundtrip.mlir %t.array-api.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy anvil -o %t.anvil.mlir
// RUN: diff %t.roundtrip.mlir %t.anvil.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy numpy -o %t.numpy.mlir
// RUN: diff %t.roundtrip.mlir %t.numpy.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy torch -o %t.torch.mlir
// RUN: diff %t.roundtrip.mlir %t.torch.mlir
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy tensorflow -o %t.tensorflow.mlir
// RUN: diff %t.roundtrip.mlir %t.tensorflow.mlir
// RUN: FileCheck %s --input-file=%t.torch.mlir

// The false branch yields a dynamic shape where the if has a static one.
// CHECK-LABEL: func.func @if_branch_dynamic
// CHECK-NOT:     stablehlo.convert
// CHECK:           stablehlo.return %{{.+}} : tensor<?xf32>
// CHECK-NEXT:    }) : (tensor<i1>) -> tensor<2xf32>
func.func @if_branch_dynamic(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<?xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }, {
    "stablehlo.return"(%b) : (tensor<?xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// Both branches yield a static shape where the if has a dynamic one.
// CHECK-LABEL: func.func @if_result_dynamic
// CHECK-NOT:     stablehlo.convert
// CHECK:         }) : (tensor<i1>) -> tensor<?xf32>
func.func @if_result_dynamic(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }, {
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// A case branch yields a dynamic shape where the case has a static one.
// CHECK-LABEL: func.func @case_branch_dynamic
// CHECK-NOT:     stablehlo.convert
// CHECK:           stablehlo.return %{{.+}} : tensor<?xf32>
// CHECK-NEXT:    }) : (tensor<i32>) -> tensor<2xf32>
func.func @case_branch_dynamic(%i: tensor<i32>, %a: tensor<2xf32>, %b: tensor<?xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }, {
    "stablehlo.return"(%b) : (tensor<?xf32>) -> ()
  }) : (tensor<i32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// Every case branch yields a static shape where the case has a dynamic one.
// CHECK-LABEL: func.func @case_result_dynamic
// CHECK-NOT:     stablehlo.convert
// CHECK:         }) : (tensor<i32>) -> tensor<?xf32>
func.func @case_result_dynamic(%i: tensor<i32>, %a: tensor<2xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }, {
    "stablehlo.return"(%a) : (tensor<2xf32>) -> ()
  }) : (tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
