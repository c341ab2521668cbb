// --list-passes lists latticecast's passes with their options and the policies;
// --help names them too.
// RUN: latticecast-opt --list-passes | FileCheck %s
// RUN: latticecast-opt --help | FileCheck %s --check-prefix=HELP

// CHECK:      latticecast's passes:
// CHECK-NEXT:   --implicit-cast: Join operand types
// CHECK-NEXT:       options: policy=<name>, diagnose-lossy=off|remark|warning|error, lower-dtypes=true|false, diagnose-precision=off|remark|warning|error, report-promotions=true|false, retype-results=true|false, policy-file=<path>
// CHECK-NEXT:   --lower-dtypes:
// CHECK-NEXT: Policies: jax, jax-x32, {{.*}}array-api, array-api-proposal,
// CHECK-NEXT: {{.*}}torch, tensorflow
// CHECK:      Any MLIR pass jaxlib registers runs too

// HELP:      --list-passes
// HELP:      latticecast's passes:
// HELP-NEXT:   --implicit-cast: Join operand types
// HELP-NEXT:       options: policy=<name>,
// HELP-NEXT:   --lower-dtypes:
// HELP-NEXT: Policies: jax, jax-x32,
