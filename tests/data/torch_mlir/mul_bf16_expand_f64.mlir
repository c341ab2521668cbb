module {
  func.func @main(%arg0: tensor<4xbf16>, %arg1: tensor<f64>) -> tensor<2x4xf64> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<2x4xf64>
    %1 = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf64>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<4xf64>) -> tensor<2x4xf64>
    %3 = stablehlo.multiply %2, %0 : tensor<2x4xf64>
    return %3 : tensor<2x4xf64>
  }
}
