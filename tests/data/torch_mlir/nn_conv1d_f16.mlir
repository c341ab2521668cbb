module {
  func.func @main(%arg0: tensor<1x2x5xf16>) -> tensor<1x2x3xf16> {
    %cst = stablehlo.constant dense_resource<torch_tensor_2_2_3_torch.float16> : tensor<2x2x3xf16>
    %cst_0 = stablehlo.constant dense_resource<torch_tensor_2_torch.float16> : tensor<2xf16>
    %0 = stablehlo.convolution(%arg0, %cst) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5xf16>, tensor<2x2x3xf16>) -> tensor<1x2x3xf16>
    %1 = stablehlo.reshape %cst_0 : (tensor<2xf16>) -> tensor<2x1xf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2] : (tensor<2x1xf16>) -> tensor<1x2x3xf16>
    %3 = stablehlo.add %0, %2 : tensor<1x2x3xf16>
    return %3 : tensor<1x2x3xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_2_3_torch.float16: "0x02000000E5B5223408AAD5B1393547B59B2978ADAA344B2F47329D30",
      torch_tensor_2_torch.float16: "0x0200000048AE7FAD"
    }
  }
#-}
