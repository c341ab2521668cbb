// implicit-cast is a pass in MLIR's PassManager, so it composes with upstream
// passes in one pipeline, in order, written either as a textual pipeline or as
// pass flags.
// RUN: latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast{policy=jax},canonicalize,cse)' | FileCheck %s
// RUN: latticecast-opt %s --implicit-cast --policy jax --canonicalize --cse | FileCheck %s
// RUN: latticecast-opt %s --implicit-cast='policy=jax' --canonicalize --cse | FileCheck %s
// RUN: latticecast-opt %s -implicit-cast -canonicalize -cse | FileCheck %s
// Without canonicalize and cse the converts and the duplicate add stay.
// RUN: latticecast-opt %s --implicit-cast | FileCheck %s --check-prefix=RAW

// After implicit-cast the two identical adds share one convert; cse makes them
// one add; canonicalize erases the mixed-dtype multiply whose result is unused,
// together with the convert made for it.
// CHECK-LABEL: func.func @share_and_clean
// CHECK-SAME:    (%[[X:.+]]: tensor<4xf32>, %[[K:.+]]: tensor<4xi32>, %[[H:.+]]: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[KF:.+]] = stablehlo.convert %[[K]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[S:.+]] = stablehlo.add %[[X]], %[[KF]] : tensor<4xf32>
// CHECK-NEXT:    return %[[S]], %[[S]] : tensor<4xf32>, tensor<4xf32>
// RAW-LABEL: func.func @share_and_clean
// RAW-COUNT-2: stablehlo.convert
// RAW-NOT:     stablehlo.convert
// RAW-COUNT-2: stablehlo.add
// RAW:         stablehlo.multiply
func.func @share_and_clean(%x: tensor<4xf32>, %k: tensor<4xi32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  %1 = "stablehlo.add"(%x, %k) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  %dead = "stablehlo.multiply"(%h, %x) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
