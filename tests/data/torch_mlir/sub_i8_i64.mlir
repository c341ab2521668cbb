module {
  func.func @main(%arg0: tensor<4xi8>, %arg1: tensor<4xi64>) -> tensor<4xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi64>
    %1 = stablehlo.subtract %0, %arg1 : tensor<4xi64>
    return %1 : tensor<4xi64>
  }
}
