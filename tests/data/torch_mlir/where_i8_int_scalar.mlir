module {
  func.func @main(%arg0: tensor<4xi1>, %arg1: tensor<4xi8>) -> tensor<4xi8> {
    %c = stablehlo.constant dense<0> : tensor<4xi8>
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xi1>) -> tensor<4xi1>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xi8>) -> tensor<4xi8>
    %2 = stablehlo.select %0, %1, %c : tensor<4xi1>, tensor<4xi8>
    return %2 : tensor<4xi8>
  }
}
