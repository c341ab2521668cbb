module {
  func.func @main(%arg0: tensor<4xi64>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf32>
    %1 = stablehlo.add %0, %arg1 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
