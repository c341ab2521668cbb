module {
  func.func @main(%arg0: tensor<4xf64>) -> tensor<4xf64> {
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %0 = stablehlo.convert %cst : (tensor<f32>) -> tensor<f64>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<4xf64>
    %2 = stablehlo.subtract %1, %arg0 : tensor<4xf64>
    return %2 : tensor<4xf64>
  }
}
