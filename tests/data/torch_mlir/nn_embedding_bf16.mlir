module {
  func.func @main(%arg0: tensor<1x3xi64>) -> tensor<1x3x4xbf16> {
    %cst = stablehlo.constant dense_resource<torch_tensor_10_4_torch.bfloat16> : tensor<10x4xbf16>
    %0 = "stablehlo.gather"(%cst, %arg0) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<10x4xbf16>, tensor<1x3xi64>) -> tensor<1x3x4xbf16>
    %1 = stablehlo.convert %0 : tensor<1x3x4xbf16>
    return %1 : tensor<1x3x4xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_10_4_torch.bfloat16: "0x0200000059BB09BF963FCA3EF93F4B3FA6BCE0BEC5BFD3BE773FD03FBBBEA7BFCC3DE23E963D8F3F913EDE3E4DBFA6BF40BFA8BF62BFD6BE4EBF113F1C3FEF3EFA3F88BF9EBDEE3D18BF9FBFD1BD84BFA0BE7C3E"
    }
  }
#-}
