# The graph builder's IR as built, run through latticecast-opt, gives exactly what
# the builder's own pass run gives: the text form of the mixed-dtype IR is a
# faithful input to the tool, and both run the same pass.
# RUN: %python %s before > %t.before.mlir
# RUN: %python %s after > %t.after.mlir
# RUN: latticecast-opt %t.before.mlir --implicit-cast --policy numpy -o %t.opt.mlir
# RUN: diff %t.after.mlir %t.opt.mlir
# RUN: FileCheck %s --input-file=%t.opt.mlir
# And without the pass the tool refuses the builder's mixed-dtype IR.
# RUN: not latticecast-opt %t.before.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY

import sys

from latticecast import DType, Graph, TensorType

with Graph("through_opt", input_types=[TensorType(DType.uint8, [2, 2]), TensorType(DType.float16, [2, 2])],
           policy="numpy") as g:
    u, h = g.inputs
    g.output((u + 1) * h, u - h, u < h)

text = g.mlir(before_passes=True) if sys.argv[1] == "before" else g.mlir()
sys.stdout.write(text if text.endswith("\n") else text + "\n")

# The comparison's direction is a property (`<{...}>` in the generic form); it survives.
# NumPy: uint8 + Python int stays uint8; uint8 with float16 is float16.
# CHECK-LABEL: func.func public @main
# CHECK-DAG:   stablehlo.constant dense<1> : tensor<2x2xui8>
# CHECK-DAG:   stablehlo.convert %arg0 : (tensor<2x2xui8>) -> tensor<2x2xf16>
# CHECK-DAG:   stablehlo.convert %{{[0-9]+}} : (tensor<2x2xui8>) -> tensor<2x2xf16>
# CHECK:       stablehlo.multiply {{.+}} : tensor<2x2xf16>
# CHECK:       stablehlo.subtract {{.+}} : tensor<2x2xf16>
# CHECK:       stablehlo.compare LT, {{.+}} : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xi1>
# VERIFY: error: {{.*}}op requires {{.+}}
