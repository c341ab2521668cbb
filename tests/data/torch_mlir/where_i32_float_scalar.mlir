module {
  func.func @main(%arg0: tensor<4xi1>, %arg1: tensor<4xi32>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<2.500000e+00> : tensor<f32>
    %0 = stablehlo.convert %arg1 : (tensor<4xi32>) -> tensor<4xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xi1>) -> tensor<4xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xf32>) -> tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.select %1, %2, %3 : tensor<4xi1>, tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}
