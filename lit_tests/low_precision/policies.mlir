// The systems that predate the low-precision types refuse them, naming their dtypes.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy max
// RUN: not latticecast-opt %s --implicit-cast --policy anvil 2>&1 | FileCheck %s --check-prefix=ANVIL
// RUN: not latticecast-opt %s --implicit-cast --policy array-api 2>&1 | FileCheck %s --check-prefix=API
// RUN: not latticecast-opt %s --implicit-cast --policy torch 2>&1 | FileCheck %s --check-prefix=TORCH
// RUN: not latticecast-opt %s --implicit-cast --policy tensorflow 2>&1 | FileCheck %s --check-prefix=TF

// ANVIL: error: 'stablehlo.add' op float8_e4m3fn is not a dtype of policy 'anvil' ({{.*}}): anvil's promotion tables predate the low-precision dtypes (float8, float6, float4, sub-byte integers); its dtypes are bool, int8,
// API: error: 'stablehlo.add' op float8_e4m3fn is not a dtype of policy 'array-api' ({{.*}}): the Array API standard defines no bfloat16 or low-precision dtypes
// TORCH: error: 'stablehlo.add' op no implicit promotion of i16 and f8e4m3fn under policy 'torch': PyTorch promotes a float8 dtype with nothing but itself (c10::promoteTypes: 'Promotion for Float8 Types is not supported')
// TF: error: 'stablehlo.add' op no implicit promotion of i16 and f8e4m3fn under policy 'tensorflow': TensorFlow 2.21 holds float8_e4m3fn for storage only
func.func @i16_f8(%a: tensor<4xi16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{float8_e4m3fn is not a dtype of policy 'max' (Modular MAX graph type promotion): the seed's MAX type promotion predates the low-precision dtypes (float8, float6, float4, sub-byte integers); its dtypes are bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, index, address, float16, bfloat16, float32, tensor_float32, float64}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}
