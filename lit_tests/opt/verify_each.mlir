// --verify-each (on by default) runs the verifier after each pass; --verify-each=0
// (or =false) turns it off, as in mlir-opt. A value that is not a boolean is a usage
// error (exit 2). tests/test_opt.py checks that a pass's invalid IR gets through
// with it off and is caught with it on.
// RUN: latticecast-opt %s --implicit-cast --verify-each | FileCheck %s
// RUN: latticecast-opt %s --implicit-cast --verify-each=0 | FileCheck %s
// RUN: latticecast-opt %s --implicit-cast -verify-each=false | FileCheck %s
// RUN: not latticecast-opt %s --implicit-cast --verify-each=sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: stablehlo.convert %arg0
// BAD: latticecast-opt: error: --verify-each=sometimes: the value must be true or false (or 1 or 0)
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
