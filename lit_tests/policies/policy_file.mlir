// A user-defined policy: the promotion lattice in Inputs/small_lattice.csv (a CSV table, the format of
// `latticecast table --format csv`), given to implicit-cast with --policy-file or, in a pipeline,
// implicit-cast{policy-file=...}. Both spellings insert the same converts.
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --implicit-cast --policy-file %S/Inputs/small_lattice.csv | FileCheck %s
// RUN: latticecast-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(implicit-cast{policy-file=%S/Inputs/small_lattice.csv})' | FileCheck %s
// A table that is not symmetric is refused before anything runs, at the cell (its line and a caret), with the fix:
// RUN: not latticecast-opt %s --implicit-cast --policy-file %S/Inputs/asymmetric.csv 2>&1 | FileCheck %s --check-prefix=ASYM
// ASYM: {{.*}}asymmetric.csv:4:7: error: u8 . i8 is i8 but i8 . u8 at 3:11 is i16; a promotion table is symmetric: make the two cells the same
// ASYM-NEXT: uint8,int8,uint8,int16
// ASYM-NEXT: {{^      \^$}}
// ASYM-NOT: Traceback

// i8 . ui8 = i16 (the table's cell).
// CHECK-LABEL: func.func @i8_ui8
// CHECK-SAME:    (%[[A:.+]]: tensor<4xi8>, %[[B:.+]]: tensor<4xui8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %[[A]] : (tensor<4xi8>) -> tensor<4xi16>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %[[B]] : (tensor<4xui8>) -> tensor<4xi16>
// CHECK:         stablehlo.add %[[CA]], %[[CB]] : tensor<4xi16>
func.func @i8_ui8(%a: tensor<4xi8>, %b: tensor<4xui8>) -> tensor<4xi16> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xi8>, tensor<4xui8>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// i16 . f16 = f32 in this table (f16 under JAX): integers reach the floats only at f32.
// CHECK-LABEL: func.func @i16_f16
// CHECK-DAG:     %[[CA:.+]] = stablehlo.convert %{{.+}} : (tensor<4xi16>) -> tensor<4xf32>
// CHECK-DAG:     %[[CB:.+]] = stablehlo.convert %{{.+}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         stablehlo.multiply %[[CA]], %[[CB]] : tensor<4xf32>
func.func @i16_f16(%a: tensor<4xi16>, %b: tensor<4xf16>) -> tensor<4xf32> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<4xi16>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A weak integer constant (a Python int, i* in the table) takes the strong type: rebuilt as i8.
// CHECK-LABEL: func.func @weak_int
// CHECK:         %[[K:.+]] = stablehlo.constant dense<5> : tensor<4xi8>
// CHECK-NEXT:    stablehlo.add %{{.+}}, %[[K]] : tensor<4xi8>
func.func @weak_int(%x: tensor<4xi8>) -> tensor<4xi8> {
  %k = stablehlo.constant {latticecast.weak} dense<5> : tensor<4xi64>
  %0 = "stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// bf16 . f32 is an empty cell: no promotion, reported at the op with the cell's place in the file.
func.func @bf16_f32(%a: tensor<4xbf16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{no implicit promotion of bf16 and f32 under policy 'small_lattice.csv': the cell at}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
