module {
  func.func @main(%arg0: tensor<3xi8>, %arg1: tensor<i64>) -> tensor<3xi1> {
    %0 = stablehlo.convert %arg0 : (tensor<3xi8>) -> tensor<3xi64>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %2 = stablehlo.compare EQ, %0, %1, SIGNED : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
    return %2 : tensor<3xi1>
  }
}
