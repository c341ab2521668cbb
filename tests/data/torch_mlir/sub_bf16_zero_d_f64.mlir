module {
  func.func @main(%arg0: tensor<4xbf16>, %arg1: tensor<f64>) -> tensor<4xbf16> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<bf16>) -> tensor<4xbf16>
    %2 = stablehlo.subtract %arg0, %1 : tensor<4xbf16>
    return %2 : tensor<4xbf16>
  }
}
