module {
  func.func @main(%arg0: tensor<4xi16>) -> tensor<4xi16> {
    %c = stablehlo.constant dense<3> : tensor<i16>
    %0 = stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf64>
    %1 = stablehlo.convert %c : (tensor<i16>) -> tensor<f64>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f64>) -> tensor<4xf64>
    %3 = stablehlo.divide %0, %2 : tensor<4xf64>
    %4 = stablehlo.floor %3 : tensor<4xf64>
    %5 = stablehlo.convert %4 : (tensor<4xf64>) -> tensor<4xi16>
    return %5 : tensor<4xi16>
  }
}
