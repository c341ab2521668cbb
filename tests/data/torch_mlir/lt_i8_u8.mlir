module {
  func.func @main(%arg0: tensor<4xi8>, %arg1: tensor<4xui8>) -> tensor<4xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xui8>
    %1 = stablehlo.compare LT, %0, %arg1, SIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
    return %1 : tensor<4xi1>
  }
}
