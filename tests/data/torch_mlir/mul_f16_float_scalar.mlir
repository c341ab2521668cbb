module {
  func.func @main(%arg0: tensor<4xf16>) -> tensor<4xf16> {
    %cst = arith.constant dense<1.500000e+00> : tensor<1xf64>
    %0 = stablehlo.convert %cst : (tensor<1xf64>) -> tensor<1xf16>
    %1 = stablehlo.reshape %0 : (tensor<1xf16>) -> tensor<f16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f16>) -> tensor<4xf16>
    %3 = stablehlo.multiply %arg0, %2 : tensor<4xf16>
    return %3 : tensor<4xf16>
  }
}
