module {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<f64>) -> tensor<3xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<3xf32>) -> tensor<3xf64>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<3xf64>
    %2 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
    return %2 : tensor<3xi1>
  }
}
