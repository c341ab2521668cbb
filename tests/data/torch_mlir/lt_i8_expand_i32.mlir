module {
  func.func @main(%arg0: tensor<4xi8>, %arg1: tensor<i32>) -> tensor<4xi1> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %1 = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xi32>
    %2 = stablehlo.compare LT, %1, %0, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    return %2 : tensor<4xi1>
  }
}
