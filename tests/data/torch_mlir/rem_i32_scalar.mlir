module {
  func.func @main(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    %c = stablehlo.constant dense<3> : tensor<4xi32>
    %0 = stablehlo.remainder %arg0, %c : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
