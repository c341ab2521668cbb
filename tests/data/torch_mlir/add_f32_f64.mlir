module {
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf64>) -> tensor<4xf64> {
    %0 = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xf64>
    %1 = stablehlo.add %0, %arg1 : tensor<4xf64>
    return %1 : tensor<4xf64>
  }
}
