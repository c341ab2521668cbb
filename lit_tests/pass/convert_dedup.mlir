// One stablehlo.convert per (value, target type), placed right after the value's
// definition and reused by every op that needs it; a second target type gets a
// second convert (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// %a (i8) is needed as f32 by three ops and as i16 by one: two converts in all.
// CHECK-LABEL: func.func @shared
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi8>, %[[F:.+]]: tensor<4xf32>, %[[S:.+]]: tensor<4xi16>)
// CHECK-DAG:     %[[AF:.+]] = stablehlo.convert %[[A]] : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-DAG:     %[[AS:.+]] = stablehlo.convert %[[A]] : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-NOT:     stablehlo.convert
// CHECK:         stablehlo.add %[[AF]], %[[F]] : tensor<4xf32>
// CHECK-NEXT:    stablehlo.multiply %[[AF]], %[[F]] : tensor<4xf32>
// CHECK-NEXT:    stablehlo.compare GT, %[[AF]], %[[F]]
// CHECK-NEXT:    stablehlo.subtract %[[AS]], %[[S]] : tensor<4xi16>
// CHECK-NEXT:    return
func.func @shared(%a: tensor<4xi8>, %f: tensor<4xf32>, %s: tensor<4xi16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi16>) {
  %0 = "stablehlo.add"(%a, %f) : (tensor<4xi8>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%a, %f) : (tensor<4xi8>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.compare"(%a, %f) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<4xi8>, tensor<4xf32>) -> tensor<4xi1>
  %3 = "stablehlo.subtract"(%a, %s) : (tensor<4xi8>, tensor<4xi16>) -> tensor<4xi16>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi16>
}

// -----

// A value defined by an op is converted right after that op, before its first
// user, and the convert is shared by the later users too.
// CHECK-LABEL: func.func @after_definition
// CHECK:         %[[E:.+]] = stablehlo.exponential %{{.+}} : tensor<4xf16>
// CHECK-NEXT:    %[[CE:.+]] = stablehlo.convert %[[E]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    %[[N:.+]] = stablehlo.negate
// CHECK-NEXT:    stablehlo.add %[[CE]], %{{.+}} : tensor<4xf32>
// CHECK-NEXT:    stablehlo.maximum %[[CE]], %[[N]] : tensor<4xf32>
// CHECK-NOT:     stablehlo.convert
func.func @after_definition(%h: tensor<4xf16>, %f: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = stablehlo.exponential %h : tensor<4xf16>
  %n = stablehlo.negate %f : tensor<4xf32>
  %0 = "stablehlo.add"(%e, %f) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.maximum"(%e, %n) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Deduplication is per function: each function converts its own argument.
// CHECK-LABEL: func.func @first
// CHECK-COUNT-1: stablehlo.convert
// CHECK-LABEL: func.func @second
// CHECK-COUNT-1: stablehlo.convert
// CHECK-NOT:     stablehlo.convert
func.func @first(%a: tensor<4xi32>, %f: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %f) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.add"(%a, %0) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @second(%a: tensor<4xi32>, %f: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.multiply"(%a, %f) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
