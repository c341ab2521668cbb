module {
  func.func @main(%arg0: tensor<4xui8>, %arg1: tensor<i64>) -> tensor<4xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<4xui8>) -> tensor<4xi64>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %2 = stablehlo.compare EQ, %0, %1, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    return %2 : tensor<4xi1>
  }
}
