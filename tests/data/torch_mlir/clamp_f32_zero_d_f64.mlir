module {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<f64>) -> tensor<3xf32> {
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %3 = stablehlo.clamp %1, %arg0, %2 : tensor<3xf32>
    return %3 : tensor<3xf32>
  }
}
