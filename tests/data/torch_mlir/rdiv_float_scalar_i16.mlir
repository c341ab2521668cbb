module {
  func.func @main(%arg0: tensor<4xi16>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    %cst_0 = arith.constant dense<7.000000e+00> : tensor<1xf64>
    %0 = stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>
    %1 = stablehlo.divide %cst, %0 : tensor<4xf32>
    %2 = stablehlo.convert %cst_0 : (tensor<1xf64>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.multiply %1, %4 : tensor<4xf32>
    return %5 : tensor<4xf32>
  }
}
