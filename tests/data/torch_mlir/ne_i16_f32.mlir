module {
  func.func @main(%arg0: tensor<4xi16>, %arg1: tensor<4xf32>) -> tensor<4xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>
    %1 = stablehlo.compare NE, %0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %1 : tensor<4xi1>
  }
}
