module {
  func.func @main(%arg0: tensor<4xi1>) -> tensor<4xi64> {
    %c = stablehlo.constant dense<1> : tensor<4xi64>
    %0 = stablehlo.convert %arg0 : (tensor<4xi1>) -> tensor<4xi64>
    %1 = stablehlo.add %0, %c : tensor<4xi64>
    return %1 : tensor<4xi64>
  }
}
