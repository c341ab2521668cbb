module {
  func.func @main(%arg0: tensor<1x4xf16>, %arg1: tensor<f32>) -> tensor<1x4xf16> {
    %cst = stablehlo.constant dense_resource<torch_tensor_4_torch.float16> : tensor<4xf16>
    %cst_0 = stablehlo.constant dense_resource<torch_tensor_4_4_torch.float16> : tensor<4x4xf16>
    %cst_1 = arith.constant dense<1> : tensor<1xi64>
    %cst_2 = arith.constant dense<5.000000e-01> : tensor<1xf64>
    %0 = stablehlo.transpose %cst_0, dims = [1, 0] : (tensor<4x4xf16>) -> tensor<4x4xf16>
    %1 = stablehlo.convert %cst : (tensor<4xf16>) -> tensor<4xf32>
    %2 = stablehlo.convert %arg0 : (tensor<1x4xf16>) -> tensor<1x4xf32>
    %3 = stablehlo.convert %0 : (tensor<4x4xf16>) -> tensor<4x4xf32>
    %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
    %5 = stablehlo.convert %cst_1 : (tensor<1xi64>) -> tensor<1xf32>
    %6 = stablehlo.reshape %5 : (tensor<1xf32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<1x4xf32>
    %9 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %10 = stablehlo.multiply %1, %9 : tensor<4xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %12 = stablehlo.add %8, %11 : tensor<1x4xf32>
    %13 = stablehlo.convert %12 : (tensor<1x4xf32>) -> tensor<1x4xf16>
    %14 = stablehlo.convert %cst_2 : (tensor<1xf64>) -> tensor<1xf16>
    %15 = stablehlo.reshape %14 : (tensor<1xf16>) -> tensor<f16>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f16>) -> tensor<1x4xf16>
    %17 = stablehlo.multiply %13, %16 : tensor<1x4xf16>
    %18 = stablehlo.convert %arg1 : (tensor<f32>) -> tensor<f16>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<f16>) -> tensor<1x4xf16>
    %20 = stablehlo.add %17, %19 : tensor<1x4xf16>
    return %20 : tensor<1x4xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float16: "0x020000002AAE48AE2EB7E8B6",
      torch_tensor_4_4_torch.float16: "0x0200000030B796B37235A39AF4B321B67DB7C1B67EAE63345334B7B7FE3443B6C4AE7DB2"
    }
  }
#-}
