module {
  func.func @main(%arg0: tensor<2x3xf16>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %2 = stablehlo.add %0, %1 : tensor<2x3xf32>
    return %2 : tensor<2x3xf32>
  }
}
