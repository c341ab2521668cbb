// --verify-diagnostics designators, as MLIR defines them: no offset (this line),
// @+N and @-N, @above (the last line above that is not itself a designator),
// @below (the next such line; any other line counts, comments included), and
// -re with {{regex}} parts. All of these match, so the exit code is 0 although
// the pass fails.
// RUN: latticecast-opt %s --verify-diagnostics --implicit-cast --policy array-api

func.func @designators(%a: tensor<4xi32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // expected-error@below {{'stablehlo.maximum' op no implicit promotion}}
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.minimum"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error@above {{'stablehlo.minimum' op}}
  %2 = "stablehlo.multiply"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error-re@-1 {{no implicit promotion of i32 and f32 under policy '{{[a-z-]+}}': the standard leaves {{.*}} unspecified}}
  %3 = "stablehlo.divide"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32> // expected-error {{'stablehlo.divide' op}}
  // expected-error@+2 {{'stablehlo.power' op}}
  // expected-error@+2 {{'stablehlo.power' op}}
  %4 = "stablehlo.power"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = "stablehlo.power"(%a, %b) : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
