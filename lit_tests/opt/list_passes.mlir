// --list-passes lists latticecast's passes with their options, the policies, and every pass the
// installed jaxlib registers (options with their defaults); --help names latticecast's.
// RUN: latticecast-opt --list-passes | FileCheck %s
// RUN: latticecast-opt --help | FileCheck %s --check-prefix=HELP

// CHECK:      latticecast's passes:
// CHECK-NEXT:   --implicit-cast: Join operand types
// CHECK-NEXT:       options: policy=<name>, diagnose-lossy=off|remark|warning|error, lower-dtypes=true|false,
// CHECK-NEXT:         diagnose-precision=off|remark|warning|error, report-promotions=true|false,
// CHECK-NEXT:         retype-results=true|false, policy-file=<path>
// CHECK-NEXT:   --lower-dtypes:
// CHECK-NEXT:       options: everywhere=true|false
// CHECK-NEXT:   --lift-implicit-casts: Take out the stablehlo.converts
// CHECK-NEXT:       options: policy=<name>, policy-file=<path>
// CHECK-NEXT: Policies: jax, jax-x32, {{.*}}array-api, array-api-proposal,
// CHECK-NEXT: {{.*}}torch, tensorflow
// CHECK:      MLIR passes jaxlib {{.*}} registers ({{[0-9]+}}; each as --NAME or --NAME='OPTIONS'
// CHECK:        --canonicalize
// CHECK-NEXT:       options: {{.*}}max-iterations=10
// CHECK:        --cse
// CHECK:        --symbol-dce

// HELP:      --list-passes
// HELP:      latticecast's passes:
// HELP-NEXT:   --implicit-cast: Join operand types
// HELP-NEXT:       options: policy=<name>,
// HELP-NEXT:         diagnose-precision
// HELP-NEXT:         retype-results
// HELP-NEXT:   --lower-dtypes:
// HELP-NEXT:       options: everywhere=true|false
// HELP-NEXT:   --lift-implicit-casts:
// HELP-NEXT:       options: policy=<name>
// HELP-NEXT: Policies: jax, jax-x32,
