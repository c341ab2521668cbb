// diagnose-precision reports conversions that round but keep magnitude (i32 -> f32, i64 -> f64), on its
// own level, so that each kind of loss can be an error on its own; diagnose-lossy keeps magnitude loss.
// RUN: latticecast-opt %s --implicit-cast --diagnose-precision -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: not latticecast-opt %s --implicit-cast --diagnose-precision=error --diagnose-lossy=warning -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: latticecast-opt %s --implicit-cast --diagnose-lossy=warning -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOSSY

// WARN: diagnose_precision.mlir:[[# @LINE + 10]]:8: warning: 'stablehlo.add' op implicit promotion of i32 to f32 can lose precision: i32 values above 2**24 round (f32's significand has 24 bits)
// WARN-NOT: i64 to f16
// WARN-NOT: i16
// ERR: diagnose_precision.mlir:[[# @LINE + 7]]:8: error: 'stablehlo.add' op implicit promotion of i32 to f32 can lose precision
// ERR: diagnose_precision.mlir:[[# @LINE + 7]]:8: warning: 'stablehlo.multiply' op implicit promotion of i64 to f16 can lose magnitude
// LOSSY-NOT: i32 to f32
// LOSSY: warning: 'stablehlo.multiply' op implicit promotion of i64 to f16 can lose magnitude
// LOSSY-NOT: warning
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf32>, %c: tensor<4xi64>, %d: tensor<4xf16>, %s: tensor<4xi16>)
    -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%c, %d) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  %2 = "stablehlo.add"(%s, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
}
