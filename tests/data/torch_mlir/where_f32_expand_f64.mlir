module {
  func.func @main(%arg0: tensor<3xi1>, %arg1: tensor<3xf32>, %arg2: tensor<f64>) -> tensor<3xf64> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f64>) -> tensor<3xf64>
    %1 = stablehlo.convert %arg1 : (tensor<3xf32>) -> tensor<3xf64>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<3xf64>) -> tensor<3xf64>
    %4 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<3xf64>) -> tensor<3xf64>
    %5 = stablehlo.select %2, %3, %4 : tensor<3xi1>, tensor<3xf64>
    return %5 : tensor<3xf64>
  }
}
