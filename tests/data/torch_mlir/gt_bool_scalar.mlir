module {
  func.func @main(%arg0: tensor<4xi1>) -> tensor<4xi1> {
    %c = stablehlo.constant dense<false> : tensor<4xi1>
    %0 = stablehlo.compare GT, %arg0, %c, SIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    return %0 : tensor<4xi1>
  }
}
