module {
  func.func @main(%arg0: tensor<1x4xbf16>) -> tensor<1x3xbf16> {
    %cst = stablehlo.constant dense_resource<torch_tensor_3_torch.bfloat16> : tensor<3xbf16>
    %cst_0 = stablehlo.constant dense_resource<torch_tensor_3_4_torch.bfloat16> : tensor<3x4xbf16>
    %cst_1 = arith.constant dense<1> : tensor<1xi64>
    %0 = stablehlo.transpose %cst_0, dims = [1, 0] : (tensor<3x4xbf16>) -> tensor<4x3xbf16>
    %1 = stablehlo.convert %cst : (tensor<3xbf16>) -> tensor<3xf32>
    %2 = stablehlo.convert %arg0 : (tensor<1x4xbf16>) -> tensor<1x4xf32>
    %3 = stablehlo.convert %0 : (tensor<4x3xbf16>) -> tensor<4x3xf32>
    %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
    %5 = stablehlo.convert %cst_1 : (tensor<1xi64>) -> tensor<1xf32>
    %6 = stablehlo.reshape %5 : (tensor<1xf32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<1x3xf32>
    %9 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %10 = stablehlo.multiply %1, %9 : tensor<3xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %12 = stablehlo.add %8, %11 : tensor<1x3xf32>
    %13 = stablehlo.convert %12 : (tensor<1x3xf32>) -> tensor<1x3xbf16>
    return %13 : tensor<1x3xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_3_torch.bfloat16: "0x02000000F5BEAABE53BE",
      torch_tensor_3_4_torch.bfloat16: "0x0200000075BB893ED3BEBCBE45BE093E22BCCB3E36BD073E1BBEC9BD"
    }
  }
#-}
