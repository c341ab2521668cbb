module {
  func.func @main(%arg0: tensor<4xi32>, %arg1: tensor<i1>) -> tensor<4xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<i1>) -> tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.add %arg0, %1 : tensor<4xi32>
    return %2 : tensor<4xi32>
  }
}
