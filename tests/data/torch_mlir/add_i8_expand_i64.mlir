module {
  func.func @main(%arg0: tensor<4xi8>, %arg1: tensor<i64>) -> tensor<4xi64> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %1 = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi64>
    %2 = stablehlo.add %1, %0 : tensor<4xi64>
    return %2 : tensor<4xi64>
  }
}
