// Under MAX, int8 + uint64 is float16: the uint64 operand's promotion is
// reported (uint64's range exceeds float16's), the int8 one's is not.
// RUN: latticecast-opt %s --verify-diagnostics --implicit-cast --policy max --diagnose-lossy | FileCheck %s

// CHECK-LABEL: func.func @u64_f16
// CHECK-DAG:     stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf16>
// CHECK-DAG:     stablehlo.convert %arg1 : (tensor<4xui64>) -> tensor<4xf16>
func.func @u64_f16(%a: tensor<4xi8>, %b: tensor<4xui64>) -> tensor<4xf16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui64>) -> tensor<4xf16>
  // expected-warning-re@-1 {{implicit promotion of ui64 to f16 can lose magnitude: ui64 values {{.*}} exceed f16's largest finite value 65504}}
  return %0 : tensor<4xf16>
}
