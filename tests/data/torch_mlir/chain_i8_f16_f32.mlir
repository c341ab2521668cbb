module {
  func.func @main(%arg0: tensor<4xi8>, %arg1: tensor<4xf16>, %arg2: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<4xi8>) -> tensor<4xf16>
    %1 = stablehlo.add %0, %arg1 : tensor<4xf16>
    %2 = stablehlo.convert %1 : (tensor<4xf16>) -> tensor<4xf32>
    %3 = stablehlo.multiply %2, %arg2 : tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}
