module {
  func.func @main(%arg0: tensor<4xi1>, %arg1: tensor<4xui8>, %arg2: tensor<4xi8>) -> tensor<4xi16> {
    %0 = stablehlo.convert %arg1 : (tensor<4xui8>) -> tensor<4xi16>
    %1 = stablehlo.convert %arg2 : (tensor<4xi8>) -> tensor<4xi16>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<4xi1>) -> tensor<4xi1>
    %3 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xi16>) -> tensor<4xi16>
    %4 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<4xi16>) -> tensor<4xi16>
    %5 = stablehlo.select %2, %3, %4 : tensor<4xi1>, tensor<4xi16>
    return %5 : tensor<4xi16>
  }
}
