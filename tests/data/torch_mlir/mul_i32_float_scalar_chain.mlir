module {
  func.func @main(%arg0: tensor<4xi32>) -> tensor<4xf32> {
    %cst = arith.constant dense<5.000000e-01> : tensor<1xf64>
    %cst_0 = arith.constant dense<1> : tensor<1xi64>
    %cst_1 = arith.constant dense<3> : tensor<1xi64>
    %0 = stablehlo.convert %cst : (tensor<1xf64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    %2 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<4xf32>
    %5 = stablehlo.convert %cst_0 : (tensor<1xi64>) -> tensor<1xf32>
    %6 = stablehlo.reshape %5 : (tensor<1xf32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %8 = stablehlo.add %4, %7 : tensor<4xf32>
    %9 = stablehlo.convert %cst_1 : (tensor<1xi64>) -> tensor<1xf32>
    %10 = stablehlo.reshape %9 : (tensor<1xf32>) -> tensor<f32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %12 = stablehlo.multiply %8, %11 : tensor<4xf32>
    return %12 : tensor<4xf32>
  }
}
