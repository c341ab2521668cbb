module {
  func.func @main(%arg0: tensor<3xi1>, %arg1: tensor<3xf32>, %arg2: tensor<f64>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
    %2 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<3xf32>) -> tensor<3xf32>
    %3 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %4 = stablehlo.select %1, %2, %3 : tensor<3xi1>, tensor<3xf32>
    return %4 : tensor<3xf32>
  }
}
