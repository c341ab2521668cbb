module {
  func.func @main(%arg0: tensor<4xi32>, %arg1: tensor<4xf16>) -> tensor<4xf16> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf16>
    %1 = stablehlo.add %0, %arg1 : tensor<4xf16>
    return %1 : tensor<4xf16>
  }
}
