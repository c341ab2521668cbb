module {
  func.func @main(%arg0: tensor<4xi8>, %arg1: tensor<i64>) -> tensor<4xi8> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i8>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i8>) -> tensor<4xi8>
    %2 = stablehlo.add %arg0, %1 : tensor<4xi8>
    return %2 : tensor<4xi8>
  }
}
