module {
  func.func @main(%arg0: tensor<4xi16>) -> tensor<4xi16> {
    %c = stablehlo.constant dense<3> : tensor<4xi16>
    %0 = stablehlo.subtract %c, %arg0 : tensor<4xi16>
    return %0 : tensor<4xi16>
  }
}
