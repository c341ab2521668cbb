# A graph sharded over a mesh: its mixed-dtype IR as built, run through latticecast-opt, gives
# exactly the builder's own pass run, and the converts the pass inserts keep the layout of the
# value they convert (an argument's sdy.sharding, a sharding constraint's). No device is needed:
# an AbstractMesh says the axes only.
# RUN: %python %s before > %t.before.mlir
# RUN: %python %s after > %t.after.mlir
# RUN: latticecast-opt %t.before.mlir --implicit-cast --policy jax -o %t.opt.mlir
# RUN: diff %t.after.mlir %t.opt.mlir
# RUN: FileCheck %s --input-file=%t.opt.mlir

import sys

from jax.sharding import AbstractMesh, AxisType, PartitionSpec as P

from latticecast import DType, Graph, TensorType, ops

mesh = AbstractMesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
with Graph("sharded", input_types=[TensorType(DType.int8, [8, 4], sharding=P("data", "model")),
                       TensorType(DType.float32, [8, 4]),
                       TensorType(DType.int16, [8, 4], sharding=P(("data", "model")))], mesh=mesh) as g:
    q, f, k = g.inputs
    c = ops.shard(k * 2, P("model", None))
    g.output(q * f + c, shardings=[P("data", None)])

text = g.mlir(before_passes=True) if sys.argv[1] == "before" else g.mlir()
sys.stdout.write(text if text.endswith("\n") else text + "\n")

# CHECK:       module @sharded attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}
# CHECK-NEXT:    sdy.mesh @mesh = <["data"=4, "model"=2]>
# CHECK-NEXT:    func.func public @main(%arg0: tensor<8x4xi8> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<8x4xi16> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "model"}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
# CHECK-DAG:     stablehlo.convert %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>} : (tensor<8x4xi8>) -> tensor<8x4xf32>
# CHECK-DAG:     %[[C:.+]] = sdy.sharding_constraint %{{.+}} <@mesh, [{"model"}, {}]> : tensor<8x4xi16>
# CHECK-DAG:     stablehlo.convert %[[C]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"model"}, {}]>]>} : (tensor<8x4xi16>) -> tensor<8x4xf32>
# CHECK:         return %{{.+}} : tensor<8x4xf32>
