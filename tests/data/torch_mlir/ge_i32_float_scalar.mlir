module {
  func.func @main(%arg0: tensor<4xi32>) -> tensor<4xi1> {
    %cst = arith.constant dense<2.500000e+00> : tensor<1xf64>
    %0 = stablehlo.convert %cst : tensor<1xf64>
    %1 = stablehlo.reshape %0 : (tensor<1xf64>) -> tensor<f64>
    %2 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
    %3 = stablehlo.convert %1 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.compare GE, %2, %4, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %5 : tensor<4xi1>
  }
}
