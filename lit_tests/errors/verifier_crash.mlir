// An input that kills jaxlib's own verifier is refused with a located error
// instead: the verifier of the StableHLO in jaxlib divides by zero (SIGFPE) on an
// all_to_all whose replica_groups holds no group. latticecast-opt reports it as
// newer StableHLO does, with or without a pass, and goes on to the next chunk.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy max
// RUN: not latticecast-opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: verifier_crash.mlir:[[# @LINE + 4]]:8: error: group size of replica_groups must be 3: 'stablehlo.all_to_all' has no replica group (tensor<0x3xi64>)
func.func @no_groups(%x: tensor<6x6xf32>) -> tensor<18x2xf32> {
  // expected-error@+2 {{group size of replica_groups must be 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "stablehlo.all_to_all"(%x) <{split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64,
                                    replica_groups = dense<0> : tensor<0x3xi64>}> : (tensor<6x6xf32>) -> tensor<18x2xf32>
  return %0 : tensor<18x2xf32>
}

// -----

// The same op with groups is legal and comes through untouched (the chunks after a refused one run).
// CHECK-LABEL: func.func @two_groups
// CHECK:         "stablehlo.all_to_all"(%arg0)
func.func @two_groups(%x: tensor<6x6xf32>) -> tensor<18x2xf32> {
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64,
                                   replica_groups = dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>} : (tensor<6x6xf32>) -> tensor<18x2xf32>
  return %0 : tensor<18x2xf32>
}
