module {
  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xi1> {
    %cst = arith.constant dense<1.000000e-01> : tensor<1xf64>
    %0 = stablehlo.convert %cst : tensor<1xf64>
    %1 = stablehlo.reshape %0 : (tensor<1xf64>) -> tensor<f64>
    %2 = stablehlo.convert %1 : (tensor<f64>) -> tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %4 = stablehlo.compare EQ, %arg0, %3, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    return %4 : tensor<3xi1>
  }
}
