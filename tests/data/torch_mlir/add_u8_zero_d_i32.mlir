module {
  func.func @main(%arg0: tensor<4xui8>, %arg1: tensor<i32>) -> tensor<4xui8> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui8>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui8>) -> tensor<4xui8>
    %2 = stablehlo.add %arg0, %1 : tensor<4xui8>
    return %2 : tensor<4xui8>
  }
}
