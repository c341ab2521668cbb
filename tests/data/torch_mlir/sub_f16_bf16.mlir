module {
  func.func @main(%arg0: tensor<4xf16>, %arg1: tensor<4xbf16>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
    %1 = stablehlo.convert %arg1 : (tensor<4xbf16>) -> tensor<4xf32>
    %2 = stablehlo.subtract %0, %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
