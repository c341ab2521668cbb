module {
  func.func @main(%arg0: tensor<1x4xf16>) -> tensor<1x3xf16> {
    %cst = stablehlo.constant dense_resource<torch_tensor_3_torch.float16> : tensor<3xf16>
    %cst_0 = stablehlo.constant dense_resource<torch_tensor_3_4_torch.float16> : tensor<3x4xf16>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<1x3xf16>
    %cst_2 = arith.constant dense<1> : tensor<1xi64>
    %0 = stablehlo.transpose %cst_0, dims = [1, 0] : (tensor<3x4xf16>) -> tensor<4x3xf16>
    %1 = stablehlo.convert %cst : (tensor<3xf16>) -> tensor<3xf32>
    %2 = stablehlo.convert %arg0 : (tensor<1x4xf16>) -> tensor<1x4xf32>
    %3 = stablehlo.convert %0 : (tensor<4x3xf16>) -> tensor<4x3xf32>
    %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
    %5 = stablehlo.convert %cst_2 : (tensor<1xi64>) -> tensor<1xf32>
    %6 = stablehlo.reshape %5 : (tensor<1xf32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<1x3xf32>
    %9 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %10 = stablehlo.multiply %1, %9 : tensor<3xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %12 = stablehlo.add %8, %11 : tensor<1x3xf32>
    %13 = stablehlo.convert %12 : (tensor<1x3xf32>) -> tensor<1x3xf16>
    %14 = stablehlo.maximum %13, %cst_1 : tensor<1x3xf16>
    return %14 : tensor<1x3xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_3_torch.float16: "0x020000006CB709B50DB0",
      torch_tensor_3_4_torch.float16: "0x02000000BE245332CD346CB5F8B2D031A53696AEFD3528ADC62A3E37"
    }
  }
#-}
