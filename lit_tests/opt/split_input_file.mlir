// --split-input-file: each chunk between `// -----` lines is parsed, run and
// printed on its own; the outputs are joined by `// -----`; line numbers in
// diagnostics are those of the whole file; a failing chunk does not stop the
// others, but makes the exit code 1.
// RUN: not latticecast-opt %s --split-input-file --implicit-cast --policy array-api -o - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t.err
// Without splitting, the file is one module, and one error fails all of it.
// RUN: not latticecast-opt %s --implicit-cast --policy array-api 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK-LABEL: func.func @first
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xi8>) -> tensor<4xi16>
// CHECK:       // -----
// CHECK-NOT:   func.func @second
// CHECK:       // -----
// CHECK-LABEL: func.func @third
// CHECK:         stablehlo.convert %{{.+}} : (tensor<4xf32>) -> tensor<4xf64>
// WHOLE: split_input_file.mlir:[[# @LINE + 13]]:8: error: 'stablehlo.add' op no implicit promotion of i32 and f32 under policy 'array-api'
// WHOLE-NOT: func.func
func.func @first(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// The error is reported at its line in this file, not in the chunk.
// ERR: split_input_file.mlir:[[# @LINE + 3]]:8: error: 'stablehlo.add' op no implicit promotion of i32 and f32 under policy 'array-api'
// ERR-NOT: error
func.func @second(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @third(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
