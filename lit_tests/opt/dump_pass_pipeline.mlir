// --dump-pass-pipeline prints the pipeline as built to standard error, every option
// spelled out: implicit-cast's policy and the others too, so the printed pipeline
// reproduces the run when given back to --pass-pipeline.
// RUN: latticecast-opt %s --implicit-cast --policy max --canonicalize --dump-pass-pipeline -o %t 2>&1 | FileCheck %s
// RUN: latticecast-opt %s --pass-pipeline='builtin.module(implicit-cast{policy=max diagnose-lossy=off lower-dtypes=true},canonicalize)' -o %t.again
// RUN: diff %t %t.again

// CHECK:      Pass Manager with 2 passes:
// CHECK-NEXT: builtin.module(implicit-cast{policy=max diagnose-lossy=off lower-dtypes=true diagnose-precision=off report-promotions=false retype-results=false},canonicalize{{[{].*[}]}})
func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
