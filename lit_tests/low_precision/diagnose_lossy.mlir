// diagnose-lossy on the low-precision types: int16 -> float8_e4m3fn can turn 32767
// into NaN (float8_e4m3fn has no infinities, and its largest value is 448);
// int32 -> float4_e2m1fn saturates at 6; int8 -> float8_e8m0fnu loses every value at
// or below 0 (it has no zero). int8 fits float8_e5m2 (largest 57344): no report.
// RUN: latticecast-opt %s --implicit-cast --diagnose-lossy=warning -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.mlir

// CHECK: diagnose_lossy.mlir:[[# @LINE + 10]]:8: warning: 'stablehlo.add' op implicit promotion of i16 to f8E4M3FN can lose magnitude: i16 values up to 3.28e+04 exceed f8E4M3FN's largest finite value 448 (they become NaN: it has no infinities)
// CHECK: diagnose_lossy.mlir:[[# @LINE + 10]]:8: warning: 'stablehlo.add' op implicit promotion of i32 to f4E2M1FN can lose magnitude: i32 values up to 2.15e+09 exceed f4E2M1FN's largest finite value 6 (they saturate to +-6)
// CHECK: diagnose_lossy.mlir:[[# @LINE + 10]]:8: warning: 'stablehlo.add' op implicit promotion of i8 to f8E8M0FNU can lose magnitude: f8E8M0FNU has no zero and no negative values, and i8 values below 5.88e-39 become NaN
// CHECK-NOT: warning
// OUT-DAG: stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf8E4M3FN>
// OUT-DAG: stablehlo.convert %arg2 : (tensor<4xi32>) -> tensor<4xf4E2M1FN>
// OUT-DAG: stablehlo.convert %arg4 : (tensor<4xi8>) -> tensor<4xf8E8M0FNU>
// OUT-DAG: stablehlo.convert %arg4 : (tensor<4xi8>) -> tensor<4xf8E5M2>
func.func @lossy(%a: tensor<4xi16>, %f8: tensor<4xf8E4M3FN>, %b: tensor<4xi32>, %f4: tensor<4xf4E2M1FN>,
                 %c: tensor<4xi8>, %e: tensor<4xf8E8M0FNU>, %g: tensor<4xf8E5M2>) -> (tensor<4xf8E4M3FN>, tensor<4xf4E2M1FN>, tensor<4xf8E8M0FNU>, tensor<4xf8E5M2>) {
  %0 = "stablehlo.add"(%a, %f8) : (tensor<4xi16>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  %1 = "stablehlo.add"(%b, %f4) : (tensor<4xi32>, tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN>
  %2 = "stablehlo.add"(%c, %e) : (tensor<4xi8>, tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU>
  %3 = "stablehlo.add"(%c, %g) : (tensor<4xi8>, tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %0, %1, %2, %3 : tensor<4xf8E4M3FN>, tensor<4xf4E2M1FN>, tensor<4xf8E8M0FNU>, tensor<4xf8E5M2>
}
