module {
  func.func @main(%arg0: tensor<4xui8>, %arg1: tensor<4xi16>) -> tensor<4xi16> {
    %0 = stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xi16>
    %1 = stablehlo.multiply %0, %arg1 : tensor<4xi16>
    return %1 : tensor<4xi16>
  }
}
