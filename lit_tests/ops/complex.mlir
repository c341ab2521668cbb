// stablehlo.complex builds complex<fN> from two fN parts: the parts are promoted to
// their join, which must be f32 or f64, and the result is complex of it. Ordinary
// arithmetic that mixes complex and real operands promotes to complex (policy jax).
// RUN: latticecast-opt %s --split-input-file --implicit-cast | FileCheck %s

// CHECK-LABEL: func.func @complex_f32_f64
// CHECK-SAME:    (%[[RE:.+]]: tensor<4xf32>, %[[IM:.+]]: tensor<4xf64>) -> tensor<4xcomplex<f64>>
// CHECK:         %[[CRE:.+]] = stablehlo.convert %[[RE]] : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NEXT:    stablehlo.complex %[[CRE]], %[[IM]] : tensor<4xcomplex<f64>>
func.func @complex_f32_f64(%re: tensor<4xf32>, %im: tensor<4xf64>) -> tensor<4xcomplex<f64>> {
  %0 = "stablehlo.complex"(%re, %im) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

// f16 and f32 parts: complex<f32>.
// CHECK-LABEL: func.func @complex_f16_f32
// CHECK:         %[[CRE:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    stablehlo.complex %[[CRE]], %{{.+}} : tensor<4xcomplex<f32>>
func.func @complex_f16_f32(%re: tensor<4xf16>, %im: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.complex"(%re, %im) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// bf16 and f16 meet at f32, which complex accepts.
// CHECK-LABEL: func.func @complex_bf16_f16
// CHECK-DAG:     %[[CRE:.+]] = stablehlo.convert %{{.+}} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-DAG:     %[[CIM:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         stablehlo.complex %[[CRE]], %[[CIM]] : tensor<4xcomplex<f32>>
func.func @complex_bf16_f16(%re: tensor<4xbf16>, %im: tensor<4xf16>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.complex"(%re, %im) : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// c64 + f64: f64 -> c128 and c64 -> c128.
// CHECK-LABEL: func.func @add_c64_f64
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf64>) -> tensor<4xcomplex<f64>>
// CHECK:         stablehlo.add %[[CA]], %[[CB]] : tensor<4xcomplex<f64>>
func.func @add_c64_f64(%a: tensor<4xcomplex<f32>>, %b: tensor<4xf64>) -> tensor<4xcomplex<f64>> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xcomplex<f32>>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

// c64 * f32: only the real operand changes.
// CHECK-LABEL: func.func @multiply_c64_f32
// CHECK-SAME:    (%[[A:.+]]: tensor<4xcomplex<f32>>, %[[B:.+]]: tensor<4xf32>)
// CHECK:         %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
// CHECK-NEXT:    stablehlo.multiply %[[A]], %[[CB]] : tensor<4xcomplex<f32>>
func.func @multiply_c64_f32(%a: tensor<4xcomplex<f32>>, %b: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xcomplex<f32>>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
