// MAX's dtypes that StableHLO cannot run are lowered at the end of implicit-cast
// (option lower-dtypes, on by default): index and !latticecast.address are
// stored as ui64, tf32 is computed in f32 and every tf32 value is rounded to
// TF32's 10-bit mantissa with stablehlo.reduce_precision (e8m10) where it is
// defined. Function signatures follow (policy max).
// RUN: latticecast-opt %s --split-input-file --implicit-cast --policy max | FileCheck %s
// With lower-dtypes=false the MAX types stay, as promoted; such IR is not
// StableHLO, and the verifier that runs after the pass says so.
// RUN: not latticecast-opt %s --implicit-cast --policy max --lower-dtypes=false 2>&1 | FileCheck %s --check-prefix=KEEP
// KEEP: lower_dtypes.mlir:[[# @LINE + 10]]:21: error: 'stablehlo.convert' op operand #0 must be ranked tensor of {{.+}}, but got 'tensor<4xindex>'

// index + uint8 is uint64 in MAX's table; the index operand is a ui64 after
// lowering, so its convert to ui64 disappears and only the u8 one remains.
// CHECK-LABEL: func.func @index_u8
// CHECK-SAME:    (%[[I:.+]]: tensor<4xui64>, %[[U:.+]]: tensor<4xui8>) -> tensor<4xui64>
// CHECK-NEXT:    %[[CU:.+]] = stablehlo.convert %[[U]] : (tensor<4xui8>) -> tensor<4xui64>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.add %[[I]], %[[CU]] : tensor<4xui64>
// CHECK-NEXT:    return %[[R]] : tensor<4xui64>
// CHECK-NOT:     index
func.func @index_u8(%i: tensor<4xindex>, %u: tensor<4xui8>) -> tensor<4xui64> {
  %0 = "stablehlo.add"(%i, %u) : (tensor<4xindex>, tensor<4xui8>) -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// index + index stays index in MAX, and is lowered to ui64 (signature included).
// CHECK-LABEL: func.func @index_index
// CHECK-SAME:    (%[[I:.+]]: tensor<4xui64>) -> tensor<4xui64>
// CHECK-NEXT:    %[[R:.+]] = stablehlo.multiply %[[I]], %[[I]] : tensor<4xui64>
// CHECK-NEXT:    return %[[R]] : tensor<4xui64>
func.func @index_index(%i: tensor<4xindex>) -> tensor<4xindex> {
  %0 = "stablehlo.multiply"(%i, %i) : (tensor<4xindex>, tensor<4xindex>) -> tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

// address + uint16 is uint64.
// CHECK-LABEL: func.func @address_u16
// CHECK-SAME:    (%[[P:.+]]: tensor<4xui64>, %[[U:.+]]: tensor<4xui16>) -> tensor<4xui64>
// CHECK-NEXT:    %[[CU:.+]] = stablehlo.convert %[[U]] : (tensor<4xui16>) -> tensor<4xui64>
// CHECK-NEXT:    stablehlo.add %[[P]], %[[CU]] : tensor<4xui64>
// CHECK-NOT:     latticecast.address
func.func @address_u16(%p: tensor<4x!latticecast.address>, %u: tensor<4xui16>) -> tensor<4xui64> {
  %0 = "stablehlo.add"(%p, %u) : (tensor<4x!latticecast.address>, tensor<4xui16>) -> tensor<4xui64>
  return %0 : tensor<4xui64>
}

// -----

// tf32 * tf32: computed in f32; the tf32 argument is rounded where it enters,
// and the product is rounded where it is defined.
// CHECK-LABEL: func.func @tf32_tf32
// CHECK-SAME:    (%[[T:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[RT:.+]] = stablehlo.reduce_precision %[[T]], format = e8m10 : tensor<4xf32>
// CHECK-NEXT:    %[[P:.+]] = stablehlo.multiply %[[RT]], %[[RT]] : tensor<4xf32>
// CHECK-NEXT:    %[[RP:.+]] = stablehlo.reduce_precision %[[P]], format = e8m10 : tensor<4xf32>
// CHECK-NEXT:    return %[[RP]] : tensor<4xf32>
func.func @tf32_tf32(%t: tensor<4xtf32>) -> tensor<4xtf32> {
  %0 = "stablehlo.multiply"(%t, %t) : (tensor<4xtf32>, tensor<4xtf32>) -> tensor<4xtf32>
  return %0 : tensor<4xtf32>
}

// -----

// tf32 * f64 is f64: the (rounded) tf32 value is converted to f64; the f64
// product is not rounded.
// CHECK-LABEL: func.func @tf32_f64
// CHECK-SAME:    (%[[T:.+]]: tensor<4xf32>, %[[F:.+]]: tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:    %[[RT:.+]] = stablehlo.reduce_precision %[[T]], format = e8m10 : tensor<4xf32>
// CHECK-NEXT:    %[[CT:.+]] = stablehlo.convert %[[RT]] : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NEXT:    %[[P:.+]] = stablehlo.multiply %[[CT]], %[[F]] : tensor<4xf64>
// CHECK-NEXT:    return %[[P]] : tensor<4xf64>
func.func @tf32_f64(%t: tensor<4xtf32>, %f: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "stablehlo.multiply"(%t, %f) : (tensor<4xtf32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// float32 + tensor_float32 is tensor_float32 in MAX's table (tf32 sits above
// f32): the f32 operand is converted to "tf32", i.e. rounded to TF32 (the convert,
// f32 to f32 once lowered, is dropped), before the add, and the sum is rounded again.
// CHECK-LABEL: func.func @f32_tf32
// CHECK-SAME:    (%[[G:.+]]: tensor<4xf32>, %[[T:.+]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG:     %[[RT:.+]] = stablehlo.reduce_precision %[[T]], format = e8m10 : tensor<4xf32>
// CHECK-DAG:     %[[RG:.+]] = stablehlo.reduce_precision %[[G]], format = e8m10 : tensor<4xf32>
// CHECK:         %[[S:.+]] = stablehlo.add %[[RG]], %[[RT]] : tensor<4xf32>
// CHECK-NEXT:    %[[RS:.+]] = stablehlo.reduce_precision %[[S]], format = e8m10 : tensor<4xf32>
// CHECK-NEXT:    return %[[RS]] : tensor<4xf32>
func.func @f32_tf32(%g: tensor<4xf32>, %t: tensor<4xtf32>) -> tensor<4xtf32> {
  %0 = "stablehlo.add"(%g, %t) : (tensor<4xf32>, tensor<4xtf32>) -> tensor<4xtf32>
  return %0 : tensor<4xtf32>
}
