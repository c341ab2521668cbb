module {
  func.func @main(%arg0: tensor<4xi64>) -> tensor<4xf32> {
    %cst = arith.constant dense<2> : tensor<1xi64>
    %0 = stablehlo.convert %cst : (tensor<1xi64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    %2 = stablehlo.convert %arg0 : (tensor<4xi64>) -> tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.divide %2, %3 : tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}
