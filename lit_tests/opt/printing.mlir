// Printing options mlir-opt users expect.
// RUN: latticecast-opt %s --implicit-cast --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: latticecast-opt %s --implicit-cast --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: latticecast-opt %s --implicit-cast --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL
// --allow-unregistered-dialect is accepted (unregistered ops always are), and
// single-dash spellings work as in LLVM tools.
// RUN: latticecast-opt %s -allow-unregistered-dialect -implicit-cast -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// -o writes the output to a file.
// RUN: latticecast-opt %s --implicit-cast --mlir-print-op-generic -o %t.mlir
// RUN: FileCheck %s --check-prefix=GENERIC --input-file=%t.mlir
// The generic output of the pass reads back in and round-trips unchanged.
// RUN: latticecast-opt %t.mlir --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// GENERIC: "func.func"() <{function_type = (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "f"}>
// GENERIC: %[[C:.+]] = "stablehlo.convert"(%arg0) : (tensor<4xi16>) -> tensor<4xf32>
// GENERIC: "test.unregistered"() : () -> ()
// GENERIC: "stablehlo.add"(%[[C]], %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>

// Every location names this file: the ops', the function arguments', and the
// convert's, which is the converted argument's (shown inline with
// --mlir-print-local-scope).
// LOC:       stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32> loc(#loc{{[0-9]*}})
// LOC-NOT:   loc("-"
// LOCAL:     func.func @f(%arg0: tensor<4xi16> loc("{{.*}}printing.mlir":[[# @LINE + 5]]:14), %arg1: tensor<4xf32> loc("{{.*}}printing.mlir":[[# @LINE + 5]]:33))
// LOCAL:       stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32> loc("{{.*}}printing.mlir":[[# @LINE + 4]]:14)
// LOCAL:       stablehlo.add %{{.+}}, %arg1 : tensor<4xf32> loc("{{.*}}printing.mlir":[[# @LINE + 5]]:8)
// LOCAL-NOT: loc("-"

func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  "test.unregistered"() : () -> ()
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
