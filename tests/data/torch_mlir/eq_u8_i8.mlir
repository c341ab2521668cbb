module {
  func.func @main(%arg0: tensor<4xui8>, %arg1: tensor<4xi8>) -> tensor<4xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xi8>
    %1 = stablehlo.compare EQ, %0, %arg1, SIGNED : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
    return %1 : tensor<4xi1>
  }
}
