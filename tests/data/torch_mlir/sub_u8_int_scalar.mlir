module {
  func.func @main(%arg0: tensor<4xui8>) -> tensor<4xui8> {
    %c = stablehlo.constant dense<1> : tensor<4xui8>
    %0 = stablehlo.subtract %arg0, %c : tensor<4xui8>
    return %0 : tensor<4xui8>
  }
}
