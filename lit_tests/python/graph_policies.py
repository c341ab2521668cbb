# One graph, int8 + uint64 and int64 * float32, built under several policies: the
# IR after implicit-cast shows each system's answer (jax: weak float64; max:
# float16; numpy: float64; anvil: int64; int64 * float32 is float64 in numpy only).
# RUN: %python %s | FileCheck %s

from latticecast import DType, Graph, TensorType


def build(policy: str) -> str:
    with Graph(f"g_{policy.replace('-', '_')}",
               input_types=[TensorType(DType.int8, [3]), TensorType(DType.uint64, [3]),
                            TensorType(DType.int64, [3]), TensorType(DType.float32, [3])],
               policy=policy) as g:
        a, b, c, d = g.inputs
        g.output(a + b, c * d)
    return g.mlir()


for policy in ("jax", "max", "numpy", "anvil"):
    print(f"// POLICY {policy}")
    print(build(policy))

# CHECK-LABEL: // POLICY jax
# CHECK:       -> (tensor<3xf64>, tensor<3xf32>)
# CHECK-DAG:   stablehlo.convert %arg0 : (tensor<3xi8>) -> tensor<3xf64>
# CHECK-DAG:   stablehlo.convert %arg1 : (tensor<3xui64>) -> tensor<3xf64>
# CHECK-DAG:   stablehlo.convert %arg2 : (tensor<3xi64>) -> tensor<3xf32>
# CHECK:       stablehlo.add {{.+}} : tensor<3xf64>
# CHECK:       stablehlo.multiply {{.+}} : tensor<3xf32>

# CHECK-LABEL: // POLICY max
# CHECK:       -> (tensor<3xf16>, tensor<3xf32>)
# CHECK-DAG:   stablehlo.convert %arg0 : (tensor<3xi8>) -> tensor<3xf16>
# CHECK-DAG:   stablehlo.convert %arg1 : (tensor<3xui64>) -> tensor<3xf16>
# CHECK:       stablehlo.add {{.+}} : tensor<3xf16>

# CHECK-LABEL: // POLICY numpy
# CHECK:       -> (tensor<3xf64>, tensor<3xf64>)
# CHECK-DAG:   stablehlo.convert %arg2 : (tensor<3xi64>) -> tensor<3xf64>
# CHECK-DAG:   stablehlo.convert %arg3 : (tensor<3xf32>) -> tensor<3xf64>
# CHECK:       stablehlo.multiply {{.+}} : tensor<3xf64>

# CHECK-LABEL: // POLICY anvil
# CHECK:       -> (tensor<3xi64>, tensor<3xf32>)
# CHECK-DAG:   stablehlo.convert %arg0 : (tensor<3xi8>) -> tensor<3xi64>
# CHECK-DAG:   stablehlo.convert %arg1 : (tensor<3xui64>) -> tensor<3xi64>
# CHECK:       stablehlo.add {{.+}} : tensor<3xi64>
