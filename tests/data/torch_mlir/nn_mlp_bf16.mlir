module {
  func.func @main(%arg0: tensor<1x4xbf16>) -> tensor<1x2xbf16> {
    %cst = stablehlo.constant dense_resource<torch_tensor_2_torch.bfloat16> : tensor<2xbf16>
    %cst_0 = stablehlo.constant dense_resource<torch_tensor_2_8_torch.bfloat16> : tensor<2x8xbf16>
    %cst_1 = stablehlo.constant dense_resource<torch_tensor_8_torch.bfloat16> : tensor<8xbf16>
    %cst_2 = stablehlo.constant dense_resource<torch_tensor_8_4_torch.bfloat16> : tensor<8x4xbf16>
    %cst_3 = arith.constant dense<1> : tensor<1xi64>
    %0 = stablehlo.transpose %cst_2, dims = [1, 0] : (tensor<8x4xbf16>) -> tensor<4x8xbf16>
    %1 = stablehlo.convert %cst_1 : (tensor<8xbf16>) -> tensor<8xf32>
    %2 = stablehlo.convert %arg0 : (tensor<1x4xbf16>) -> tensor<1x4xf32>
    %3 = stablehlo.convert %0 : (tensor<4x8xbf16>) -> tensor<4x8xf32>
    %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0] : (tensor<1x4xf32>, tensor<4x8xf32>) -> tensor<1x8xf32>
    %5 = stablehlo.convert %cst_3 : (tensor<1xi64>) -> tensor<1xf32>
    %6 = stablehlo.reshape %5 : (tensor<1xf32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1x8xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<1x8xf32>
    %9 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %10 = stablehlo.multiply %1, %9 : tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %12 = stablehlo.add %8, %11 : tensor<1x8xf32>
    %13 = stablehlo.convert %12 : (tensor<1x8xf32>) -> tensor<1x8xbf16>
    %14 = stablehlo.tanh %13 : tensor<1x8xbf16>
    %15 = stablehlo.transpose %cst_0, dims = [1, 0] : (tensor<2x8xbf16>) -> tensor<8x2xbf16>
    %16 = stablehlo.convert %cst : (tensor<2xbf16>) -> tensor<2xf32>
    %17 = stablehlo.convert %14 : (tensor<1x8xbf16>) -> tensor<1x8xf32>
    %18 = stablehlo.convert %15 : (tensor<8x2xbf16>) -> tensor<8x2xf32>
    %19 = stablehlo.dot_general %17, %18, contracting_dims = [1] x [0] : (tensor<1x8xf32>, tensor<8x2xf32>) -> tensor<1x2xf32>
    %20 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
    %21 = stablehlo.multiply %19, %20 : tensor<1x2xf32>
    %22 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %23 = stablehlo.multiply %16, %22 : tensor<2xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %25 = stablehlo.add %21, %24 : tensor<1x2xf32>
    %26 = stablehlo.convert %25 : (tensor<1x2xf32>) -> tensor<1x2xbf16>
    return %26 : tensor<1x2xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.bfloat16: "0x020000006EBD26BE",
      torch_tensor_2_8_torch.bfloat16: "0x020000008BBE05BE0E3E963E9E3EA03E903D9DBE053D62BEA9BEA13E8A3EB5BE883D74BD",
      torch_tensor_8_torch.bfloat16: "0x0200000098BE1B3E8D3E81BD9C3CED3D9F3EF63E",
      torch_tensor_8_4_torch.bfloat16: "0x0200000048BEDD3EA6BE6CBEB3BEF0BE95BEDC3E643E783ED73C83BEAD3DEFBEB9BE84BEA23E963E63BE94BCA43EFE3E4B3E8A3DAC3E97BEBF3DC6BEB1BE84BE683E4E3E"
    }
  }
#-}
