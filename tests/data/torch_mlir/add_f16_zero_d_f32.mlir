module {
  func.func @main(%arg0: tensor<4xf16>, %arg1: tensor<f32>) -> tensor<4xf16> {
    %0 = stablehlo.convert %arg1 : (tensor<f32>) -> tensor<f16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f16>) -> tensor<4xf16>
    %2 = stablehlo.add %arg0, %1 : tensor<4xf16>
    return %2 : tensor<4xf16>
  }
}
