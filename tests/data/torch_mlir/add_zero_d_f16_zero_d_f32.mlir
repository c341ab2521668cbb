module {
  func.func @main(%arg0: tensor<f16>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.convert %arg0 : (tensor<f16>) -> tensor<f32>
    %1 = stablehlo.add %0, %arg1 : tensor<f32>
    return %1 : tensor<f32>
  }
}
