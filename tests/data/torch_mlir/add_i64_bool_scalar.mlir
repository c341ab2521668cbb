module {
  func.func @main(%arg0: tensor<4xi64>) -> tensor<4xi64> {
    %c = stablehlo.constant dense<1> : tensor<4xi64>
    %0 = stablehlo.add %arg0, %c : tensor<4xi64>
    return %0 : tensor<4xi64>
  }
}
