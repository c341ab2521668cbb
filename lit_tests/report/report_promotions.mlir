// --report-promotions: one remark per inserted convert or retyped weak literal, at the op that needed it,
// with the operand, from -> to and the kind; then a summary by kind. The IR is what it is without the flag.
// RUN: latticecast-opt %s --implicit-cast --report-promotions -o %t.mlir 2>&1 | FileCheck %s
// RUN: latticecast-opt %s --implicit-cast=report-promotions=true -o /dev/null 2>&1 | FileCheck %s
// RUN: latticecast-opt %s --implicit-cast -o %t.plain.mlir
// RUN: diff %t.mlir %t.plain.mlir

// CHECK: report_promotions.mlir:[[# @LINE + 10]]:8: remark: 'stablehlo.add' op promotes operand #0 from i16 to f32: widening: every value converts exactly
// CHECK: report_promotions.mlir:[[# @LINE + 10]]:8: remark: 'stablehlo.add' op promotes operand #0 from i32 to f32: precision loss: i32 values above 2**24 round (f32's significand has 24 bits)
// CHECK: report_promotions.mlir:[[# @LINE + 10]]:8: remark: 'stablehlo.multiply' op promotes operand #0 from i64 to f16: magnitude loss: i64 values up to 9.22e+18 exceed f16's largest finite value 65504 (they become inf)
// CHECK: report_promotions.mlir:[[# @LINE + 11]]:8: remark: 'stablehlo.multiply' op weak literal operand #1 takes type f16 (written as f64; a weak value takes the other side's type)
// CHECK: report_promotions.mlir:[[# @LINE + 12]]:8: remark: 'stablehlo.subtract' op promotes operand #0 from i64 to f64: precision loss: i64 values above 2**53 round (f64's significand has 53 bits)
// CHECK-NOT: remark: 'stablehlo.subtract'
// CHECK: report_promotions.mlir:[[# @LINE + 2]]:1: remark: implicit-cast: 5 promotions: 1 widening, 2 precision loss, 1 magnitude loss, 1 weak literal
// CHECK-NOT: remark
func.func @main(%s: tensor<4xi16>, %a: tensor<4xi32>, %b: tensor<4xf32>, %c: tensor<4xi64>, %d: tensor<4xf16>,
                %e: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf16>, tensor<4xf64>, tensor<4xf64>) {
  %w = "stablehlo.add"(%s, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.multiply"(%c, %d) : (tensor<4xi64>, tensor<4xf16>) -> tensor<4xf16>
  %k = stablehlo.constant {latticecast.weak} dense<2.0> : tensor<4xf64>
  %2 = "stablehlo.multiply"(%d, %k) : (tensor<4xf16>, tensor<4xf64>) -> tensor<4xf16>
  // one convert per (value, type): the second use of %c as f64 reuses the first, and is not reported again
  %3 = "stablehlo.subtract"(%c, %e) : (tensor<4xi64>, tensor<4xf64>) -> tensor<4xf64>
  %4 = "stablehlo.subtract"(%c, %e) : (tensor<4xi64>, tensor<4xf64>) -> tensor<4xf64>
  return %w, %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf16>, tensor<4xf64>, tensor<4xf64>
}
