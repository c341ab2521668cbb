// diagnose-lossy reports implicit promotions that can lose magnitude (a value of
// the source type that the target type cannot hold), at the op that needs them:
// int32 -> float16 can turn 2^31-1 into inf. Promotions that only round (uint32 ->
// float32) or that always fit (int8 -> float16) are not reported. Warnings and
// remarks are printed even though the pipeline succeeds (exit code 0).
// RUN: latticecast-opt %s --implicit-cast --diagnose-lossy=warning -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.mlir
// RUN: latticecast-opt %s --implicit-cast --diagnose-lossy 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast{diagnose-lossy=warning})' 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: latticecast-opt %s --implicit-cast --diagnose-lossy=remark 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not latticecast-opt %s --implicit-cast --diagnose-lossy=error 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: latticecast-opt %s --implicit-cast 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: latticecast-opt %s --implicit-cast --diagnose-lossy=off 2>&1 | FileCheck %s --check-prefix=OFF

// WARN: diagnose_lossy.mlir:[[# @LINE + 11]]:8: warning: 'stablehlo.add' op implicit promotion of i32 to f16 can lose magnitude: i32 values up to 2.15e+09 exceed f16's largest finite value 65504 (they become inf)
// WARN: diagnose_lossy.mlir:[[# @LINE + 15]]:8: warning: 'stablehlo.multiply' op implicit promotion of i64 to f16 can lose magnitude
// WARN-NOT: warning
// OUT: func.func @lossy
// OUT-DAG: stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf16>
// OUT-DAG: stablehlo.convert %arg5 : (tensor<4xi64>) -> tensor<4xf16>
// REMARK: diagnose_lossy.mlir:[[# @LINE + 5]]:8: remark: 'stablehlo.add' op implicit promotion of i32 to f16 can lose magnitude
// REMARK: diagnose_lossy.mlir:[[# @LINE + 9]]:8: remark: 'stablehlo.multiply' op implicit promotion of i64 to f16 can lose magnitude
// ERROR: diagnose_lossy.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.add' op implicit promotion of i32 to f16 can lose magnitude
// OFF-NOT: {{warning|remark|error}}
func.func @lossy(%a: tensor<4xi32>, %h: tensor<4xf16>, %b: tensor<4xi8>, %u: tensor<4xui32>, %f: tensor<4xf32>, %l: tensor<4xi64>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf32>, tensor<4xf16>) {
  %0 = "stablehlo.add"(%a, %h) : (tensor<4xi32>, tensor<4xf16>) -> tensor<4xf16>
  // int8 fits float16: no report.
  %1 = "stablehlo.add"(%b, %h) : (tensor<4xi8>, tensor<4xf16>) -> tensor<4xf16>
  // uint32 fits float32's range (it rounds): no report.
  %2 = "stablehlo.add"(%u, %f) : (tensor<4xui32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.multiply"(%l, %h) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  return %0, %1, %2, %3 : tensor<4xf16>, tensor<4xf16>, tensor<4xf32>, tensor<4xf16>
}
