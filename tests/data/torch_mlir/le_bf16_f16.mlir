module {
  func.func @main(%arg0: tensor<4xbf16>, %arg1: tensor<4xf16>) -> tensor<4xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<4xbf16>) -> tensor<4xf16>
    %1 = stablehlo.compare LE, %0, %arg1, FLOAT : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
    return %1 : tensor<4xi1>
  }
}
