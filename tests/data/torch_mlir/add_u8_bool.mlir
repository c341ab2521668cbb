module {
  func.func @main(%arg0: tensor<4xui8>, %arg1: tensor<4xi1>) -> tensor<4xui8> {
    %0 = stablehlo.convert %arg1 : (tensor<4xi1>) -> tensor<4xui8>
    %1 = stablehlo.add %arg0, %0 : tensor<4xui8>
    return %1 : tensor<4xui8>
  }
}
