module {
  func.func @main(%arg0: tensor<4xui8>, %arg1: tensor<4xi8>) -> tensor<4xi16> {
    %0 = stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xi16>
    %1 = stablehlo.convert %arg1 : (tensor<4xi8>) -> tensor<4xi16>
    %2 = stablehlo.minimum %0, %1 : tensor<4xi16>
    return %2 : tensor<4xi16>
  }
}
