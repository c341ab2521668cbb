module {
  func.func @main(%arg0: tensor<1x4xbf16>, %arg1: tensor<2xf32>) -> tensor<1x2xf32> {
    %cst = stablehlo.constant dense_resource<torch_tensor_2_torch.bfloat16> : tensor<2xbf16>
    %cst_0 = stablehlo.constant dense_resource<torch_tensor_2_4_torch.bfloat16> : tensor<2x4xbf16>
    %cst_1 = arith.constant dense<1> : tensor<1xi64>
    %0 = stablehlo.transpose %cst_0, dims = [1, 0] : (tensor<2x4xbf16>) -> tensor<4x2xbf16>
    %1 = stablehlo.convert %cst : (tensor<2xbf16>) -> tensor<2xf32>
    %2 = stablehlo.convert %arg0 : (tensor<1x4xbf16>) -> tensor<1x4xf32>
    %3 = stablehlo.convert %0 : (tensor<4x2xbf16>) -> tensor<4x2xf32>
    %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
    %5 = stablehlo.convert %cst_1 : (tensor<1xi64>) -> tensor<1xf32>
    %6 = stablehlo.reshape %5 : (tensor<1xf32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<1x2xf32>
    %9 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %10 = stablehlo.multiply %1, %9 : tensor<2xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %12 = stablehlo.add %8, %11 : tensor<1x2xf32>
    %13 = stablehlo.convert %12 : (tensor<1x2xf32>) -> tensor<1x2xbf16>
    %14 = stablehlo.convert %13 : (tensor<1x2xbf16>) -> tensor<1x2xf32>
    %15 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %16 = stablehlo.add %14, %15 : tensor<1x2xf32>
    return %16 : tensor<1x2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.bfloat16: "0x02000000E73E393E",
      torch_tensor_2_4_torch.bfloat16: "0x02000000A0BDD43B69BE413EE6BE0ABDE13E51BE"
    }
  }
#-}
