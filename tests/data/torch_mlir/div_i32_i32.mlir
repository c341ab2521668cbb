module {
  func.func @main(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
    %1 = stablehlo.convert %arg1 : (tensor<4xi32>) -> tensor<4xf32>
    %2 = stablehlo.divide %0, %1 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
