module {
  func.func @main(%arg0: tensor<4xbf16>, %arg1: tensor<4xi32>) -> tensor<4xbf16> {
    %0 = stablehlo.convert %arg1 : (tensor<4xi32>) -> tensor<4xbf16>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4xbf16>
    return %1 : tensor<4xbf16>
  }
}
