module {
  func.func @main(%arg0: tensor<4xf16>) -> tensor<4xi1> {
    %cst = arith.constant dense<5.000000e-01> : tensor<1xf64>
    %0 = stablehlo.convert %cst : tensor<1xf64>
    %1 = stablehlo.reshape %0 : (tensor<1xf64>) -> tensor<f64>
    %2 = stablehlo.convert %1 : (tensor<f64>) -> tensor<f16>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f16>) -> tensor<4xf16>
    %4 = stablehlo.compare GT, %arg0, %3, FLOAT : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
    return %4 : tensor<4xi1>
  }
}
