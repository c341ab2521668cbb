module {
  func.func @main(%arg0: tensor<4xi16>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
