module {
  func.func @main(%arg0: tensor<4xf16>, %arg1: tensor<f32>) -> tensor<4xi1> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
    %2 = stablehlo.compare EQ, %1, %0, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %2 : tensor<4xi1>
  }
}
