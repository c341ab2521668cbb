module {
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<4xf16>) -> tensor<4xf16> {
    %0 = stablehlo.convert %arg0 : (tensor<f32>) -> tensor<f16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f16>) -> tensor<4xf16>
    %2 = stablehlo.add %1, %arg1 : tensor<4xf16>
    return %2 : tensor<4xf16>
  }
}
