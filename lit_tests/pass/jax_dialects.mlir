// What JAX writes around the ops: Shardy meshes and shardings, GSPMD shardings,
// mhlo attributes, sharding rules on custom calls, dynamic dimensions. The pass
// keeps all of it, gives each convert it inserts the sharding of the value it
// converts, and converts dynamically shaped values keeping their dimensions.
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: module @jit_step attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{}"}, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}
// CHECK:         sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK:         func.func public @main(%[[A:.+]]: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %[[B:.+]]: tensor<8x8xf32>)
// CHECK-NEXT:      %[[AF:.+]] = stablehlo.convert %[[A]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x8xi32>) -> tensor<8x8xf32>
// CHECK-NEXT:      %[[M:.+]] = stablehlo.multiply %[[AF]], %[[B]] : tensor<8x8xf32>
// CHECK-NEXT:      %[[C:.+]] = sdy.sharding_constraint %[[A]] <@mesh, [{"y"}, {}]> : tensor<8x8xi32>
// CHECK-NEXT:      %[[CF:.+]] = stablehlo.convert %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<8x8xi32>) -> tensor<8x8xf32>
// CHECK-NEXT:      %[[S:.+]] = stablehlo.add %[[CF]], %[[M]] : tensor<8x8xf32>
// CHECK-NEXT:      %[[L:.+]]:2 = stablehlo.custom_call @lapack_spotrf_ffi(%[[S]]) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=8, j=8, k=8, l=8}, custom>}
// CHECK:           return %[[L]]#0 : tensor<8x8xf32>
module @jit_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, mhlo.frontend_attributes = {xla.sdy.meshes = "{}"}} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%a: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<8x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
    %0 = "stablehlo.multiply"(%a, %b) : (tensor<8x8xi32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = sdy.sharding_constraint %a <@mesh, [{"y"}, {}]> : tensor<8x8xi32>
    %2 = "stablehlo.add"(%1, %0) : (tensor<8x8xi32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %3:2 = stablehlo.custom_call @lapack_spotrf_ffi(%2) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=8, j=8, k=8, l=8}, custom>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<i32>)
    return %3#0 : tensor<8x8xf32>
  }
}

// -----

// GSPMD: the argument's mhlo.sharding goes onto its convert.
// CHECK-LABEL: func.func public @gspmd
// CHECK-NEXT:    stablehlo.convert %{{.+}} {mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x8xbf16>) -> tensor<8x8xf32>
func.func public @gspmd(%a: tensor<8x8xbf16> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<8x8xbf16>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Dynamic dimensions stay dynamic in the converts; a mixed dot_general is legal StableHLO and
// stays as it is.
// CHECK-LABEL: func.func public @dynamic
// CHECK-NEXT:    %[[KF:.+]] = stablehlo.convert %{{.+}} : (tensor<?x4xi32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %[[P:.+]] = stablehlo.multiply %{{.+}}, %[[KF]] : tensor<?x4xf32>
// CHECK-NEXT:    stablehlo.dot_general %[[P]], %{{.+}}, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x2xbf16>) -> tensor<?x2xf32>
func.func public @dynamic(%x: tensor<?x4xf32>, %k: tensor<?x4xi32>, %w: tensor<4x2xbf16>) -> tensor<?x2xf32> {
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<?x4xf32>, tensor<?x4xi32>) -> tensor<?x4xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x2xbf16>) -> tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}
