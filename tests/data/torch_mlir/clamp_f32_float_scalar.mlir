module {
  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %cst = arith.constant dense<0.33333333333333331> : tensor<1xf64>
    %cst_0 = arith.constant dense<0x4170000010000000> : tensor<1xf64>
    %0 = stablehlo.convert %cst : (tensor<1xf64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    %2 = stablehlo.convert %cst_0 : (tensor<1xf64>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.clamp %1, %arg0, %3 : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    return %4 : tensor<3xf32>
  }
}
