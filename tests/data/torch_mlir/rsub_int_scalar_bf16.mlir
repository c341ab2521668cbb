module {
  func.func @main(%arg0: tensor<4xbf16>) -> tensor<4xbf16> {
    %c = stablehlo.constant dense<10> : tensor<i64>
    %0 = stablehlo.convert %c : (tensor<i64>) -> tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<bf16>) -> tensor<4xbf16>
    %2 = stablehlo.subtract %1, %arg0 : tensor<4xbf16>
    return %2 : tensor<4xbf16>
  }
}
