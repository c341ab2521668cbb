// Policy torch (torch.result_type): category-based promotion; uint16/32/64
// promote only with themselves and floating types; a Python float with an
// integer tensor gives the default dtype, float32.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy torch | FileCheck %s

// A float tensor wins over any integer tensor: int64 + float16 is float16.
// CHECK-LABEL: func.func @i64_f16
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xi64>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf16>
func.func @i64_f16(%a: tensor<4xi64>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// uint64 with a float: allowed.
// CHECK-LABEL: func.func @u64_f32
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xui64>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.multiply %{{.+}}, %{{.+}} : tensor<4xf32>
func.func @u64_f32(%a: tensor<4xui64>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xui64>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// torch.promote_types(bfloat16, float16) is float32.
// CHECK-LABEL: func.func @bf16_f16
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         stablehlo.add %{{.+}}, %{{.+}} : tensor<4xf32>
func.func @bf16_f16(%a: tensor<4xbf16>, %b: tensor<4xf16>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// torch.arange(4, dtype=torch.int32) * 2.5 is float32 (the default dtype), not float64.
// CHECK-LABEL: func.func @weak_float_i32
// CHECK-DAG:     stablehlo.convert %{{.+}} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-DAG:     %[[K:.+]] = stablehlo.constant dense<2.500000e+00> : tensor<4xf32>
// CHECK:         stablehlo.multiply %{{.+}}, %[[K]] : tensor<4xf32>
func.func @weak_float_i32(%x: tensor<4xi32>) -> tensor<4xf32> {
  %k = stablehlo.constant {latticecast.weak} dense<2.5> : tensor<4xf64>
  %0 = "stablehlo.multiply"(%x, %k) : (tensor<4xi32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @i8_u64(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf64> {
  // expected-error@+1 {{no implicit promotion of i8 and u64 under policy 'torch': PyTorch promotes uint16, uint32 and uint64 only with themselves and with floating types}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @i32_u32(%a: tensor<4xi32>, %b: tensor<4xui32>) -> tensor<4xi64> {
  // expected-error@+1 {{no implicit promotion of i32 and u32 under policy 'torch'}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xui32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// A 0-d tensor ranks below a dimensioned one (PyTorch's dimension categories): int8 n-d + int64
// 0-d stays int8 (the 0-d value, broadcast implicitly, is converted down), bf16 n-d + f64 0-d stays
// bf16, but a 0-d float of a higher category than an n-d int8 takes part: f64.
// CHECK-LABEL: func.func @zero_dim
// CHECK:         %[[XC:.+]] = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf64>
// CHECK:         %[[Z:.+]] = stablehlo.broadcast_in_dim %arg1
// CHECK:         %[[ZC:.+]] = stablehlo.convert %[[Z]] : (tensor<4xi64>) -> tensor<4xi8>
// CHECK:         stablehlo.add %arg0, %[[ZC]] : tensor<4xi8>
// CHECK:         %[[F:.+]] = stablehlo.broadcast_in_dim %arg3
// CHECK:         %[[FC:.+]] = stablehlo.convert %[[F]] : (tensor<4xf64>) -> tensor<4xbf16>
// CHECK:         stablehlo.add %arg2, %[[FC]] : tensor<4xbf16>
// CHECK:         stablehlo.multiply %[[XC]], %[[F]] : tensor<4xf64>
func.func @zero_dim(%x: tensor<4xi8>, %z: tensor<i64>, %b: tensor<4xbf16>, %f: tensor<f64>) -> (tensor<4xi8>, tensor<4xbf16>, tensor<4xf64>) {
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<i64>) -> tensor<4xi64>
  %0 = "stablehlo.add"(%x, %zb) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f64>) -> tensor<4xf64>
  %1 = "stablehlo.add"(%b, %fb) : (tensor<4xbf16>, tensor<4xf64>) -> tensor<4xbf16>
  %2 = "stablehlo.multiply"(%x, %fb) : (tensor<4xi8>, tensor<4xf64>) -> tensor<4xf64>
  return %0, %1, %2 : tensor<4xi8>, tensor<4xbf16>, tensor<4xf64>
}

// -----

// An explicit broadcast of a 0-d tensor (torch's expand, the builder's broadcast_to) is a
// dimensioned tensor: h_f16 + f.expand(4) with f f32 is f32, as the declared result says.
// CHECK-LABEL: func.func @explicit_broadcast_add
// CHECK:         %[[H:.+]] = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         stablehlo.add %[[H]], %{{.+}} : tensor<4xf32>
func.func @explicit_broadcast_add(%h: tensor<4xf16>, %f: tensor<f32>) -> tensor<4xf32> {
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = "stablehlo.add"(%h, %fb) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A compare declares no result dtype, so its type cannot say how a broadcast of a 0-d tensor was
// made. One the builder marks as made by the operator (latticecast.implicit_broadcast) is the 0-d
// tensor it was: h_f16 == f compares in f16. One marked as asked for by the program
// (latticecast.explicit_broadcast: f.expand(4), the builder's broadcast_to) is dimensioned:
// h_f16 == f.expand(4) compares in f32, as PyTorch does. The markers are removed.
// CHECK-LABEL: func.func @compare_marked_broadcasts
// CHECK:         %[[H:.+]] = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         %[[I:.+]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[IC:.+]] = stablehlo.convert %[[I]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %[[IC]], FLOAT : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
// CHECK-NEXT:    %[[E:.+]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.compare EQ, %[[H]], %[[E]], FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NOT:     latticecast.implicit_broadcast
// CHECK-NOT:     latticecast.explicit_broadcast
func.func @compare_marked_broadcasts(%h: tensor<4xf16>, %f: tensor<f32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %i = "stablehlo.broadcast_in_dim"(%f) {broadcast_dimensions = array<i64>, latticecast.implicit_broadcast} : (tensor<f32>) -> tensor<4xf32>
  %0 = "stablehlo.compare"(%h, %i) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xi1>
  %e = "stablehlo.broadcast_in_dim"(%f) {broadcast_dimensions = array<i64>, latticecast.explicit_broadcast} : (tensor<f32>) -> tensor<4xf32>
  %1 = "stablehlo.compare"(%h, %e) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// An unmarked broadcast of a 0-d tensor is what torch-mlir writes for a 0-d tensor that a compare
// broadcasts (h_f16 == f), and also for f.expand(4): the IR cannot tell them apart. The pass reads
// it as the 0-d tensor (the comparison is made in f16, as PyTorch's h == f does) and says so in a
// remark that names the other reading and the fix.
// CHECK-LABEL: func.func @compare_unmarked_broadcast
// CHECK:         %[[B:.+]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[BC:.+]] = stablehlo.convert %[[B]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:    stablehlo.compare EQ, %arg0, %[[BC]], FLOAT : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
func.func @compare_unmarked_broadcast(%h: tensor<4xf16>, %f: tensor<f32>) -> tensor<4xi1> {
  %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // expected-remark@+1 {{'stablehlo.compare' op operand #1 is a broadcast of a 0-d tensor that no marker explains: torch-mlir writes one both for a 0-d tensor or Python scalar the op broadcasts (x == z) and for an explicit z.expand(...). Read as the 0-d tensor, f16 and f32 compare in f16 under policy 'torch'; read as a dimensioned tensor (an expand), in f32. If it is an expand, convert the operands to f32 first (stablehlo.convert); mark the broadcast latticecast.explicit_broadcast or latticecast.implicit_broadcast to say which it is}}
  %0 = "stablehlo.compare"(%h, %b) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Where both readings promote alike, there is nothing to say: int16 against a 0-d float32 compares
// in float32 either way (a 0-d tensor of a higher category takes part).
// CHECK-LABEL: func.func @compare_unmarked_broadcast_same_either_way
// CHECK:         stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>
// CHECK:         stablehlo.compare LT, {{.+}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @compare_unmarked_broadcast_same_either_way(%x: tensor<4xi16>, %f: tensor<f32>) -> tensor<4xi1> {
  %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = "stablehlo.compare"(%x, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A declared result type that neither reading explains is refused, naming both readings.
func.func @neither_reading(%h: tensor<4xf16>, %f: tensor<f32>) -> tensor<4xbf16> {
  %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // expected-error@+1 {{declares result type tensor<4xbf16>, which contradicts every reading of f16 and f32 under policy 'torch': operand #1 is a broadcast of a 0-d tensor; read as the 0-d tensor, to f16 (declare tensor<4xf16>); read as a dimensioned tensor (an expand), to f32 (declare tensor<4xf32>)}}
  %0 = "stablehlo.add"(%h, %fb) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// Two broadcasts of 0-d tensors: one of them must be dimensioned (the result has their shape), and
// each choice promotes otherwise, so the pass takes the first operand as the 0-d one and says so.
// CHECK-LABEL: func.func @two_unmarked_broadcasts
// CHECK:         stablehlo.compare EQ, {{.+}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @two_unmarked_broadcasts(%a: tensor<f16>, %b: tensor<f32>) -> tensor<4xi1> {
  %x = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f16>) -> tensor<4xf16>
  %y = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // expected-remark@+1 {{operands #0, #1 are broadcasts of 0-d tensors that no marker explains: torch-mlir writes one both for a 0-d tensor or Python scalar the op broadcasts (x == z) and for an explicit z.expand(...). Read with #0 as 0-d, f16 and f32 compare in f32 under policy 'torch'; read with #1 as 0-d, in f16. If one of them is an expand, convert the operands to f16 first (stablehlo.convert); mark each broadcast}}
  %0 = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// The declared type settles which of two broadcasts was dimensioned: f16 says the f32 one was 0-d.
// CHECK-LABEL: func.func @two_broadcasts_declared
// CHECK:         stablehlo.add {{.+}} : tensor<4xf16>
func.func @two_broadcasts_declared(%a: tensor<f16>, %b: tensor<f32>) -> tensor<4xf16> {
  %x = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f16>) -> tensor<4xf16>
  %y = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @two_broadcasts_neither(%a: tensor<f16>, %b: tensor<f32>) -> tensor<4xbf16> {
  %x = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f16>) -> tensor<4xf16>
  %y = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<4xf32>
  // expected-error@+1 {{declares result type tensor<4xbf16>, which contradicts every reading of f16 and f32 under policy 'torch': operands #0, #1 are broadcasts of 0-d tensors; read with #0 as 0-d, to f32 (declare tensor<4xf32>); read with #1 as 0-d, to f16 (declare tensor<4xf16>)}}
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
