// Every convert that implicit-cast would not write there stays: a narrowing, a convert feeding an op
// that does not promote, one shared with such a user, a promotion the policy makes otherwise
// (torch-mlir compares uint8 == int8 in int8; PyTorch compares in int16), and `astype` where JAX's
// locations show the convert was written on a line of its own (policy jax).
// RUN: latticecast-opt %s --split-input-file --lift-implicit-casts=policy=jax --mlir-print-debuginfo | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --lift-implicit-casts=policy=torch | FileCheck %s --check-prefix=TORCH

// CHECK-LABEL: func.func @narrowing
// CHECK:         stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NOT:     latticecast.convert_at_use
func.func @narrowing(%x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf16> {
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
  %1 = stablehlo.add %0, %y : tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @shared_with_a_return
// CHECK:         %[[C:.+]] = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
// CHECK:         stablehlo.add %[[C]], %arg1 : tensor<4xf32>
func.func @shared_with_a_return(%x: tensor<4xi32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %y : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @feeds_a_reduce
// CHECK:         stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
func.func @feeds_a_reduce(%x: tensor<4xi32>) -> tensor<f32> {
  %0 = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// The convert's location is its own line (`x.astype(jnp.float32)`), not the add's: the author's.
// CHECK-LABEL: func.func @astype
// CHECK:         stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf32> loc(#loc{{[0-9]+}})
// CHECK-NOT:     latticecast.convert_at_use
func.func @astype(%x: tensor<4xbf16>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.convert %x : (tensor<4xbf16>) -> tensor<4xf32> loc("jit(f)/convert_element_type"("model.py":3:8))
  %1 = stablehlo.add %0, %y : tensor<4xf32> loc("jit(f)/add"("model.py":4:8))
  return %1 : tensor<4xf32>
}

// -----

// TORCH-LABEL: func.func @torch_mlir_compares_u8_i8_in_i8
// TORCH:         stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xi8>
// TORCH-NOT:     latticecast.convert_at_use
func.func @torch_mlir_compares_u8_i8_in_i8(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<4xi1> {
  %0 = stablehlo.convert %a : (tensor<4xui8>) -> tensor<4xi8>
  %1 = stablehlo.compare EQ, %0, %b, SIGNED : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
  return %1 : tensor<4xi1>
}
